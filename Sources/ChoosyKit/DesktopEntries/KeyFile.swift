/// The `.ini`-like format shared by desktop entries and `mimeapps.list` (Desktop Entry spec,
/// "Basic format of the file"): groups of `Key=Value` lines, with raw (still escaped) values.
/// Parsing is all-or-nothing: a file that is not text in this format is rejected whole, so
/// junk can never be half-read into a launcher.
package struct KeyFile: Equatable, Sendable {
    /// Files larger than this are not read at all (real desktop entries are a few KiB).
    package static let sizeLimit = 1 << 20
    /// A longer line means the file is not a hand-written key file.
    package static let lineLimit = 64 << 10

    /// Group name → key → raw value. Localized keys keep their suffix (`Name[de]`), with any
    /// `.ENCODING` part of the locale removed, since matching ignores it.
    package var groups: [String: [String: String]]

    /// Nil for anything that is not a valid key file: invalid UTF-8, control characters (C0, DEL, C1),
    /// over-long lines, keys before the first group, or lines that are neither a comment, a
    /// group header nor `Key=Value`.
    /// With `keeping`, every line is checked all the same, but only those keys of that group
    /// are kept (other groups are kept empty): most of parsing is storing values.
    package init?(parsing bytes: [UInt8], keeping: (group: String, keys: [String])? = nil) {
        guard bytes.count <= KeyFile.sizeLimit, String(validating: bytes, as: UTF8.self) != nil,
            let groups = bytes.withUnsafeBufferPointer({ KeyFile.groups(in: $0, keeping: keeping) })
        else { return nil }
        self.groups = groups
    }

    private static let space = UInt8(ascii: " ")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    /// The groups of `bytes`, which are valid UTF-8, or nil as for `init(parsing:)`. Read by
    /// byte, as every byte the format gives a meaning to is ASCII: a real desktop entry with its
    /// translations is long, and reading it by Character cost more than the rest of a command.
    private static func groups(in bytes: UnsafeBufferPointer<UInt8>, keeping: (group: String, keys: [String])?) -> [String: [String:
        String]]?
    {
        var groups: [String: [String: String]] = [:]
        var current: (name: String, keys: [String: String])?
        var valid = true
        KeyFileLine.lines(in: bytes) { line in
            guard line.count <= KeyFile.lineLimit, !holdsControlCharacter(bytes, line) else {
                valid = false
                return false
            }
            switch KeyFileLine(bytes, line) {
            case .blank, .comment:
                break
            case .group(let name):
                if let current { groups[current.name] = current.keys }
                let group = KeyFileLine.text(bytes, name)
                current = (group, groups.removeValue(forKey: group) ?? [:])
            case .entry(let keyRange, let value):
                guard current != nil, let key = normalizedKey(bytes, keyRange) else {
                    valid = false
                    return false
                }
                if let keeping, current!.name != keeping.group || !keeping.keys.contains(key) { break }
                current!.keys[key] = KeyFileLine.text(bytes, value)
            case .malformedGroup, .other:
                valid = false
                return false
            }
            return true
        }
        guard valid else { return nil }
        if let current { groups[current.name] = current.keys }
        return groups
    }

    /// Tab is the only control character a key file may hold; anything else is binary, and so
    /// are C1 control codes (U+0080–U+009F, UTF-8 `C2 80`–`C2 9F`), though valid UTF-8.
    private static func holdsControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        for index in line {
            let byte = bytes[index]
            if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < line.upperBound, (0x80...0x9F).contains(bytes[index + 1]) { return true }
        }
        return false
    }

    /// `Key` or `Key[locale]` with the locale's `.ENCODING` dropped; nil when malformed.
    private static func normalizedKey(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        // Keys are ASCII in practice (the spec allows `A-Za-z0-9-` and a `[locale]`), and in
        // ASCII text every byte is one Character: the same rules on bytes.
        guard range.allSatisfy({ bytes[$0] < 0x80 }) else { return normalizedKey(KeyFileLine.text(bytes, range)) }
        guard !range.isEmpty, !range.contains(where: { bytes[$0] == space }) else { return nil }
        guard let openIndex = range.first(where: { bytes[$0] == openBracket }) else {
            return range.contains { bytes[$0] == closeBracket } ? nil : KeyFileLine.text(bytes, range)
        }
        // A base, `[`, a locale of at least one byte, and `]` last.
        let last = range.upperBound - 1
        guard openIndex > range.lowerBound, bytes[last] == closeBracket, openIndex + 2 <= last else { return nil }
        let locale = (openIndex + 1)..<last
        guard !locale.contains(where: { bytes[$0] == openBracket || bytes[$0] == closeBracket }) else { return nil }
        guard let dot = locale.first(where: { bytes[$0] == UInt8(ascii: ".") }) else { return KeyFileLine.text(bytes, range) }
        let modifier = (dot..<last).first { bytes[$0] == UInt8(ascii: "@") } ?? last
        return KeyFileLine.text(bytes, range.lowerBound..<dot) + KeyFileLine.text(bytes, modifier..<last) + "]"
    }

    /// `normalizedKey` for a key that is not ASCII, by Character.
    private static func normalizedKey(_ key: String) -> String? {
        guard !key.isEmpty, !key.contains(" ") else { return nil }
        guard let open = key.firstIndex(of: "[") else {
            return key.contains("]") ? nil : key
        }
        let base = key[..<open]
        let locale = key[key.index(after: open)...].dropLast()
        guard !base.isEmpty, key.last == "]", !locale.isEmpty, !locale.contains("["), !locale.contains("]") else { return nil }
        guard let dot = locale.firstIndex(of: ".") else { return key }
        let modifier = locale[dot...].firstIndex(of: "@").map { locale[$0...] } ?? ""
        return "\(base)[\(locale[..<dot])\(modifier)]"
    }

    /// A `string` / `localestring` value with its escapes undone: `\s \n \t \r \\`. Other
    /// backslash sequences are kept as written, because `Exec` gives them a meaning of its own
    /// (`\"`, `\$`, `` \` ``) that is undone later, when the command line is split.
    package static func unescape(_ raw: String) -> String {
        // By byte: a search by Character cost more than the rest of reading a list.
        guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
        var result = ""
        var scalars = raw.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalars.next() {
            case "s": result += " "
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "\\": result += "\\"
            case let other?: result.unicodeScalars.append(contentsOf: ["\\", other])
            case nil: result += "\\"
            }
        }
        return result
    }

    /// A `;`-separated list (`\;` is a literal semicolon), each element unescaped; empty
    /// elements (the usual trailing `;`) are dropped. Split by byte, as `;` and `\` are ASCII.
    package static func list(_ raw: String) -> [String] {
        let semicolon = UInt8(ascii: ";")
        let backslash = UInt8(ascii: "\\")
        var elements: [String] = []
        var current: [UInt8] = []
        func endElement() {
            if !current.isEmpty { elements.append(unescape(String(decoding: current, as: UTF8.self))) }
            current.removeAll(keepingCapacity: true)
        }
        var bytes = raw.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case semicolon:
                endElement()
            case backslash:
                guard let next = bytes.next() else {
                    current.append(backslash)
                    break
                }
                if next != semicolon { current.append(backslash) }
                current.append(next)
            default:
                current.append(byte)
            }
        }
        endElement()
        return elements
    }
}
