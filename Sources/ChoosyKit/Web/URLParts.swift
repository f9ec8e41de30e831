/// The generic parts of an absolute URI (RFC 3986 appendix B), as written: nothing is decoded
/// or normalised, so callers decide what each part means for their scheme.
package struct URLParts: Equatable, Sendable {
    /// As written; compare it lowercased.
    package var scheme: Substring
    /// What follows `//`, when the URL has it.
    package var authority: Substring?
    package var path: Substring
    package var query: Substring?
    package var fragment: Substring?

    /// Nil when `url` does not start with a valid scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
    package init?(_ url: some StringProtocol) {
        let text = Substring(url)
        guard let colon = text.firstIndex(of: ":"), URLParts.isValidScheme(text[..<colon]) else { return nil }
        scheme = text[..<colon]
        var rest = text[text.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = afterSlashes[..<end]
            rest = afterSlashes[end...]
        }
        path = rest
    }

    /// The authority's host, lowercased, without user information or port.
    package var host: String? {
        guard var host = authority else { return nil }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[...close]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        return host.lowercased()
    }

    /// The query's `&`-separated items split at their first `=` (nil value without one),
    /// still encoded; empty items are skipped.
    package var queryItems: [(name: Substring, value: Substring?)] {
        URLParts.queryItems(of: query)
    }

    /// The `&`-separated items of a query, each split at its first `=` (nil value without one).
    package static func queryItems(of query: (some StringProtocol)?) -> [(name: Substring, value: Substring?)] {
        guard let query else { return [] }
        return Substring(query).split(separator: "&").map { item in
            guard let equals = item.firstIndex(of: "=") else { return (item, nil) }
            return (item[..<equals], item[item.index(after: equals)...])
        }
    }

    package static func isValidScheme(_ scheme: some StringProtocol) -> Bool {
        guard let first = scheme.utf8.first, isLetter(first) else { return false }
        return scheme.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
