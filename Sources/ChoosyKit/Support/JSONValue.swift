/// A JSON value: what `JSONReader` reads from every file choosy reads, and what choosy
/// writes (its files and its `--json` output) with `rendered`.
package enum JSONValue: Equatable, Sendable {
    case string(String)
    /// A number as its text (RFC 8259 syntax): whoever reads it converts it (`double`, `int`),
    /// so reading and writing again never changes a digit.
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// The members in order, as written. A name may come more than once (RFC 8259 allows it);
    /// `self[name]` is then the first, as `JSONDecoder` reads.
    case object([(String, JSONValue)])

    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// JSON has no infinity or NaN: they are written as null.
    package static func double(_ value: Double) -> JSONValue {
        value.isFinite ? .number(value.description) : .null
    }

    /// An object whose members are sorted by name (their UTF-8 bytes), so a file written from
    /// a dictionary is the same bytes every time.
    static func object(sortedByName members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) })
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    // MARK: Reading

    /// The first member named `name`; nil when there is none or this is not an object.
    package subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var elements: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    package var members: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as the nearest Double, or nil when this is not a number or its magnitude is
    /// beyond a Double's range either way (too large, or a non-zero value that would become
    /// 0), as `JSONDecoder` decides.
    package var double: Double? {
        guard case .number(let text) = self, let value = Double(text), value.isFinite else { return nil }
        if value == 0,
            text.utf8.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
                .contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") })
        {
            return nil
        }
        return value
    }

    /// The number as an Int when it is one exactly (`1`, `1.0` and `1e2` are; `1.5` is not),
    /// as `JSONDecoder` decides.
    package var int: Int? {
        guard case .number(let text) = self else { return nil }
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return Int(text)
        }
        return double.flatMap { Int(exactly: $0) }
    }

    // MARK: Writing

    /// The text of this value. One line without insignificant whitespace; `indented`, one
    /// member or element a line, indented by two spaces with `" : "` after a name (the layout
    /// of choosy's files since they were written by `JSONEncoder`).
    package func rendered(indented: Bool = false) -> String {
        var output = ""
        write(to: &output, indentation: indented ? "\n" : nil)
        return output
    }

    /// `indentation` is nil for one line, else the newline and spaces that start a line at
    /// this value's depth.
    private func write(to output: inout String, indentation: String?) {
        switch self {
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .number(let text): output += text
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            JSONValue.writeContainer(values, open: "[", close: "]", to: &output, indentation: indentation) { value, output, inner in
                value.write(to: &output, indentation: inner)
            }
        case .object(let members):
            JSONValue.writeContainer(members, open: "{", close: "}", to: &output, indentation: indentation) { member, output, inner in
                JSONValue.writeString(member.0, to: &output)
                output += inner == nil ? ":" : " : "
                member.1.write(to: &output, indentation: inner)
            }
        }
    }

    private static func writeContainer<Item>(
        _ items: [Item], open: String, close: String, to output: inout String, indentation: String?,
        _ writeItem: (Item, inout String, String?) -> Void
    ) {
        output += open
        guard !items.isEmpty else {
            output += close
            return
        }
        let inner = indentation.map { $0 + "  " }
        for (index, item) in items.enumerated() {
            if index > 0 { output += "," }
            if let inner { output += inner }
            writeItem(item, &output, inner)
        }
        if let indentation { output += indentation }
        output += close
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings (keys, links, app keys) are printable ASCII with nothing to escape:
        // appended whole, not scalar by scalar.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output += value
        } else {
            appendEscaped(value, to: &output, by: escape)
        }
        output += "\""
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        // What choosy never shows raw (DisplayText: C1 codes, bidi overrides, …): JSON printed on
        // a terminal must not drive it, and the value reads back the same.
        case _ where DisplayText.isEscaped(scalar):
            guard scalar.value > 0xFFFF else { return hexEscape(scalar.value) }
            let value = scalar.value - 0x1_0000
            return hexEscape(0xD800 + (value >> 10)) + hexEscape(0xDC00 + (value & 0x3FF))
        default: return nil
        }
    }

    /// `\uXXXX`, four lower-case hex digits.
    private static func hexEscape(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
