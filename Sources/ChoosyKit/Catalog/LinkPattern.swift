/// A web link pattern of the catalog (README, "Links in the catalog"):
/// `https://*.zoom.us/j/{{meeting_id}}?pwd={{password}}`. It matches an http(s) link by the
/// host a browser reaches, the path segment by segment, chosen query items and the fragment,
/// and gives the parameters its placeholders took, percent-decoded. Patterns are read and
/// matched as UTF-8 bytes: a `handle` may read a hundred of them.
package struct LinkPattern: Equatable, Sendable {
    /// The pattern as written, which names it in warnings and output.
    package let source: String
    package let host: HostPattern
    let segments: [Segment]
    let query: [QueryItem]
    let fragment: Fragment?

    /// Exact host or a domain with its subdomains.
    package struct HostPattern: Equatable, Sendable {
        /// Lowercase ASCII labels, no trailing dot.
        package let domain: String
        /// `*.example.org`: the domain itself and every subdomain.
        package let includesSubdomains: Bool

        package init(domain: String, includesSubdomains: Bool) {
            self.domain = domain
            self.includesSubdomains = includesSubdomains
        }

        /// `*.zoom.us` or `t.me`, as a pattern writes it; nil when it is no such host.
        package init?(_ text: String) {
            guard let read = try? LinkPattern.hostPattern(Array(text.utf8)[...]) else { return nil }
            self = read
        }

        /// As a pattern writes it.
        package var text: String { (includesSubdomains ? "*." : "") + domain }

        package func matches(_ host: WebHost) -> Bool {
            guard let name = host.domainName else { return false }
            return includesSubdomains ? host.isWithin(.domain(domain)) : name == domain
        }
    }

    /// One path segment: literal bytes and placeholders, never two placeholders side by side.
    struct Segment: Equatable, Sendable {
        let parts: [Part]

        var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }
    }

    enum Part: Equatable, Sendable {
        case literal([UInt8])
        /// nil is `{{_}}`: it matches and keeps nothing.
        case placeholder(String?)
    }

    struct QueryItem: Equatable, Sendable {
        enum Value: Equatable, Sendable {
            /// `k={{key}}`: taken when present.
            case optional(String)
            /// `k={{key!}}`: present and not empty; nil is `{{_!}}`, which keeps nothing.
            case required(String?)
            /// `k=text`: present and equal.
            case literal(String)
        }

        let name: String
        let value: Value
    }

    /// `#/` + literal text + one placeholder taking the rest of the decoded fragment up to a `?`.
    struct Fragment: Equatable, Sendable {
        let prefix: String
        let key: String?
    }

    /// Which of two matching patterns wins: an exact host, then more literal path segments,
    /// then more literal query items.
    package struct Specificity: Comparable, Sendable {
        let exactHost: Bool
        let literalSegments: Int
        let literalQueryItems: Int

        package static func < (lhs: Specificity, rhs: Specificity) -> Bool {
            (lhs.exactHost ? 1 : 0, lhs.literalSegments, lhs.literalQueryItems)
                < (rhs.exactHost ? 1 : 0, rhs.literalSegments, rhs.literalQueryItems)
        }
    }

    package var specificity: Specificity {
        Specificity(
            exactHost: !host.includesSubdomains,
            literalSegments: segments.count { $0.isLiteral },
            literalQueryItems: query.count { if case .literal = $0.value { true } else { false } }
        )
    }

    /// The parameters the link gives, or nil when it does not match.
    package func match(_ link: WebURL) -> [String: String]? {
        guard host.matches(link.host) else { return nil }
        var parameters: [String: String] = [:]
        // A trailing `/` on the link is the same page (`https://t.me/name/`).
        var linkSegments = link.pathSegments[...]
        if linkSegments.last == "" { linkSegments.removeLast() }
        guard linkSegments.count == segments.count else { return nil }
        for (segment, text) in zip(segments, linkSegments) {
            guard Self.match(segment.parts[...], Array(text.utf8)[...], into: &parameters) else { return nil }
        }
        if !query.isEmpty {
            guard matchQuery(link.query, into: &parameters) else { return nil }
        }
        if let fragment {
            let decoded = PercentEncoding.decodeLeniently(link.fragment ?? "")
            guard decoded.hasPrefix("/" + fragment.prefix) else { return nil }
            let rest = decoded.utf8.dropFirst(1 + fragment.prefix.utf8.count).prefix { $0 != UInt8(ascii: "?") }
            guard !rest.isEmpty else { return nil }
            if let key = fragment.key { parameters[key] = String(decoding: rest, as: UTF8.self) }
        }
        return parameters
    }

    /// A segment's parts against the (percent-encoded) segment text: a placeholder takes one or
    /// more bytes up to the next literal text, or to the end.
    private static func match(_ parts: ArraySlice<Part>, _ text: ArraySlice<UInt8>, into parameters: inout [String: String]) -> Bool {
        guard let part = parts.first else { return text.isEmpty }
        switch part {
        case .literal(let literal):
            guard text.starts(with: literal) else { return false }
            return match(parts.dropFirst(), text.dropFirst(literal.count), into: &parameters)
        case .placeholder(let key):
            var end = text.endIndex
            if case .literal(let next)? = parts.dropFirst().first {
                guard let found = firstIndex(of: next, in: text.dropFirst()) else { return false }
                end = found
            }
            guard end > text.startIndex else { return false }
            if let key { parameters[key] = PercentEncoding.decodeLeniently(String(decoding: text[..<end], as: UTF8.self)) }
            return match(parts.dropFirst(), text[end...], into: &parameters)
        }
    }

    private static func firstIndex(of needle: [UInt8], in text: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, text.count >= needle.count else { return nil }
        var index = text.startIndex
        while index + needle.count <= text.endIndex {
            if text[index] == needle[0] && text[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Query items by decoded name, as HTML forms write them (`+` is a space); the first of a
    /// repeated name counts.
    private func matchQuery(_ linkQuery: String?, into parameters: inout [String: String]) -> Bool {
        var items: [String: String] = [:]
        for (name, value) in URLParts.queryItems(of: linkQuery) {
            let decodedName = PercentEncoding.decodeLeniently(name, plusIsSpace: true)
            if items[decodedName] == nil {
                items[decodedName] = PercentEncoding.decodeLeniently(value ?? "", plusIsSpace: true)
            }
        }
        for item in query {
            let value = items[item.name]
            switch item.value {
            case .optional(let key):
                if let value, !value.isEmpty { parameters[key] = value }
            case .required(let key):
                guard let value, !value.isEmpty else { return false }
                if let key { parameters[key] = value }
            case .literal(let literal):
                guard value == literal else { return false }
            }
        }
        return true
    }
}

extension LinkPattern {
    /// Reads a pattern, or says what is wrong with it.
    package init(parsing source: String) throws(LinkPatternError) {
        self.source = source
        let bytes = Array(source.utf8)
        guard let hostStart = Self.hostStart(bytes) else { throw LinkPatternError("it does not start with https://") }
        var rest = bytes[hostStart...]
        var fragmentText: ArraySlice<UInt8>?
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragmentText = rest[(hash + 1)...]
            rest = rest[..<hash]
        }
        var queryText: ArraySlice<UInt8>?
        if let mark = rest.firstIndex(of: UInt8(ascii: "?")) {
            queryText = rest[(mark + 1)...]
            rest = rest[..<mark]
        }
        let hostEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        host = try Self.hostPattern(rest[..<hostEnd])
        var keys: Set<String> = []
        segments = try Self.segments(rest[hostEnd...], keys: &keys)
        query = try queryText.map { text throws(LinkPatternError) in try Self.queryItems(text, keys: &keys) } ?? []
        fragment = try fragmentText.map { text throws(LinkPatternError) in try Self.fragment(text, keys: &keys) }
    }

    /// The host part of a pattern, read without the rest: which links a pattern could match
    /// is known before it is read whole. Nil when the pattern has no valid host.
    package static func hostPattern(of source: String) -> HostPattern? {
        let bytes = Array(source.utf8)
        guard let start = hostStart(bytes) else { return nil }
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        return try? hostPattern(bytes[start..<end])
    }

    /// Where the host starts after `https://` or `http://` (any case).
    private static func hostStart(_ bytes: [UInt8]) -> Int? {
        for scheme in ["https://", "http://"] where bytes.count >= scheme.utf8.count {
            if zip(bytes, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return scheme.utf8.count }
        }
        return nil
    }

    fileprivate static func hostPattern(_ text: ArraySlice<UInt8>) throws(LinkPatternError) -> HostPattern {
        let includesSubdomains = text.starts(with: "*.".utf8)
        let domain = includesSubdomains ? text.dropFirst(2) : text
        var labelLength = 0
        for byte in domain {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { break }
                labelLength = 0
            } else if isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") {
                labelLength += 1
            } else {
                labelLength = -1
                break
            }
        }
        guard labelLength > 0 else {
            throw LinkPatternError("its host '\(string(text))' is not a domain name (ASCII letters, digits, '-' and '.', optionally after '*.')")
        }
        return HostPattern(domain: string(domain).lowercased(), includesSubdomains: includesSubdomains)
    }

    /// `/a/{{b}}/c{{d}}` after the host; one trailing `/` is allowed and means nothing.
    private static func segments(_ path: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> [Segment] {
        guard !path.isEmpty else { return [] }
        var texts = path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if texts.last?.isEmpty == true { texts.removeLast() }
        var segments: [Segment] = []
        for text in texts {
            guard !text.isEmpty else { throw LinkPatternError("it has an empty path segment ('//')") }
            var parts: [Part] = []
            var rest = text
            while !rest.isEmpty {
                if rest.starts(with: "{{".utf8) {
                    let (key, required, after) = try placeholder(rest, keys: &keys)
                    guard !required else { throw LinkPatternError("'!' marks required query items only, not path placeholders") }
                    if case .placeholder? = parts.last {
                        throw LinkPatternError("two placeholders touch in segment '\(string(text))' (a literal must separate them)")
                    }
                    parts.append(.placeholder(key))
                    rest = after
                } else {
                    let end = firstIndex(of: Array("{{".utf8), in: rest) ?? rest.endIndex
                    let literal = rest[..<end]
                    guard !hasBrace(literal) else {
                        throw LinkPatternError("a brace in '\(string(text))' opens or closes no placeholder")
                    }
                    parts.append(.literal(Array(literal)))
                    rest = rest[end...]
                }
            }
            segments.append(Segment(parts: parts))
        }
        return segments
    }

    private static func queryItems(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> [QueryItem] {
        var items: [QueryItem] = []
        for item in text.split(separator: UInt8(ascii: "&")) {
            let invalid = LinkPatternError("query item '\(string(item))' must be name={{key}}, name={{key!}}, name={{_!}} or name=text")
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")), equals > item.startIndex else {
                throw LinkPatternError("query item '\(string(item))' is not name=value")
            }
            let name = PercentEncoding.decodeLeniently(string(item[..<equals]), plusIsSpace: true)
            let valueText = item[(equals + 1)...]
            guard !name.contains("{"), !items.contains(where: { $0.name == name }) else {
                throw LinkPatternError("query item name '\(name)' is a placeholder or appears twice")
            }
            if valueText.starts(with: "{{".utf8) {
                let (key, required, after) = try placeholder(valueText, keys: &keys)
                // `{{_!}}` asks only that the item be there; `{{_}}` would ask nothing.
                guard after.isEmpty else { throw invalid }
                if let key {
                    items.append(QueryItem(name: name, value: required ? .required(key) : .optional(key)))
                } else if required {
                    items.append(QueryItem(name: name, value: .required(nil)))
                } else {
                    throw invalid
                }
            } else {
                guard !valueText.isEmpty, !hasBrace(valueText) else { throw invalid }
                items.append(QueryItem(name: name, value: .literal(PercentEncoding.decodeLeniently(string(valueText), plusIsSpace: true))))
            }
        }
        return items
    }

    /// `/` + literal text + one placeholder, compared with the decoded fragment.
    private static func fragment(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> Fragment {
        let invalid = LinkPatternError("its fragment must be #/ followed by optional text and one {{key}}")
        guard text.first == UInt8(ascii: "/"), let open = firstIndex(of: Array("{{".utf8), in: text) else { throw invalid }
        let literal = text[(text.startIndex + 1)..<open]
        let (key, required, after) = try placeholder(text[open...], keys: &keys)
        guard after.isEmpty, !required, !hasBrace(literal) else { throw invalid }
        return Fragment(prefix: PercentEncoding.decodeLeniently(string(literal)), key: key)
    }

    /// A `{{key}}`, `{{key!}}` or `{{_}}` at the start of `text`: its key (nil for `_`),
    /// whether it is required, and what follows it.
    private static func placeholder(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> (String?, Bool, ArraySlice<UInt8>) {
        guard let close = firstIndex(of: Array("}}".utf8), in: text) else {
            throw LinkPatternError("a '{{' in '\(string(text))' is never closed")
        }
        var name = text[(text.startIndex + 2)..<close]
        let required = name.last == UInt8(ascii: "!")
        if required { name = name.dropLast() }
        guard !name.isEmpty, name.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else {
            throw LinkPatternError("placeholder '{{\(string(name))}}' is not {{key}} with a key of letters, digits and '_'")
        }
        let after = text[(close + 2)...]
        if name.elementsEqual("_".utf8) { return (nil, required, after) }
        let key = string(name)
        guard keys.insert(key).inserted else { throw LinkPatternError("placeholder '{{\(key)}}' appears twice") }
        return (key, required, after)
    }

    private static func hasBrace(_ text: ArraySlice<UInt8>) -> Bool {
        text.contains(UInt8(ascii: "{")) || text.contains(UInt8(ascii: "}"))
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }
}

package struct LinkPatternError: Error, Equatable, Sendable {
    package let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
