import Foundation

/// How a catalog URL is built, written out plainly, independently of `URLTemplate`: placeholders are replaced by
/// markers that hold none of `? & = #`, the template's structure is read from that text, and
/// the markers are replaced by the (encoded) values last.
package enum SpecURL {
    package static func fill(_ format: String, _ values: [String: String]) -> String {
        // {{key}} with a non-empty key without braces is a placeholder; anything else is text.
        var keys: [String] = []
        var marked = ""
        var rest = Substring(format)
        while let open = rest.range(of: "{{") {
            marked += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            if let close = after.range(of: "}}"), !after[..<close.lowerBound].isEmpty,
                !after[..<close.lowerBound].contains("{"), !after[..<close.lowerBound].contains("}")
            {
                keys.append(String(after[..<close.lowerBound]))
                marked += "\u{1}\(keys.count - 1)\u{2}"
                rest = after[close.upperBound...]
            } else {
                marked += "{{"
                rest = after
            }
        }
        marked += rest
        // A mailto: link keeps `@` and `,` (RFC 6068, doc/spec-choices.md "URLs").
        let kept: Set<UInt8> = format.lowercased().hasPrefix("mailto:") ? Set("@,".utf8) : []

        func substitute(_ text: Substring, verbatimAtStart: Bool = false) -> String {
            var result = ""
            var text = text
            var first = true
            while let start = text.firstIndex(of: "\u{1}") {
                let end = text.firstIndex(of: "\u{2}")!
                result += text[..<start]
                let value = values[keys[Int(text[text.index(after: start)..<end])!]] ?? ""
                result += first && verbatimAtStart && start == text.startIndex && result.isEmpty ? value : encode(value, keeping: kept)
                first = false
                text = text[text.index(after: end)...]
            }
            return result + text
        }

        var beforeQuery = Substring(marked)
        var query: Substring?
        var fragment: Substring?
        if let question = beforeQuery.firstIndex(of: "?") {
            query = beforeQuery[beforeQuery.index(after: question)...]
            beforeQuery = beforeQuery[..<question]
            if let hash = query!.firstIndex(of: "#") {
                fragment = query![query!.index(after: hash)...]
                query = query![..<hash]
            }
        }
        var url = substitute(beforeQuery, verbatimAtStart: true)
        if let query {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).compactMap { item -> String? in
                if let equals = item.firstIndex(of: "=") {
                    let value = substitute(item[item.index(after: equals)...])
                    return value.isEmpty ? nil : substitute(item[..<equals]) + "=" + value
                }
                let filled = substitute(item)
                return filled.isEmpty ? nil : filled
            }
            if !items.isEmpty { url += "?" + items.joined(separator: "&") }
        }
        if let fragment {
            let filled = substitute(fragment)
            let onlyPlaceholders = fragment.split(separator: "\u{1}").allSatisfy {
                $0.isEmpty || $0.hasSuffix("\u{2}") && $0.dropLast().allSatisfy(\.isNumber)
            }
            if !(filled.isEmpty && onlyPlaceholders && !fragment.isEmpty) { url += "#" + filled }
        }
        return url
    }

    /// RFC 3986: every UTF-8 byte but `A-Z a-z 0-9 - . _ ~` (and `kept`) as `%XX`.
    package static func encode(_ text: String, keeping kept: Set<UInt8> = []) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8).union(kept)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}
