@testable import ChoosyKit

// Catalog links come from downloaded and user files, and decide which app gets a link. The
// pattern reader must survive any text; a pattern it accepts reads the same again, and its
// match of a link is deterministic, takes only the pattern's own placeholders, holds only for
// a host the pattern names (or a subdomain, for `*.`; one ending in the labels after a
// placeholder label), and needs the same number of path
// segments; a matching link still matches when its query items are reordered; a typed
// placeholder's value is of its kind (`{{id:digits}}`).
//
// Input fields: the pattern, then a link.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkPattern(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let source = input.field(0)
    guard let pattern = try? LinkPattern(parsing: source) else { return 0 }
    invariant((try? LinkPattern(parsing: source)) == pattern, "reading \(source.debugDescription) is not deterministic")
    let keys = Set(placeholderKeys(source))
    guard let link = try? WebURL(parsing: input.field(1)), let parameters = pattern.match(link) else { return 0 }

    invariant(pattern.match(link) == parameters, "matching \(source.debugDescription) is not deterministic")
    for key in parameters.keys {
        invariant(keys.contains(key), "\(source.debugDescription) gave \(key.debugDescription), which it has no placeholder for")
    }
    for (key, kind) in placeholderKinds(source) {
        guard let value = parameters[key] else { continue }
        invariant(fits(value, kind), "\(source.debugDescription) gave \(key)=\(value.debugDescription), which is not \(kind)")
    }
    let host = pattern.host
    invariant(host.matches(link.host), "\(source.debugDescription) matched the host \(link.host.serialized), which it does not take")
    // The host is the pattern's own domain (or a subdomain, for `*.`); with a placeholder label,
    // it ends in the literal labels after the last placeholder.
    let suffix = host.literalSuffix ?? ""
    invariant(
        link.host.domainName.map { name in
            suffix == host.domain
                ? (host.includesSubdomains ? link.host.isWithin(.domain(host.domain)) : name == host.domain)
                : suffix.isEmpty || name.hasSuffix("." + suffix)
        } == true,
        "\(source.debugDescription) matched the host \(link.host.serialized)")
    let segments = link.pathSegments.last == "" ? link.pathSegments.dropLast() : link.pathSegments[...]
    invariant(segments.count == pattern.segments.count, "\(source.debugDescription) matched \(segments.count) segments")
    if let query = link.query {
        let reversed = query.split(separator: "&", omittingEmptySubsequences: false).reversed().joined(separator: "&")
        let shuffled = try? WebURL(
            parsing: "https://\(link.host.serialized)/\(link.pathSegments.joined(separator: "/"))?\(reversed)"
                + (link.fragment.map { "#" + $0 } ?? ""))
        // A repeated name counts once (the first), so reordering may change which value is taken.
        if let shuffled, Set(URLParts.queryItems(of: query).map(\.name)).count == URLParts.queryItems(of: query).count {
            invariant(pattern.match(shuffled) != nil, "\(source.debugDescription) stopped matching when the query was reordered")
        }
    }
    return 0
}

/// The keys between `{{` and `}}` in a pattern, without a kind (`:digits`) or a trailing `!`.
private func placeholderKeys(_ source: String) -> [String] {
    source.split(separator: "{{").dropFirst().compactMap { part in
        part.firstRange(of: "}}").map { String(part[..<$0.lowerBound].replacing("!", with: "").prefix { $0 != ":" }) }
    }
}

/// Each typed placeholder's key and kind (`{{id:digits:9-11}}` is `id`, `digits`).
private func placeholderKinds(_ source: String) -> [(String, String)] {
    source.split(separator: "{{").dropFirst().compactMap { part in
        guard let close = part.firstRange(of: "}}") else { return nil }
        let fields = part[..<close.lowerBound].replacing("!", with: "").split(separator: ":", omittingEmptySubsequences: false)
        return fields.count > 1 ? (String(fields[0]), String(fields[1])) : nil
    }
}

/// The kinds as doc/links-and-rules.md, "Links in the catalog", states them, written apart from the reader's own checks.
private func fits(_ value: String, _ kind: String) -> Bool {
    let digits = { (text: Substring) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
    switch kind {
    case "digits": return digits(value[...])
    case "word": return !value.isEmpty && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    case "number":
        let unsigned = value.hasPrefix("-") ? value.dropFirst() : value[...]
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.allSatisfy(digits)
    default: return false
    }
}
