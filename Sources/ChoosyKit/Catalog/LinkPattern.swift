/// A web link pattern of the catalog (README, "Links in the catalog"):
/// `https://*.zoom.us/j/{{meeting_id}}?pwd={{password}}`. It matches an http(s) link by the
/// host a browser reaches, the path segment by segment, chosen query items and the fragment,
/// and gives the parameters its placeholders took, percent-decoded.
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

        package func matches(_ host: WebHost) -> Bool {
            guard let name = host.domainName else { return false }
            return includesSubdomains ? host.isWithin(.domain(domain)) : name == domain
        }
    }

    /// One path segment: literal text and placeholders, never two placeholders side by side.
    struct Segment: Equatable, Sendable {
        let parts: [Part]

        var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }
    }

    enum Part: Equatable, Sendable {
        case literal(String)
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
            guard Self.match(segment.parts[...], Substring(text), into: &parameters) else { return nil }
        }
        if !query.isEmpty {
            guard matchQuery(link.query, into: &parameters) else { return nil }
        }
        if let fragment {
            let decoded = PercentEncoding.decodeLeniently(link.fragment ?? "")
            guard decoded.hasPrefix("/" + fragment.prefix) else { return nil }
            let rest = decoded.dropFirst(1 + fragment.prefix.count).prefix { $0 != "?" }
            guard !rest.isEmpty else { return nil }
            if let key = fragment.key { parameters[key] = String(rest) }
        }
        return parameters
    }

    /// A segment's parts against the (percent-encoded) segment text: a placeholder takes one or
    /// more characters up to the next literal text, or to the end.
    private static func match(_ parts: ArraySlice<Part>, _ text: Substring, into parameters: inout [String: String]) -> Bool {
        guard let part = parts.first else { return text.isEmpty }
        switch part {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(parts.dropFirst(), text.dropFirst(literal.count), into: &parameters)
        case .placeholder(let key):
            let end: Substring.Index
            if case .literal(let next)? = parts.dropFirst().first {
                guard let found = text.dropFirst().firstRange(of: next) else { return false }
                end = found.lowerBound
            } else {
                end = text.endIndex
            }
            guard end > text.startIndex else { return false }
            if let key { parameters[key] = PercentEncoding.decodeLeniently(text[..<end]) }
            return match(parts.dropFirst(), text[end...], into: &parameters)
        }
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
        var rest = Substring(source)
        guard let schemeEnd = rest.firstRange(of: "://"),
              ["https", "http"].contains(rest[..<schemeEnd.lowerBound].lowercased()) else {
            throw LinkPatternError("it does not start with https://")
        }
        rest = rest[schemeEnd.upperBound...]
        var fragmentText: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragmentText = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var queryText: Substring?
        if let mark = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        host = try Self.hostPattern(rest[..<hostEnd])
        var keys: Set<String> = []
        segments = try Self.segments(rest[hostEnd...], keys: &keys)
        query = try queryText.map { text throws(LinkPatternError) in try Self.queryItems(text, keys: &keys) } ?? []
        fragment = try fragmentText.map { text throws(LinkPatternError) in try Self.fragment(text, keys: &keys) }
    }

    private static func hostPattern(_ text: Substring) throws(LinkPatternError) -> HostPattern {
        let includesSubdomains = text.hasPrefix("*.")
        let domain = (includesSubdomains ? text.dropFirst(2) : text).lowercased()
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !domain.isEmpty, labels.allSatisfy({ label in
            !label.isEmpty && label.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }) else {
            throw LinkPatternError("its host '\(text)' is not a domain name (ASCII letters, digits, '-' and '.', optionally after '*.')")
        }
        return HostPattern(domain: domain, includesSubdomains: includesSubdomains)
    }

    /// `/a/{{b}}/c{{d}}` after the host; one trailing `/` is allowed and means nothing.
    private static func segments(_ path: Substring, keys: inout Set<String>) throws(LinkPatternError) -> [Segment] {
        guard !path.isEmpty else { return [] }
        var texts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if texts.last == "" { texts.removeLast() }
        var segments: [Segment] = []
        for text in texts {
            guard !text.isEmpty else { throw LinkPatternError("it has an empty path segment ('//')") }
            var parts: [Part] = []
            var rest = text
            while !rest.isEmpty {
                if rest.hasPrefix("{{") {
                    let (key, required, after) = try placeholder(rest, keys: &keys)
                    guard !required else { throw LinkPatternError("'!' marks required query items only, not path placeholders") }
                    if case .placeholder? = parts.last {
                        throw LinkPatternError("two placeholders touch in segment '\(text)' (a literal must separate them)")
                    }
                    parts.append(.placeholder(key))
                    rest = after
                } else {
                    let end = rest.firstRange(of: "{{")?.lowerBound ?? rest.endIndex
                    let literal = rest[..<end]
                    guard !literal.contains("{"), !literal.contains("}") else {
                        throw LinkPatternError("a brace in '\(text)' opens or closes no placeholder")
                    }
                    parts.append(.literal(String(literal)))
                    rest = rest[end...]
                }
            }
            segments.append(Segment(parts: parts))
        }
        return segments
    }

    private static func queryItems(_ text: Substring, keys: inout Set<String>) throws(LinkPatternError) -> [QueryItem] {
        var items: [QueryItem] = []
        for item in text.split(separator: "&") {
            guard let equals = item.firstIndex(of: "="), equals > item.startIndex else {
                throw LinkPatternError("query item '\(item)' is not name=value")
            }
            let name = PercentEncoding.decodeLeniently(item[..<equals], plusIsSpace: true)
            let valueText = item[item.index(after: equals)...]
            guard !name.contains("{"), !items.contains(where: { $0.name == name }) else {
                throw LinkPatternError("query item name '\(name)' is a placeholder or appears twice")
            }
            if valueText.hasPrefix("{{") {
                let (key, required, after) = try placeholder(valueText, keys: &keys)
                // `{{_!}}` asks only that the item be there; `{{_}}` would ask nothing.
                guard after.isEmpty, key != nil || required else {
                    throw LinkPatternError("query item '\(item)' must be name={{key}}, name={{key!}}, name={{_!}} or name=text")
                }
                items.append(QueryItem(name: name, value: required ? .required(key) : .optional(key!)))
            } else {
                guard !valueText.isEmpty, !valueText.contains("{"), !valueText.contains("}") else {
                    throw LinkPatternError("query item '\(item)' must be name={{key}}, name={{key!}} or name=text")
                }
                items.append(QueryItem(name: name, value: .literal(PercentEncoding.decodeLeniently(valueText, plusIsSpace: true))))
            }
        }
        return items
    }

    /// `/` + literal text + one placeholder, compared with the decoded fragment.
    private static func fragment(_ text: Substring, keys: inout Set<String>) throws(LinkPatternError) -> Fragment {
        guard text.hasPrefix("/"), let open = text.firstRange(of: "{{")?.lowerBound else {
            throw LinkPatternError("its fragment must be #/ followed by optional text and one {{key}}")
        }
        let prefix = PercentEncoding.decodeLeniently(text[text.index(after: text.startIndex)..<open])
        let (key, required, after) = try placeholder(text[open...], keys: &keys)
        guard after.isEmpty, !required, !prefix.contains("{"), !prefix.contains("}") else {
            throw LinkPatternError("its fragment must be #/ followed by optional text and one {{key}}")
        }
        return Fragment(prefix: prefix, key: key)
    }

    /// A `{{key}}`, `{{key!}}` or `{{_}}` at the start of `text`: its key (nil for `_`),
    /// whether it is required, and what follows it.
    private static func placeholder(_ text: Substring, keys: inout Set<String>) throws(LinkPatternError) -> (String?, Bool, Substring) {
        guard let close = text.firstRange(of: "}}") else { throw LinkPatternError("a '{{' in '\(text)' is never closed") }
        var name = text[text.index(text.startIndex, offsetBy: 2)..<close.lowerBound]
        let required = name.hasSuffix("!")
        if required { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else {
            throw LinkPatternError("placeholder '{{\(name)}}' is not {{key}} with a key of letters, digits and '_'")
        }
        if name == "_" { return (nil, required, text[close.upperBound...]) }
        guard keys.insert(String(name)).inserted else { throw LinkPatternError("placeholder '{{\(name)}}' appears twice") }
        return (String(name), required, text[close.upperBound...])
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
