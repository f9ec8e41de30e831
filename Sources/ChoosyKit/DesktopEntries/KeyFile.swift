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
    package init?(parsing bytes: [UInt8]) {
        guard bytes.count <= KeyFile.sizeLimit, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        // C1 control codes (U+0080–U+009F) are binary too, though valid UTF-8.
        guard !text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else { return nil }
        var groups: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard rawLine.count <= KeyFile.lineLimit else { return nil }
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            // Tab is the only control character a key file may hold; anything else is binary.
            guard !line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
            line = line.drop { $0 == 0x20 || $0 == 0x09 }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            if first == UInt8(ascii: "[") {
                while line.last == 0x20 || line.last == 0x09 { line = line.dropLast() }
                let name = line.dropFirst().dropLast()
                guard line.last == UInt8(ascii: "]"), !name.isEmpty,
                      !name.contains(UInt8(ascii: "[")), !name.contains(UInt8(ascii: "]"))
                else { return nil }
                let group = String(Substring(name))
                current = group
                if groups[group] == nil { groups[group] = [:] }
                continue
            }
            guard let group = current, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            var keyBytes = line[..<equals]
            while keyBytes.last == 0x20 || keyBytes.last == 0x09 { keyBytes = keyBytes.dropLast() }
            guard let key = KeyFile.normalizedKey(String(Substring(keyBytes))) else { return nil }
            let value = line[line.index(after: equals)...].drop { $0 == 0x20 || $0 == 0x09 }
            groups[group, default: [:]][key] = String(Substring(value))
        }
        self.groups = groups
    }

    /// `Key` or `Key[locale]` with the locale's `.ENCODING` dropped; nil when malformed.
    private static func normalizedKey(_ key: String) -> String? {
        // Keys are ASCII in practice (the spec allows `A-Za-z0-9-` and a `[locale]`), and in
        // ASCII text every byte is one Character: the same rules on bytes, without the grapheme
        // searches below, which cost more than all the rest of parsing a file.
        if key.utf8.allSatisfy({ $0 < 0x80 }) { return normalizedASCIIKey(key) }
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

    /// `normalizedKey` for an ASCII key, on its bytes.
    private static func normalizedASCIIKey(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        let space = UInt8(ascii: " "), open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        guard !bytes.isEmpty, !bytes.contains(space) else { return nil }
        guard let openIndex = bytes.firstIndex(of: open) else {
            return bytes.contains(close) ? nil : key
        }
        // A base, `[`, a locale of at least one byte, and `]` last.
        guard openIndex > 0, bytes.last == close, openIndex + 2 < bytes.count else { return nil }
        let locale = bytes[(openIndex + 1)..<(bytes.count - 1)]
        guard !locale.contains(open), !locale.contains(close) else { return nil }
        guard let dot = locale.firstIndex(of: UInt8(ascii: ".")) else { return key }
        let modifier = locale[dot...].firstIndex(of: UInt8(ascii: "@")).map { locale[$0...] } ?? []
        return String(decoding: bytes[..<openIndex] + [open] + locale[..<dot] + modifier + [close], as: UTF8.self)
    }

    /// A `string` / `localestring` value with its escapes undone: `\s \n \t \r \\`. Other
    /// backslash sequences are kept as written, because `Exec` gives them a meaning of its own
    /// (`\"`, `\$`, `` \` ``) that is undone later, when the command line is split.
    package static func unescape(_ raw: String) -> String {
        guard raw.contains("\\") else { return raw }
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
    /// elements (the usual trailing `;`) are dropped.
    package static func list(_ raw: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var scalars = raw.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case ";":
                if !current.isEmpty { elements.append(unescape(current)) }
                current = ""
            case "\\":
                guard let next = scalars.next() else {
                    current += "\\"
                    break
                }
                if next == ";" {
                    current += ";"
                } else {
                    current.unicodeScalars.append(contentsOf: ["\\", next])
                }
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { elements.append(unescape(current)) }
        return elements
    }
}
