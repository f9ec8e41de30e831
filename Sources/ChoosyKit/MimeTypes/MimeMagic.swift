/// One `mime/` directory's `magic` file (shared-mime-info spec, "The magic files"): after the
/// header `MIME-Magic\0\n`, sections `[priority:type]\n`, highest priority first, each of
/// lines `[indent]>offset=` + a two-byte big-endian length + the value + optionally `&` and a
/// mask of the same length, `~` and a word size, `+` and a range length, then `\n`. A line with
/// anything else where the newline belongs is ignored up to the next newline, as the spec says;
/// so is one whose indent has no parent (the preceding line one level up), and a section whose
/// header cannot be read. Only what cannot be read is skipped, never the whole file.
///
/// Matching is GLib's reading of the `mime.cache` built from the same data
/// (doc/spec-choices.md, "MIME types"): a rule matches when its value (masked) is found at one
/// of the offsets of its range, wholly within the bytes read, and then, when it has nested
/// rules, when one of them matches; values are compared as they are written, so a `host16` or
/// `host32` rule (word size 2 or 4) is compared in big-endian byte order, as GLib does.
struct MimeMagic: Sendable {
    struct Section: Sendable {
        var priority: Int
        var type: String
        /// The indexes in `rules` of its top-level rules.
        var rules: [Int] = []
    }

    /// Its value and mask are slices of the file's bytes: a database has some 1,500 rules, and
    /// an array each was most of the cost of reading it (measured by bench/local-files.py).
    struct Rule: Sendable {
        var offset: Int
        var rangeLength: Int
        var value: ArraySlice<UInt8>
        var mask: ArraySlice<UInt8>?
        var children: [Int] = []
    }

    private(set) var sections: [Section] = []
    private(set) var rules: [Rule] = []
    /// The most bytes of a file that any rule looks at (offset, range and value).
    private(set) var extent = 0

    static let header: [UInt8] = Array("MIME-Magic\u{0}\n".utf8)
    /// Deeper nesting than any real database's is not read (and never recursed into).
    private static let maximumIndent = 64
    /// Offsets and lengths beyond this can never fall within the bytes read of a file.
    private static let numberLimit = 1 << 30

    init(parsing bytes: [UInt8]) {
        guard bytes.starts(with: MimeMagic.header) else { return }
        var reader = Reader(bytes: bytes, position: MimeMagic.header.count)
        // The last rule read at each indent of the current section, while it is one that reads.
        var path: [Int] = []
        var inSection = false
        while !reader.atEnd {
            if reader.peek == UInt8(ascii: "[") {
                path = []
                if let section = reader.sectionHeader() {
                    sections.append(section)
                    inSection = true
                } else {
                    inSection = false
                    reader.skipLine()
                }
                continue
            }
            guard inSection, let (indent, rule) = reader.rule() else {
                reader.skipLine()
                continue
            }
            // The spec's `magic-deleteall` marker: no rule of its own.
            if indent == 0 && rule.offset == 0 && rule.value.elementsEqual("__NOMAGIC__".utf8) { continue }
            guard indent <= path.count, indent <= MimeMagic.maximumIndent else { continue }
            let index = rules.count
            rules.append(rule)
            extent = max(extent, rule.offset + rule.rangeLength + rule.value.count)
            if indent == 0 {
                sections[sections.count - 1].rules.append(index)
            } else {
                rules[path[indent - 1]].children.append(index)
            }
            path.removeSubrange(indent...)
            path.append(index)
        }
    }

    /// The first section (the highest priority) with a rule that matches `data`.
    func match(_ data: [UInt8]) -> Section? {
        firstMatch(data).map { sections[$0] }
    }

    /// Where that section is in `sections`.
    func firstMatch(_ data: [UInt8]) -> Int? {
        sections.firstIndex { section in section.rules.contains { matches($0, data) } }
    }

    private func matches(_ index: Int, _ data: [UInt8]) -> Bool {
        let rule = rules[index]
        guard found(rule, in: data) else { return false }
        return rule.children.isEmpty || rule.children.contains { matches($0, data) }
    }

    private func found(_ rule: Rule, in data: [UInt8]) -> Bool {
        var start = rule.offset
        while start < rule.offset + rule.rangeLength {
            guard start + rule.value.count <= data.count else { return false }
            var equal = true
            for index in 0..<rule.value.count {
                let mask = rule.mask.map { $0[$0.startIndex + index] } ?? 0xFF
                if rule.value[rule.value.startIndex + index] & mask != data[start + index] & mask {
                    equal = false
                    break
                }
            }
            if equal { return true }
            start += 1
        }
        return false
    }

    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8 { bytes[position] }

        /// Past the next newline.
        mutating func skipLine() {
            position = (bytes.firstIndex(of: UInt8(ascii: "\n"), in: position..<bytes.count) ?? bytes.count) + 1
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard !atEnd, peek == byte else { return false }
            position += 1
            return true
        }

        /// Decimal digits, at least one; nil when there are none or too many to be an offset.
        mutating func number() -> Int? {
            var value = 0
            let start = position
            while !atEnd, peek >= 0x30, peek <= 0x39 {
                value = value * 10 + Int(peek - 0x30)
                guard value < MimeMagic.numberLimit else { return nil }
                position += 1
            }
            return position > start ? value : nil
        }

        mutating func read(_ count: Int) -> ArraySlice<UInt8>? {
            guard count <= bytes.count - position else { return nil }
            defer { position += count }
            return bytes[position..<(position + count)]
        }

        /// `[priority:type]\n`.
        mutating func sectionHeader() -> Section? {
            guard take(UInt8(ascii: "[")), let priority = number(), take(UInt8(ascii: ":")),
                let close = bytes.firstIndex(of: UInt8(ascii: "]"), in: position..<bytes.count), close > position,
                !bytes[position..<close].contains(UInt8(ascii: "\n"))
            else { return nil }
            let type = String(decoding: bytes[position..<close], as: UTF8.self)
            position = close + 1
            guard take(UInt8(ascii: "\n")) else { return nil }
            return Section(priority: priority, type: type)
        }

        /// `[indent]>offset=value[&mask][~size][+range]\n`; nil (the line to be skipped) for
        /// anything else.
        mutating func rule() -> (indent: Int, rule: Rule)? {
            let indent = number() ?? 0
            guard take(UInt8(ascii: ">")), let offset = number(), take(UInt8(ascii: "=")), let length = read(2),
                let value = read(Int(length[length.startIndex]) << 8 | Int(length[length.startIndex + 1]))
            else { return nil }
            var rule = Rule(offset: offset, rangeLength: 1, value: value)
            if take(UInt8(ascii: "&")) {
                guard let mask = read(value.count) else { return nil }
                rule.mask = mask
            }
            // The word size only says how to swap bytes, which GLib's cache reading does not do.
            if take(UInt8(ascii: "~")), number() == nil { return nil }
            if take(UInt8(ascii: "+")) {
                guard let range = number() else { return nil }
                rule.rangeLength = range
            }
            guard take(UInt8(ascii: "\n")) else { return nil }
            return (indent, rule)
        }
    }
}
