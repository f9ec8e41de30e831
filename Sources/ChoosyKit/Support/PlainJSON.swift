/// A small JSON reader for the files choosy reads on every command (the bundled catalog,
/// preferences), because `JSONDecoder`'s generic machinery costs more than the rest of a
/// command put together.
///
/// `JSONDecoder` stays the authority: this reader answers only for plain documents — valid
/// JSON (RFC 8259) without `\u` escapes, duplicate keys, deep nesting, or numbers other than
/// integers of up to 15 digits and decimals written the way Swift (and JSONEncoder) write a
/// Double — whose meaning no decoder can disagree on, and returns nil for anything else,
/// valid or not. Callers then decode with `JSONDecoder` exactly as before, so every
/// answer, error message and corner case is the one `JSONDecoder` gives.
enum PlainJSON: Equatable {
    case string(String)
    case integer(Int)
    /// A number with a fraction or exponent, whose text is the shortest one for this Double,
    /// so that every correctly rounding reader (JSONDecoder must be one, to read back what
    /// JSONEncoder writes) gets this value.
    case double(Double)
    case bool(Bool)
    case null
    case array([PlainJSON])
    case object([String: PlainJSON])

    /// The document, or nil when it is not plain (see above).
    static func parse(_ bytes: [UInt8]) -> PlainJSON? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        static let maximumDepth = 64
        /// Integers of up to 15 digits fit any Int and any Double exactly.
        static let maximumDigits = 15

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> PlainJSON? {
            guard depth < Reader.maximumDepth else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(PlainJSON.string)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        mutating func literal(_ word: StaticString, _ value: PlainJSON) -> PlainJSON? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: an integer of at most 15 digits, or
        /// a finite Double written as Swift writes it.
        mutating func number() -> PlainJSON? {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) else { return nil }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
                isInteger = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
                isInteger = false
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger {
                guard integerDigits <= Reader.maximumDigits, let value = Int(text) else { return nil }
                return .integer(value)
            }
            guard let value = Double(text), value.isFinite, value.description == text else { return nil }
            return .double(value)
        }

        /// A string without `\u` escapes or control characters, of valid UTF-8.
        mutating func string() -> String? {
            index += 1  // the opening quote
            let start = index
            var unescaped: [UInt8]?
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let text = unescaped.map { String(validating: $0, as: UTF8.self) }
                        ?? String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return nil }
                    if unescaped == nil { unescaped = Array(bytes[start..<index]) }
                    let replacement: UInt8
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
                    case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
                    case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
                    case UInt8(ascii: "b"): replacement = 0x08
                    case UInt8(ascii: "f"): replacement = 0x0C
                    case UInt8(ascii: "n"): replacement = 0x0A
                    case UInt8(ascii: "r"): replacement = 0x0D
                    case UInt8(ascii: "t"): replacement = 0x09
                    default: return nil  // \u, or not an escape at all
                    }
                    unescaped!.append(replacement)
                    index += 2
                case 0x00..<0x20:
                    return nil
                default:
                    unescaped?.append(byte)
                    index += 1
                }
            }
            return nil
        }

        mutating func array(depth: Int) -> PlainJSON? {
            index += 1
            var elements: [PlainJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        mutating func object(depth: Int) -> PlainJSON? {
            index += 1
            var members: [String: PlainJSON] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1), members.updateValue(member, forKey: key) == nil else { return nil }
                skipWhitespace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: return nil
                }
            }
        }
    }
}
