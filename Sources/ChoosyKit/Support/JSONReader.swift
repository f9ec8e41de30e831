/// The JSON reader for every file choosy reads: the catalog files, the cache's metadata
/// lines, preferences, the config file and the installer's record. It reads RFC 8259
/// strictly, and answers the questions RFC 8259 leaves open as `JSONDecoder` does, so that a
/// file means what it meant when choosy read it with `JSONDecoder`:
///
/// - a UTF-8 byte order mark at the start is skipped; UTF-16 and UTF-32 text is an error
///   (RFC 8259 §8.1 wants UTF-8, where `JSONDecoder` converts);
/// - more than `maximumDepth` arrays and objects inside each other is an error;
/// - a member name that comes twice is kept twice, and readers take the first;
/// - numbers keep their text, which is checked against the type it is read as
///   (`JSONValue.double`, `.int`), not when read.
///
/// It is stricter than `JSONDecoder` in two ways, both RFC 8259's: a comma before `]` or `}`
/// is an error (`JSONDecoder` accepts one), and so is a string or name that is not valid
/// (UTF-8, escapes, no raw control character) wherever it is, where `JSONDecoder` looks at a
/// string only when something decodes it.
package enum JSONReader {
    /// `JSONDecoder`'s limit too.
    package static let maximumDepth = 512

    /// The largest of choosy's own JSON files it reads (config, preferences, rules, caches,
    /// the installer's record); a larger one counts as corrupt (doc/configuration.md).
    package static let ownFileLimit = 16 << 20

    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in try parse(buffer) }
    }

    package static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in try parse(buffer) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func document() throws(JSONError) -> JSONValue {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
            } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                throw failure("the text is UTF-16 or UTF-32 (it starts with their byte order mark); JSON is UTF-8")
            }
            let value = try value(depth: 0)
            skipWhitespace()
            guard index == bytes.count else { throw failure("expected the end of the text after the value, found \(found)") }
            return value
        }

        // MARK: Values

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected a value, found \(found)") }
            switch bytes[index] {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure("expected a value, found \(found)")
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONError) -> JSONValue {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count,
                (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
            else { throw failure("expected a value, found \(found)") }
            index += count
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() throws(JSONError) -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(at: index) else { throw failure("expected a digit in a number, found \(found)") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                guard !isDigit(at: index) else { throw failure("a number starts with 0 and more digits") }
            } else {
                skipDigits()
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(at: index) else { throw failure("expected a digit after the decimal point, found \(found)") }
                skipDigits()
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(at: index) else { throw failure("expected a digit in the exponent, found \(found)") }
                skipDigits()
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        func isDigit(at position: Int) -> Bool {
            position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
        }

        mutating func skipDigits() {
            while isDigit(at: index) { index += 1 }
        }

        /// A string of valid UTF-8, with its escapes replaced.
        mutating func string() throws(JSONError) -> String {
            let opening = index
            index += 1
            var runStart = index
            // Only a string with escapes is copied.
            var unescaped: [UInt8] = []
            var hasEscapes = false
            var isASCII = true
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                    let text: String?
                    if hasEscapes {
                        unescaped.append(contentsOf: run)
                        text = String(validating: unescaped, as: UTF8.self)
                    } else if isASCII {
                        // ASCII is valid UTF-8: no validation (it cost more than the rest of reading).
                        text = String(decoding: run, as: UTF8.self)
                    } else {
                        text = String(validating: run, as: UTF8.self)
                    }
                    guard let text else { throw failure("a string that is not valid UTF-8", at: opening) }
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    hasEscapes = true
                    unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    try escape(into: &unescaped)
                    runStart = index
                case 0x00..<0x20:
                    throw failure("a control character in a string (it must be written as an escape)")
                case 0x80...:
                    isASCII = false
                    index += 1
                default:
                    index += 1
                }
            }
            throw failure("a string that does not end (no closing '\"')", at: opening)
        }

        /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX` (a surrogate pair for a
        /// character beyond U+FFFF; a lone surrogate is no character).
        mutating func escape(into output: inout [UInt8]) throws(JSONError) {
            let backslash = index
            index += 1
            guard index < bytes.count else { throw failure("a string that does not end (no closing '\"')") }
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(letter)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var value = try hexQuad()
                if (0xD800...0xDBFF).contains(value) {
                    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("a \\u escape of a high surrogate without a low surrogate after it", at: backslash)
                    }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw failure("a \\u escape of a high surrogate without a low surrogate after it", at: backslash)
                    }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(value) {
                    throw failure("a \\u escape of a low surrogate without a high surrogate before it", at: backslash)
                }
                // Not a surrogate, so a scalar.
                UTF8.encode(Unicode.Scalar(value)!) { output.append($0) }
            default:
                throw failure("an escape that JSON does not have", at: backslash)
            }
        }

        mutating func hexQuad() throws(JSONError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = index < bytes.count ? bytes[index] : 0
                guard let digit = byte.hexDigitValue else { throw failure("expected 4 hexadecimal digits after \\u, found \(found)") }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func array(depth: Int) throws(JSONError) -> JSONValue {
            try checkDepth(depth)
            var elements: [JSONValue] = []
            try items(closedBy: UInt8(ascii: "]"), of: "an array") { parser throws(JSONError) in
                elements.append(try parser.value(depth: depth))
            }
            return .array(elements)
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            try checkDepth(depth)
            // Room for the members of most objects at once: growing the array member by member
            // cost more than the rest of reading a file of many small objects (rules.json).
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(8)
            try items(closedBy: UInt8(ascii: "}"), of: "an object") { parser throws(JSONError) in
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
                    throw parser.failure("expected a member name in double quotes, found \(parser.found)")
                }
                let name = try parser.string()
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else {
                    throw parser.failure("expected ':' after a member name, found \(parser.found)")
                }
                parser.index += 1
                members.append((name, try parser.value(depth: depth)))
            }
            return .object(members)
        }

        func checkDepth(_ depth: Int) throws(JSONError) {
            guard depth <= JSONReader.maximumDepth else {
                throw failure("more than \(JSONReader.maximumDepth) arrays and objects inside each other")
            }
        }

        /// The items of an array or object (the opening bracket is at `index`): `item` reads
        /// one, with whitespace skipped before it, until `closing`.
        mutating func items(closedBy closing: UInt8, of container: String, _ item: (inout Parser) throws(JSONError) -> Void)
            throws(JSONError)
        {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == closing {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try item(&self)
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == closing else {
                    throw failure("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(container), found \(found)")
                }
                let separator = index
                index += 1
                if bytes[separator] == closing { return }
                skipWhitespace()
                if index < bytes.count, bytes[index] == closing {
                    throw failure("a comma before '\(Character(Unicode.Scalar(closing)))' (JSON allows none there)", at: separator)
                }
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        // MARK: Errors

        /// What is at `index`, for an error message.
        var found: String {
            guard index < bytes.count else { return "the end of the text" }
            let byte = bytes[index]
            if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            let hex = String(byte, radix: 16, uppercase: true)
            return "the byte 0x" + (hex.count == 1 ? "0" : "") + hex
        }

        /// An error at `position` (where the parser is, unless said), by line and column.
        func failure(_ reason: String, at position: Int? = nil) -> JSONError {
            let end = min(position ?? index, bytes.count)
            var line = 1
            var column = 1
            for byte in bytes[..<end] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {  // a character's first byte
                    column += 1
                }
            }
            return JSONError(line: line, column: column, reason)
        }
    }
}

/// Why a JSON file cannot be read: where in the text it stops being JSON, or where in the
/// document a value is not what the file must hold there.
package struct JSONError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Where in the text, from 1, counting characters: for text that is not JSON.
    package var line: Int?
    package var column: Int?
    /// Where in the document, from the outside in (member names, and `[index]` for array
    /// elements): for a value of the wrong kind.
    package var path: [String] = []
    package var reason: String

    init(line: Int, column: Int, _ reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// A value of the wrong kind: `reason` says what it should be (`"should be a string"`).
    init(shape reason: String) {
        self.reason = reason
    }

    /// The same error, one member or element further out.
    func inside(_ component: String) -> JSONError {
        var error = self
        error.path.insert(component, at: 0)
        return error
    }

    package var description: String {
        if let line, let column { return "line \(line), column \(column): \(reason)" }
        guard !path.isEmpty else { return "the document \(reason)" }
        let joined = path.enumerated().map { index, component in
            index == 0 || component.hasPrefix("[") ? component : "." + component
        }.joined()
        return "'\(joined)' \(reason)"
    }
}
