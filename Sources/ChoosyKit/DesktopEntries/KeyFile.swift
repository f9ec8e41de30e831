/// The `.ini`-like format shared by desktop entries and `mimeapps.list` (Desktop Entry spec,
/// "Basic format of the file"): groups of `Key=Value` lines, with raw (still escaped) values.
/// Parsing is all-or-nothing: a file that is not text in this format is rejected whole, so
/// junk can never be half-read into a launcher.
package struct KeyFile: Equatable, Sendable {
    /// Files larger than this are not read at all (real desktop entries are a few KiB).
    package static let sizeLimit = 1 << 20
    /// A longer line means the file is not a hand-written key file.
    package static let lineLimit = 64 << 10
    /// The size and line limit of a file a tool writes about every entry of a directory
    /// (`mimeinfo.cache`, by update-desktop-database): a type's line lists each entry that
    /// handles it, so 40,000 entries make a file of a few MiB with lines of tens of KiB
    /// (doc/security.md, "Desktop entries").
    package static let listingLimit = 16 << 20

    /// Group name → key → raw value. Localized keys keep their suffix (`Name[de]`), with any
    /// `.ENCODING` part of the locale removed, since matching ignores it.
    package var groups: [String: [String: String]]

    /// Nil for anything that is not a valid key file: invalid UTF-8, control characters (C0, DEL, C1),
    /// over-long lines, keys before the first group, or lines that are neither a comment, a
    /// group header nor `Key=Value`; files larger than `sizeLimit` bytes, lines longer than
    /// `lineLimit` (`KeyFile.listingLimit` for both, for a `mimeinfo.cache`).
    /// With `keeping`, every line is checked all the same, but only the keys of that group for
    /// which `key` is true, given the key in its normal form, are kept (other groups are kept
    /// empty): most of parsing is storing keys and values.
    package init?(parsing bytes: [UInt8], keeping: Keeping? = nil, sizeLimit: Int = KeyFile.sizeLimit, lineLimit: Int = KeyFile.lineLimit) {
        guard bytes.count <= sizeLimit, String(validating: bytes, as: UTF8.self) != nil,
            let groups = bytes.withUnsafeBufferPointer({ KeyFile.groups(in: $0, keeping: keeping, lineLimit: lineLimit) })
        else { return nil }
        self.groups = groups
    }

    /// A group, and which of its keys to keep by the bytes of their normal form, as `groups`
    /// holds them (`Name[de.UTF-8]` and `Name[de.]` are `Name[de]`), so that a key is kept
    /// exactly when parsing all would hold it.
    package typealias Keeping = (group: String, key: (UnsafeBufferPointer<UInt8>) -> Bool)

    private static let space = UInt8(ascii: " ")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    /// The groups of `bytes`, which are valid UTF-8, or nil as for `init(parsing:)`. Read by
    /// byte, as every byte the format gives a meaning to is ASCII: a real desktop entry with its
    /// translations is long, and reading it by Character cost more than the rest of a command.
    private static func groups(in bytes: UnsafeBufferPointer<UInt8>, keeping: Keeping?, lineLimit: Int) -> [String: [String: String]]? {
        var groups: [String: [String: String]] = [:]
        var current: (name: String, keys: [String: String])?
        // Whether the current group is the one whose keys `keeping` picks.
        var isKeptGroup = false
        var valid = true
        KeyFileLine.lines(in: bytes) { line in
            guard line.count <= lineLimit, !holdsControlCharacter(bytes, line) else {
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
                isKeptGroup = group == keeping?.group
            case .entry(let keyRange, let value):
                guard current != nil else {
                    valid = false
                    return false
                }
                if let keeping {
                    let (isValid, kept) = isKeptGroup ? keptKey(bytes, keyRange, keeping.key) : (isValidKey(bytes, keyRange), nil)
                    if let kept { current!.keys[kept] = KeyFileLine.text(bytes, value) }
                    valid = isValid
                    return valid
                }
                guard let key = normalizedKey(bytes, keyRange) else {
                    valid = false
                    return false
                }
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

    /// Whether the line holds a control character other than tab: C0, DEL, or C1 (U+0080–U+009F,
    /// UTF-8 `C2 80`–`C2 9F`), which is valid UTF-8 but binary all the same. Eight bytes at a time
    /// while they are all printable ASCII, as most are: byte by byte, this was most of reading a
    /// `mimeinfo.cache`.
    private static func holdsControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var index = range.lowerBound
        while index < range.upperBound {
            if index + 8 <= range.upperBound, isPrintableASCII(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < range.upperBound, (0x80...0x9F).contains(bytes[index + 1]) { return true }
            index += 1
        }
        return false
    }

    /// Whether all eight bytes are in 0x20...0x7E: none below 0x20, none 0x7F, no high bit (the
    /// usual tests for a byte below n and a zero byte in a word).
    private static func isPrintableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- 0x20 &* ones) & ~word & highBits
        let delete = word ^ (0x7F &* ones)
        let is7F = (delete &- ones) & ~delete & highBits
        return (below20 | is7F | (word & highBits)) == 0
    }

    /// `Key` or `Key[locale]` with the locale's `.ENCODING` dropped; nil when malformed.
    private static func normalizedKey(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        keptKey(bytes, range) { _ in true }.key
    }

    /// Whether `normalizedKey` takes the key, without building it (for keys not kept).
    private static func isValidKey(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.allSatisfy({ bytes[$0] < 0x80 }) else { return normalizedKey(KeyFileLine.text(bytes, range)) != nil }
        return droppedPart(ofASCIIKey: range, in: bytes) != nil
    }

    /// Whether the key is valid, and its normal form when `keep` takes that (`keeping`). Most
    /// keys are their own normal form, and a key not kept is not built: only its bytes are read.
    private static func keptKey(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ keep: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> (valid: Bool, key: String?) {
        guard range.allSatisfy({ bytes[$0] < 0x80 }) else {
            guard var key = normalizedKey(KeyFileLine.text(bytes, range)) else { return (false, nil) }
            return (true, key.withUTF8(keep) ? key : nil)
        }
        guard let dropped = droppedPart(ofASCIIKey: range, in: bytes) else { return (false, nil) }
        guard !dropped.isEmpty else {
            return (true, keep(UnsafeBufferPointer(rebasing: bytes[range])) ? KeyFileLine.text(bytes, range) : nil)
        }
        let normal = Array(bytes[range.lowerBound..<dropped.lowerBound]) + Array(bytes[dropped.upperBound..<range.upperBound])
        return (true, normal.withUnsafeBufferPointer(keep) ? String(decoding: normal, as: UTF8.self) : nil)
    }

    /// What the normal form of an ASCII key leaves out, the `.ENCODING` of its locale (empty at
    /// the end when nothing), or nil when the key is malformed. Keys are ASCII in practice (the
    /// spec allows `A-Za-z0-9-` and a `[locale]`), and in ASCII text every byte is one
    /// Character: `normalizedKey(_:)`'s rules on bytes.
    private static func droppedPart(ofASCIIKey range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let nothing = range.upperBound..<range.upperBound
        guard !range.isEmpty, !range.contains(where: { bytes[$0] == space }) else { return nil }
        guard let openIndex = range.first(where: { bytes[$0] == openBracket }) else {
            return range.contains { bytes[$0] == closeBracket } ? nil : nothing
        }
        // A base, `[`, a locale of at least one byte, and `]` last.
        let last = range.upperBound - 1
        guard openIndex > range.lowerBound, bytes[last] == closeBracket, openIndex + 2 <= last else { return nil }
        let locale = (openIndex + 1)..<last
        guard !locale.contains(where: { bytes[$0] == openBracket || bytes[$0] == closeBracket }) else { return nil }
        guard let dot = locale.first(where: { bytes[$0] == UInt8(ascii: ".") }) else { return nothing }
        return dot..<((dot..<last).first { bytes[$0] == UInt8(ascii: "@") } ?? last)
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
    /// elements (the usual trailing `;`) are dropped. Split by byte, as `;` and `\` are ASCII;
    /// an element without `\` is taken as it is (a rebuild of the desktop index splits
    /// thousands).
    package static func list(_ raw: String) -> [String] {
        var raw = raw
        return raw.withUTF8 { bytes in
            var elements: [String] = []
            var start = 0
            var escaped = false
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case semicolon:
                    appendElement(bytes[start..<index], escaped: escaped, to: &elements)
                    start = index + 1
                    escaped = false
                case backslash:
                    escaped = true
                    index += 1
                default:
                    break
                }
                index += 1
            }
            appendElement(bytes[start..<bytes.count], escaped: escaped, to: &elements)
            return elements
        }
    }

    private static let semicolon = UInt8(ascii: ";"), backslash = UInt8(ascii: "\\")

    /// One element of `list`, unless empty: `\;` made `;`, then unescaped.
    private static func appendElement(_ element: Slice<UnsafeBufferPointer<UInt8>>, escaped: Bool, to elements: inout [String]) {
        guard !element.isEmpty else { return }
        guard escaped else {
            elements.append(String(decoding: UnsafeBufferPointer(rebasing: element), as: UTF8.self))
            return
        }
        var current: [UInt8] = []
        var bytes = element.makeIterator()
        while let byte = bytes.next() {
            guard byte == backslash else {
                current.append(byte)
                continue
            }
            guard let next = bytes.next() else {
                current.append(backslash)
                break
            }
            if next != semicolon { current.append(backslash) }
            current.append(next)
        }
        elements.append(unescape(String(decoding: current, as: UTF8.self)))
    }
}
