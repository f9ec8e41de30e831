/// A web link pattern of the catalog (doc/links-and-rules.md, "Links in the catalog"):
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

    /// Exact host or a domain with its subdomains; a label may be a placeholder that takes it
    /// (`{{username:word:5-32}}.t.me`, `*.google.{{_:word:2-3}}`).
    package struct HostPattern: Equatable, Sendable {
        /// As written after `*.`: lowercase ASCII labels, no trailing dot, placeholders as written.
        package let domain: String
        /// `*.example.org`: the domain itself and every subdomain.
        package let includesSubdomains: Bool
        /// The labels, last first, when one is a placeholder; empty when all are literal.
        let labels: [Label]

        enum Label: Equatable, Sendable {
            case literal([UInt8])
            case placeholder(Placeholder)
        }

        package init(domain: String, includesSubdomains: Bool) {
            self.domain = domain
            self.includesSubdomains = includesSubdomains
            self.labels = []
        }

        init(domain: String, includesSubdomains: Bool, labels: [Label]) {
            self.domain = domain
            self.includesSubdomains = includesSubdomains
            self.labels = labels
        }

        /// `*.zoom.us` or `t.me`, as a pattern writes it; nil when it is no such host.
        package init?(_ text: String) {
            var keys: Set<String> = []
            guard let read = try? LinkPattern.hostPattern(Array(text.utf8)[...], keys: &keys) else { return nil }
            self = read
        }

        /// As a pattern writes it.
        package var text: String { (includesSubdomains ? "*." : "") + domain }

        /// Whether a host as a pattern writes it (`*.zoom.us`, `t.me`, `{{name}}.t.me`) could be
        /// `host`, told byte by byte: a handled link asks it of every link host of every type. A
        /// placeholder label is taken as any label here (the match checks its kind); a text that
        /// is no host pattern could be any host (a cache written before links).
        package static func couldBe(_ text: String, _ host: WebHost) -> Bool {
            let written = text.utf8
            let wildcard = written.starts(with: "*.".utf8)
            let domain = wildcard ? written.dropFirst(2) : written[...]
            if domain.contains(UInt8(ascii: "{")) { return couldBe(placeholderHost: text, host) }
            // Lowercase labels of letters, digits and '-' are compared as they are; anything else
            // (capitals, an empty label, no host at all) is read whole.
            var label = 0
            for byte in domain {
                if byte == UInt8(ascii: ".") {
                    guard label > 0 else { return HostPattern(text)?.matches(host) ?? true }
                    label = 0
                } else if (byte >= 0x61 && byte <= 0x7A) || isDigit(byte) || byte == UInt8(ascii: "-") {
                    label += 1
                } else {
                    return HostPattern(text)?.matches(host) ?? true
                }
            }
            guard label > 0 else { return HostPattern(text)?.matches(host) ?? true }
            guard let name = host.domainName?.utf8 else { return false }
            guard name.count >= domain.count, name.suffix(domain.count).elementsEqual(domain) else { return false }
            let rest = name.count - domain.count
            return rest == 0 || (wildcard && rest > 1 && name.dropFirst(rest - 1).first == UInt8(ascii: "."))
        }

        /// `couldBe` for a host with a placeholder label, which takes any label here.
        private static func couldBe(placeholderHost text: String, _ host: WebHost) -> Bool {
            let written = Array(text.utf8)
            let wildcard = written.starts(with: "*.".utf8)
            let pattern = wildcard ? written.dropFirst(2) : written[...]
            let labels = pattern.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            let isPlaceholder = { (label: ArraySlice<UInt8>) in label.starts(with: "{{".utf8) && label.reversed().starts(with: "}}".utf8) }
            let plain = { (label: ArraySlice<UInt8>) in
                !label.isEmpty && label.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || isDigit($0) || $0 == UInt8(ascii: "-") }
            }
            // A placeholder on nothing literal, capitals or an empty label: read it whole.
            guard labels.dropLast().contains(where: plain), labels.allSatisfy({ plain($0) || isPlaceholder($0) }) else {
                return HostPattern(text)?.matches(host) ?? true
            }
            guard let name = host.domainName else { return false }
            let hostLabels = Array(name.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard hostLabels.count == labels.count || (wildcard && hostLabels.count > labels.count) else { return false }
            return zip(labels, hostLabels.suffix(labels.count)).allSatisfy { label, hostLabel in
                isPlaceholder(label) ? !hostLabel.isEmpty : label.elementsEqual(hostLabel)
            }
        }

        /// The literal labels after the last placeholder (`t.me` of `{{name}}.t.me`); the whole
        /// domain when no label is a placeholder, nil when the last one is.
        package var literalSuffix: String? {
            guard !labels.isEmpty else { return domain }
            let literal = labels.prefix { if case .literal = $0 { true } else { false } }
            guard !literal.isEmpty else { return nil }
            return literal.reversed().map { label in
                guard case .literal(let bytes) = label else { return "" }
                return String(decoding: bytes, as: UTF8.self)
            }.joined(separator: ".")
        }

        package func matches(_ host: WebHost) -> Bool {
            var ignored: [String: String] = [:]
            return match(host, into: &ignored)
        }

        /// Whether the host is one of the pattern's, with the labels its placeholders took.
        func match(_ host: WebHost, into parameters: inout [String: String]) -> Bool {
            guard let name = host.domainName else { return false }
            guard !labels.isEmpty else {
                return includesSubdomains ? host.isWithin(.domain(domain)) : name == domain
            }
            let bytes = Array(name.utf8)
            var end = bytes.endIndex
            for label in labels {
                guard end > bytes.startIndex else { return false }
                let start = (bytes[..<end].lastIndex(of: UInt8(ascii: ".")) ?? (bytes.startIndex - 1)) + 1
                let text = bytes[start..<end]
                switch label {
                case .literal(let literal):
                    guard text.elementsEqual(literal) else { return false }
                case .placeholder(let placeholder):
                    let value = String(decoding: text, as: UTF8.self)
                    guard !text.isEmpty, placeholder.accepts(value) else { return false }
                    if let key = placeholder.key { parameters[key] = value }
                }
                end = start - 1
            }
            // Every label taken: the host itself, or (with `*.`) a subdomain of it.
            return end < bytes.startIndex || (includesSubdomains && end > bytes.startIndex)
        }
    }

    /// One path segment: literal bytes and placeholders, never two placeholders side by side.
    struct Segment: Equatable, Sendable {
        let parts: [Part]

        var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }
    }

    enum Part: Equatable, Sendable {
        case literal([UInt8])
        case placeholder(Placeholder)
    }

    /// `{{key}}`, `{{_}}`, or one that says what it matches: `{{key:word:5-32}}`.
    struct Placeholder: Equatable, Sendable {
        /// nil is `{{_}}`: it matches and keeps nothing.
        let key: String?
        let kind: Kind?
        /// In characters; only with a kind.
        let length: ClosedRange<Int>?

        enum Kind: String, CaseIterable, Sendable {
            /// ASCII digits.
            case digits
            /// Optional `-`, digits, optional `.` and digits (not `52.`, `.5`, `+5`, `1e5`).
            case number
            /// ASCII letters, digits and `_`.
            case word
        }

        /// Whether a (decoded, non-empty) value fits the kind and length.
        func accepts(_ value: String) -> Bool {
            guard let kind else { return true }
            let bytes = Array(value.utf8)
            if let length, !length.contains(bytes.count) { return false }
            switch kind {
            case .digits: return !bytes.isEmpty && bytes.allSatisfy(LinkPattern.isDigit)
            case .word: return !bytes.isEmpty && bytes.allSatisfy { LinkPattern.isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }
            case .number:
                var rest = bytes[...]
                if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
                let whole = rest.prefix(while: LinkPattern.isDigit)
                guard !whole.isEmpty else { return false }
                rest = rest.dropFirst(whole.count)
                guard let dot = rest.first else { return true }
                let fraction = rest.dropFirst()
                return dot == UInt8(ascii: ".") && !fraction.isEmpty && fraction.allSatisfy(LinkPattern.isDigit)
            }
        }
    }

    struct QueryItem: Equatable, Sendable {
        enum Value: Equatable, Sendable {
            /// `k={{key}}`: taken when present (and then it must fit the placeholder's kind).
            case optional(Placeholder)
            /// `k={{key!}}`: present and not empty; `{{_!}}` keeps nothing.
            case required(Placeholder)
            /// `k=text`: present and equal.
            case literal(String)
            /// `k`: present, with a value or none (Telegram's `?startgroup`).
            case present
            /// `k=text{{key}}text…`: present, and matched like a path segment
            /// (`center={{latitude:number}},{{longitude:number}}`).
            case parts([Part])
        }

        let name: String
        let value: Value
        /// Which value of the name it takes: a name written again takes the next one (`via`).
        let occurrence: Int

        /// Counts toward a pattern's specificity: it asks more of the link than a value.
        var isLiteral: Bool {
            switch value {
            case .literal, .present, .parts: true
            case .optional, .required: false
            }
        }
    }

    /// `#` + segments split at `/`, matched like the path's, then optionally `?` and query
    /// items, all against the percent-decoded fragment (matrix.to `#/!{{room_id}}?via={{via}}`).
    struct Fragment: Equatable, Sendable {
        let segments: [Segment]
        let query: [QueryItem]
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
            literalSegments: segments.count { $0.isLiteral } + (fragment?.segments.count { $0.isLiteral } ?? 0),
            literalQueryItems: query.count(where: \.isLiteral)
        )
    }

    /// A link as every pattern reads it, split once: its query items by decoded name (`+` is a
    /// space, as HTML forms write them), its fragment percent-decoded and split at `?` and `/`.
    package struct Subject: Sendable {
        let link: WebURL
        let query: [String: [String]]
        let fragmentPath: [String]
        let fragmentQuery: [String: [String]]

        package init(_ link: WebURL) {
            self.link = link
            query = LinkPattern.items(link.query, plusIsSpace: true)
            let decoded = PercentEncoding.decodeLeniently(link.fragment ?? "")
            let mark = decoded.firstIndex(of: "?")
            fragmentPath = decoded[..<(mark ?? decoded.endIndex)].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            fragmentQuery = LinkPattern.items(mark.map { decoded[decoded.index(after: $0)...] }, plusIsSpace: false)
        }
    }

    /// The parameters the link gives, or nil when it does not match. `plusIsSpace`: a `+` in
    /// the path is a space, as the site writes it (the link's `plus_is_space`).
    package func match(_ link: WebURL, plusIsSpace: Bool = false) -> [String: String]? {
        guard host.matches(link.host) else { return nil }
        return match(Subject(link), plusIsSpace: plusIsSpace)
    }

    /// As `match(_:plusIsSpace:)`, for a link already split.
    package func match(_ subject: Subject, plusIsSpace: Bool = false) -> [String: String]? {
        var parameters: [String: String] = [:]
        guard host.match(subject.link.host, into: &parameters) else { return nil }
        // A trailing `/` on the link is the same page (`https://t.me/name/`).
        guard Self.match(segments, subject.link.pathSegments[...], decoded: plusIsSpace ? .plusIsSpace : .encoded, into: &parameters)
        else {
            return nil
        }
        guard Self.match(query, subject.query, into: &parameters) else { return nil }
        if let fragment {
            guard Self.match(fragment.segments, subject.fragmentPath[...], decoded: .decoded, into: &parameters),
                Self.match(fragment.query, subject.fragmentQuery, into: &parameters)
            else { return nil }
        }
        return parameters
    }

    /// How a segment's text is written: percent-encoded (`+` as it is, or a space), or decoded.
    private enum SegmentText {
        case encoded, plusIsSpace, decoded
    }

    private static func match(
        _ segments: [Segment], _ texts: ArraySlice<String>, decoded: SegmentText, into parameters: inout [String: String]
    ) -> Bool {
        var texts = texts
        if texts.count > segments.count, texts.last == "" { texts.removeLast() }
        guard texts.count == segments.count else { return false }
        for (segment, text) in zip(segments, texts) {
            guard match(segment.parts[...], Array(text.utf8)[...], decoded: decoded, into: &parameters) else { return false }
        }
        return true
    }

    /// A segment's parts against the segment text, written as `decoded` says: a
    /// placeholder takes one or more bytes up to the next literal text, or to the end.
    private static func match(
        _ parts: ArraySlice<Part>, _ text: ArraySlice<UInt8>, decoded: SegmentText, into parameters: inout [String: String]
    ) -> Bool {
        guard let part = parts.first else { return text.isEmpty }
        switch part {
        case .literal(let literal):
            guard text.starts(with: literal) else { return false }
            return match(parts.dropFirst(), text.dropFirst(literal.count), decoded: decoded, into: &parameters)
        case .placeholder(let placeholder):
            var end = text.endIndex
            if case .literal(let next)? = parts.dropFirst().first {
                guard let found = firstIndex(of: next, in: text.dropFirst()) else { return false }
                end = found
            }
            guard end > text.startIndex else { return false }
            let raw = String(decoding: text[..<end], as: UTF8.self)
            let value = decoded == .decoded ? raw : PercentEncoding.decodeLeniently(raw, plusIsSpace: decoded == .plusIsSpace)
            guard placeholder.accepts(value) else { return false }
            if let key = placeholder.key { parameters[key] = value }
            return match(parts.dropFirst(), text[end...], decoded: decoded, into: &parameters)
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

    /// Query items by decoded name, as HTML forms write them (`+` is a space, in the link's
    /// query), each name's values in order. A fragment's items are decoded already.
    fileprivate static func items(_ text: (some StringProtocol)?, plusIsSpace: Bool) -> [String: [String]] {
        var items: [String: [String]] = [:]
        for (name, value) in URLParts.queryItems(of: text) {
            let decodedName = plusIsSpace ? PercentEncoding.decodeLeniently(name, plusIsSpace: true) : String(name)
            items[decodedName, default: []].append(
                plusIsSpace ? PercentEncoding.decodeLeniently(value ?? "", plusIsSpace: true) : String(value ?? ""))
        }
        return items
    }

    private static func match(_ query: [QueryItem], _ items: [String: [String]], into parameters: inout [String: String]) -> Bool {
        for item in query {
            let values = items[item.name]
            let value = values.flatMap { item.occurrence < $0.count ? $0[item.occurrence] : nil }
            switch item.value {
            case .optional(let placeholder):
                guard let value, !value.isEmpty else { continue }
                guard placeholder.accepts(value) else { return false }
                if let key = placeholder.key { parameters[key] = value }
            case .required(let placeholder):
                guard let value, !value.isEmpty, placeholder.accepts(value) else { return false }
                if let key = placeholder.key { parameters[key] = value }
            case .literal(let literal):
                guard value == literal else { return false }
            case .present:
                guard values != nil else { return false }
            case .parts(let parts):
                guard let value, match(parts[...], Array(value.utf8)[...], decoded: .decoded, into: &parameters) else { return false }
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
        var keys: Set<String> = []
        host = try Self.hostPattern(rest[..<hostEnd], keys: &keys)
        segments = try Self.segments(rest[hostEnd...], keys: &keys)
        query = try queryText.map { text throws(LinkPatternError) in try Self.queryItems(text, keys: &keys) } ?? []
        fragment = try fragmentText.map { text throws(LinkPatternError) in try Self.fragment(text, keys: &keys) }
    }

    /// The host part of a pattern, read without the rest: which links a pattern could match
    /// is known before it is read whole. Nil when the pattern has no valid host.
    package static func hostPattern(of source: String) -> HostPattern? {
        let bytes = Array(source.utf8)
        guard let start = hostStart(bytes) else { return nil }
        let end =
            bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        var keys: Set<String> = []
        return try? hostPattern(bytes[start..<end], keys: &keys)
    }

    /// Whether `link` could be one of the pattern's, told from the pattern's text without
    /// reading it whole: the host, the number of path segments, and the literal start of each
    /// (all of it when it has no placeholder). A handled link reads only the patterns that pass.
    package static func mayMatch(_ source: String, _ link: WebURL) -> Bool {
        let bytes = Array(source.utf8)
        guard let start = hostStart(bytes) else { return true }
        let isEnd = { (byte: UInt8) in byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
        let hostEnd = bytes[start...].firstIndex { isEnd($0) || $0 == UInt8(ascii: "/") } ?? bytes.endIndex
        guard HostPattern.couldBe(string(bytes[start..<hostEnd]), link.host) else { return false }
        let pathEnd = bytes[hostEnd...].firstIndex(where: isEnd) ?? bytes.endIndex
        var path = bytes[hostEnd..<pathEnd].dropFirst()
        // One trailing `/`, on the pattern or the link, means nothing.
        if path.last == UInt8(ascii: "/") { path = path.dropLast() }
        var texts = link.pathSegments[...]
        if texts.last == "" { texts = texts.dropLast() }
        let segments = path.isEmpty ? [] : path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == texts.count else { return false }
        for (segment, text) in zip(segments, texts) {
            let literal = segment[..<(firstIndex(of: openBraces, in: segment) ?? segment.endIndex)]
            let written = text.utf8
            guard literal.count == segment.count ? written.elementsEqual(literal) : written.starts(with: literal) else { return false }
        }
        return true
    }

    /// Where the host starts after `https://` or `http://` (any case).
    private static func hostStart(_ bytes: [UInt8]) -> Int? {
        for scheme in ["https://", "http://"] where bytes.count >= scheme.utf8.count {
            if zip(bytes, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return scheme.utf8.count }
        }
        return nil
    }

    /// `t.me`, `*.zoom.us`, `{{username:word:5-32}}.t.me`: labels of ASCII letters, digits and
    /// `-`, or a placeholder taking a whole label, optionally after `*.`.
    fileprivate static func hostPattern(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> HostPattern {
        let includesSubdomains = text.starts(with: "*.".utf8)
        let domain = includesSubdomains ? text.dropFirst(2) : text
        let invalid = LinkPatternError(
            "its host '\(string(text))' is not a domain name (ASCII letters, digits, '-' and '.', or a {{placeholder}} label, optionally after '*.')"
        )
        // Most hosts have no placeholder: checked byte by byte, nothing made but the name.
        guard domain.contains(UInt8(ascii: "{")) else {
            var labelLength = 0
            for byte in domain {
                if byte == UInt8(ascii: ".") {
                    guard labelLength > 0 else { throw invalid }
                    labelLength = 0
                } else if isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") {
                    labelLength += 1
                } else {
                    throw invalid
                }
            }
            guard labelLength > 0 else { throw invalid }
            return HostPattern(domain: string(domain).lowercased(), includesSubdomains: includesSubdomains)
        }
        var labels: [HostPattern.Label] = []
        var hasPlaceholder = false
        for label in domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            if label.starts(with: "{{".utf8) {
                let (placeholder, required, after) = try placeholder(label, keys: &keys)
                guard !required, after.isEmpty else { throw invalid }
                labels.append(.placeholder(placeholder))
                hasPlaceholder = true
            } else {
                guard !label.isEmpty, label.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else { throw invalid }
                labels.append(.literal(Array(string(label).lowercased().utf8)))
            }
        }
        // A placeholder needs a literal label before the last one to stand on (`t` of
        // `{{name}}.t.me`, `google` of `*.google.{{_}}`), or it would take anybody's domains.
        let anchored = labels.dropLast().contains { if case .literal = $0 { true } else { false } }
        guard !labels.isEmpty, !hasPlaceholder || anchored else { throw invalid }
        let written = labels.map { label in
            switch label {
            case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
            case .placeholder: ""
            }
        }
        // Placeholders are kept as written (their keys are case-sensitive), literal labels lowercased.
        let shown = hasPlaceholder ? string(domain) : written.joined(separator: ".")
        return HostPattern(domain: shown, includesSubdomains: includesSubdomains, labels: hasPlaceholder ? labels.reversed() : [])
    }

    /// `/a/{{b}}/c{{d}}` after the host; one trailing `/` is allowed and means nothing.
    private static func segments(_ path: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> [Segment] {
        guard !path.isEmpty else { return [] }
        var texts = path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if texts.last?.isEmpty == true { texts.removeLast() }
        return try texts.map { text throws(LinkPatternError) in
            guard !text.isEmpty else { throw LinkPatternError("it has an empty path segment ('//')") }
            return try segment(text, keys: &keys)
        }
    }

    /// Literal text and placeholders, never two placeholders side by side.
    private static func segment(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> Segment {
        var parts: [Part] = []
        var rest = text
        while !rest.isEmpty {
            if rest.starts(with: "{{".utf8) {
                let (placeholder, required, after) = try placeholder(rest, keys: &keys)
                guard !required else { throw LinkPatternError("'!' marks required query items only, not path or fragment placeholders") }
                if case .placeholder? = parts.last {
                    throw LinkPatternError("two placeholders touch in segment '\(string(text))' (a literal must separate them)")
                }
                parts.append(.placeholder(placeholder))
                rest = after
            } else {
                let end = firstIndex(of: openBraces, in: rest) ?? rest.endIndex
                let literal = rest[..<end]
                guard !hasBrace(literal) else {
                    throw LinkPatternError("a brace in '\(string(text))' opens or closes no placeholder")
                }
                parts.append(.literal(Array(literal)))
                rest = rest[end...]
            }
        }
        return Segment(parts: parts)
    }

    private static func queryItems(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> [QueryItem] {
        var items: [QueryItem] = []
        for item in text.split(separator: UInt8(ascii: "&")) {
            let invalid = LinkPatternError(
                "query item '\(string(item))' must be name, name={{key}}, name={{key!}}, name={{_!}}, name=text or text with placeholders")
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            guard equals != item.startIndex else { throw LinkPatternError("query item '\(string(item))' has no name") }
            let name = PercentEncoding.decodeLeniently(string(item[..<(equals ?? item.endIndex)]), plusIsSpace: true)
            guard !name.contains("{"), !name.contains("}") else { throw LinkPatternError("query item name '\(name)' is a placeholder") }
            // A name written again with a value takes the link's next value of that name.
            let occurrence = items.count { $0.name == name && $0.value != .present }
            guard let equals else {
                guard !items.contains(where: { $0.name == name && $0.value == .present }) else {
                    throw LinkPatternError("query item '\(name)' is asked to be present twice")
                }
                items.append(QueryItem(name: name, value: .present, occurrence: 0))
                continue
            }
            let valueText = item[(equals + 1)...]
            if valueText.starts(with: "{{".utf8), let close = firstIndex(of: closeBraces, in: valueText),
                close + 2 == valueText.endIndex
            {
                let (placeholder, required, _) = try placeholder(valueText, keys: &keys)
                // `{{_!}}` asks only that the item be there (of its kind); `{{_}}` would ask nothing.
                guard required || placeholder.key != nil || placeholder.kind != nil else { throw invalid }
                items.append(
                    QueryItem(name: name, value: required ? .required(placeholder) : .optional(placeholder), occurrence: occurrence))
            } else if hasBrace(valueText) {
                let parts = try segment(valueText, keys: &keys).parts.map { part in
                    if case .literal(let bytes) = part {
                        Part.literal(Array(PercentEncoding.decodeLeniently(string(bytes[...]), plusIsSpace: true).utf8))
                    } else {
                        part
                    }
                }
                items.append(QueryItem(name: name, value: .parts(parts), occurrence: occurrence))
            } else {
                guard !valueText.isEmpty else { throw invalid }
                items.append(
                    QueryItem(
                        name: name, value: .literal(PercentEncoding.decodeLeniently(string(valueText), plusIsSpace: true)),
                        occurrence: occurrence))
            }
        }
        return items
    }

    /// Segments split at `/` (an empty one is literal: `#/` starts with one), then `?` and
    /// query items; literal text is compared with the decoded fragment.
    private static func fragment(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> Fragment {
        guard !text.isEmpty else { throw LinkPatternError("its fragment is empty (a '#' with nothing after it)") }
        let mark = text.firstIndex(of: UInt8(ascii: "?"))
        let path = text[..<(mark ?? text.endIndex)]
        let segments = try path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { text throws(LinkPatternError) in
            let segment = try segment(text, keys: &keys)
            return Segment(
                parts: segment.parts.map { part in
                    if case .literal(let bytes) = part {
                        .literal(Array(PercentEncoding.decodeLeniently(string(bytes[...])).utf8))
                    } else {
                        part
                    }
                })
        }
        let query = try mark.map { mark throws(LinkPatternError) in try queryItems(text[(mark + 1)...], keys: &keys) } ?? []
        guard mark == nil || !query.isEmpty else { throw LinkPatternError("its fragment has a '?' with no query items after it") }
        return Fragment(segments: segments, query: query)
    }

    /// A `{{key}}`, `{{key!}}`, `{{_}}` or `{{key:kind:min-max!}}` at the start of `text`: the
    /// placeholder, whether it is required, and what follows it.
    private static func placeholder(_ text: ArraySlice<UInt8>, keys: inout Set<String>) throws(LinkPatternError) -> (
        Placeholder, Bool, ArraySlice<UInt8>
    ) {
        guard let close = firstIndex(of: closeBraces, in: text) else {
            throw LinkPatternError("a '{{' in '\(string(text))' is never closed")
        }
        var inside = text[(text.startIndex + 2)..<close]
        let required = inside.last == UInt8(ascii: "!")
        if required { inside = inside.dropLast() }
        let fields = inside.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        let name = fields[0]
        guard !name.isEmpty, name.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }), fields.count <= 3 else {
            throw LinkPatternError(
                "placeholder '{{\(string(inside))}}' is not {{key}} or {{key:kind}} with a key of letters, digits and '_'")
        }
        var kind: Placeholder.Kind?
        if fields.count > 1 {
            kind = Placeholder.Kind(rawValue: string(fields[1]))
            guard kind != nil else {
                throw LinkPatternError(
                    "placeholder '{{\(string(inside))}}' has an unknown kind '\(string(fields[1]))' (digits, number or word)")
            }
        }
        let length = try fields.count > 2 ? lengthRange(fields[2], in: inside) : nil
        let after = text[(close + 2)...]
        let key = name.elementsEqual("_".utf8) ? nil : string(name)
        if let key {
            guard keys.insert(key).inserted else { throw LinkPatternError("placeholder '{{\(key)}}' appears twice") }
        }
        return (Placeholder(key: key, kind: kind, length: length), required, after)
    }

    /// `5` or `5-32`: a length in characters, at least 1.
    private static func lengthRange(_ text: ArraySlice<UInt8>, in inside: ArraySlice<UInt8>) throws(LinkPatternError) -> ClosedRange<Int> {
        let invalid = LinkPatternError(
            "placeholder '{{\(string(inside))}}' has a length that is not N or MIN-MAX (1 or more, MIN at most MAX)")
        let bounds = text.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        let numbers = bounds.map { bound in
            bound.isEmpty || bound.count > 6 || !bound.allSatisfy(isDigit) ? nil : Int(string(bound))
        }
        guard numbers.count <= 2, let low = numbers.first ?? nil, let high = numbers.last ?? nil, low >= 1, low <= high else {
            throw invalid
        }
        return low...high
    }

    private static let openBraces = Array("{{".utf8)
    private static let closeBraces = Array("}}".utf8)

    private static func hasBrace(_ text: ArraySlice<UInt8>) -> Bool {
        text.contains(UInt8(ascii: "{")) || text.contains(UInt8(ascii: "}"))
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    fileprivate static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    fileprivate static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }
}

package struct LinkPatternError: Error, Equatable, Sendable {
    package let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
