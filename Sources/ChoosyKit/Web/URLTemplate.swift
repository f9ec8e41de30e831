/// A catalog `url_format` such as `tweetbot:///user_profile/{{profile_screenname}}?callback_url={{callback_url}}`,
/// filled by the rules of doc/spec-choices.md, "URLs".
///
/// The template is split into literal text and placeholders once, and the structure (`?`,
/// `&`, `=`, `#`) is read from the literal text only, so a value can neither add structure
/// nor be expanded again: `{{x}}` inside a value stays text.
package struct URLTemplate: Equatable, Sendable {
    enum Token: Equatable, Sendable {
        case literal(String)
        case placeholder(String)
    }

    package let format: String
    private let tokens: [Token]
    /// The bytes a value keeps as they are: in a `mailto:` link, `@` and `,` (RFC 6068 writes
    /// addresses, and lists of them, with both unencoded, and some mail apps show `%40` as it
    /// is); none elsewhere (doc/spec-choices.md).
    private let kept: [UInt8]

    package init(_ format: String) {
        self.format = format
        self.tokens = URLTemplate.tokenize(format)
        kept = format.utf8.prefix(7).map { $0 | 0x20 }.elementsEqual("mailto:".utf8) ? [UInt8(ascii: "@"), UInt8(ascii: ",")] : []
    }

    /// The parameter keys the template mentions, in order of first appearance.
    package var placeholders: [String] {
        var seen: Set<String> = []
        return tokens.compactMap { token in
            guard case .placeholder(let key) = token, seen.insert(key).inserted else { return nil }
            return key
        }
    }

    /// The URL with every placeholder replaced by its percent-encoded value, except one at the
    /// very start, which supplies a whole URL and goes in verbatim. Missing values count as
    /// empty; query items that end up without a value are dropped, and the `?` with them when
    /// none remain. A fragment after the query is filled and kept last.
    package func fill(_ values: [String: String]) -> String {
        let (beforeQuery, query, fragment) = sections()
        var result = ""
        for (index, token) in beforeQuery.enumerated() {
            switch token {
            case .literal(let text):
                result += text
            case .placeholder(let key):
                let value = values[key] ?? ""
                result += index == 0 ? value : PercentEncoding.encode(value, keeping: kept)
            }
        }
        if let query {
            let items = split(query, at: "&").compactMap { fillQueryItem($0, values) }
            if !items.isEmpty {
                result += "?" + items.joined(separator: "&")
            }
        }
        if let fragment {
            let filled = fill(fragment, values)
            // A fragment that was nothing but placeholders without values would leave a bare `#`.
            let onlyPlaceholders = fragment.allSatisfy { if case .placeholder = $0 { true } else { false } }
            if !(filled.isEmpty && onlyPlaceholders && !fragment.isEmpty) {
                result += "#" + filled
            }
        }
        return result
    }

    /// `key=value` with the value filled, or nil when the value is empty; an item without `=`
    /// is filled as written and dropped when that leaves nothing.
    private func fillQueryItem(_ item: [Token], _ values: [String: String]) -> String? {
        let parts = split(item, at: "=", maxSplits: 1)
        if parts.count == 2 {
            let value = fill(parts[1], values)
            return value.isEmpty ? nil : fill(parts[0], values) + "=" + value
        }
        let filled = fill(item, values)
        return filled.isEmpty ? nil : filled
    }

    private func fill(_ tokens: [Token], _ values: [String: String]) -> String {
        tokens.map { token in
            switch token {
            case .literal(let text): text
            case .placeholder(let key): PercentEncoding.encode(values[key] ?? "", keeping: kept)
            }
        }.joined()
    }

    /// The tokens before the first literal `?`, those of the query up to the first literal `#`
    /// after it, and those of that fragment.
    private func sections() -> (beforeQuery: [Token], query: [Token]?, fragment: [Token]?) {
        let atQuery = split(tokens, at: "?", maxSplits: 1)
        guard atQuery.count == 2 else { return (tokens, nil, nil) }
        let atFragment = split(atQuery[1], at: "#", maxSplits: 1)
        return (atQuery[0], atFragment[0], atFragment.count == 2 ? atFragment[1] : nil)
    }

    /// Splits a token list at a character occurring in its literal text.
    private func split(_ tokens: [Token], at separator: Character, maxSplits: Int = .max) -> [[Token]] {
        var pieces: [[Token]] = [[]]
        for token in tokens {
            guard case .literal(let text) = token, pieces.count <= maxSplits else {
                pieces[pieces.count - 1].append(token)
                continue
            }
            var rest = Substring(text)
            while pieces.count <= maxSplits, let index = rest.firstIndex(of: separator) {
                if index > rest.startIndex { pieces[pieces.count - 1].append(.literal(String(rest[..<index]))) }
                pieces.append([])
                rest = rest[rest.index(after: index)...]
            }
            if !rest.isEmpty { pieces[pieces.count - 1].append(.literal(String(rest))) }
        }
        return pieces
    }

    /// `{{key}}` is a placeholder when the key is non-empty and has no braces; anything else,
    /// such as an unclosed `{{`, is literal text.
    static func tokenize(_ format: String) -> [Token] {
        var tokens: [Token] = []
        var literal = ""
        var rest = Substring(format)
        while let open = rest.firstRange(of: "{{") {
            // append(contentsOf:) of a Substring, not the generic `+=` of a sequence.
            literal.append(contentsOf: rest[..<open.lowerBound])
            let afterOpen = rest[open.upperBound...]
            if let close = afterOpen.firstRange(of: "}}") {
                let key = afterOpen[..<close.lowerBound]
                if !key.isEmpty && !key.contains("{") && !key.contains("}") {
                    if !literal.isEmpty { tokens.append(.literal(literal)) }
                    literal = ""
                    tokens.append(.placeholder(String(key)))
                    rest = afterOpen[close.upperBound...]
                    continue
                }
            }
            literal += "{{"
            rest = afterOpen
        }
        literal.append(contentsOf: rest)
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        return tokens
    }
}
