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
    /// A section as the database names it, made only for the one that matched (and for tests).
    struct Section: Equatable, Sendable {
        var priority: Int
        var type: String
        /// Where its rules are in `rules`.
        var rules: Range<Int>
    }

    /// One rule, kept flat in file order with its indent: a rule's nested rules are the ones
    /// after it of a deeper indent, up to `end`. Its value and mask are places in the file's
    /// bytes. A database has some 1,500 rules: an array of nested rules each, and slices that
    /// retain the file, were most of the cost of reading it (measured by bench/local-files.py).
    struct Rule: Equatable, Sendable {
        var indent: Int
        var offset: Int
        var rangeLength: Int
        var valueStart: Int
        var valueCount: Int
        /// Where its mask starts, of `valueCount` bytes; -1 for none.
        var maskStart = -1
        /// The index after its last nested rule.
        var end = 0
    }

    private struct SectionRecord: Sendable {
        var priority: Int
        var type: Range<Int>
        var rules: Range<Int>
    }

    private let bytes: [UInt8]
    private var records: [SectionRecord] = []
    private(set) var rules: [Rule] = []
    /// The most bytes of a file that any rule looks at (offset, range and value).
    private(set) var extent = 0

    static let header: [UInt8] = Array("MIME-Magic\u{0}\n".utf8)
    /// Deeper nesting than any real database's is not read (and never recursed into).
    private static let maximumIndent = 64
    /// Offsets and lengths beyond this can never fall within the bytes read of a file.
    private static let numberLimit = 1 << 30

    init(parsing bytes: [UInt8]) {
        self.bytes = bytes
        guard bytes.starts(with: MimeMagic.header) else { return }
        rules.reserveCapacity(bytes.count / 24)
        var reader = Reader(bytes: bytes, position: MimeMagic.header.count)
        // The rules still open at each indent of the current section, while they read.
        var path: [Int] = []
        path.reserveCapacity(MimeMagic.maximumIndent + 1)
        var inSection = false
        func close(from indent: Int) {
            for index in path[indent...] { rules[index].end = rules.count }
            path.removeSubrange(indent...)
        }
        while !reader.atEnd {
            if reader.peek == UInt8(ascii: "[") {
                close(from: 0)
                if inSection { records[records.count - 1].rules = records[records.count - 1].rules.lowerBound..<rules.count }
                if let (priority, type) = reader.sectionHeader() {
                    records.append(SectionRecord(priority: priority, type: type, rules: rules.count..<rules.count))
                    inSection = true
                } else {
                    inSection = false
                    reader.skipLine()
                }
                continue
            }
            guard inSection, var rule = reader.rule() else {
                reader.skipLine()
                continue
            }
            // The spec's `magic-deleteall` marker: no rule of its own.
            if rule.indent == 0 && rule.offset == 0
                && bytes[rule.valueStart..<(rule.valueStart + rule.valueCount)].elementsEqual("__NOMAGIC__".utf8)
            {
                continue
            }
            guard rule.indent <= path.count, rule.indent <= MimeMagic.maximumIndent else { continue }
            close(from: rule.indent)
            rule.end = rules.count + 1
            path.append(rules.count)
            rules.append(rule)
            extent = max(extent, rule.offset + rule.rangeLength + rule.valueCount)
        }
        close(from: 0)
        if inSection { records[records.count - 1].rules = records[records.count - 1].rules.lowerBound..<rules.count }
    }

    /// Every section, highest priority first as the file has them.
    var sections: [Section] { records.indices.map(section) }

    private func section(_ index: Int) -> Section {
        let record = records[index]
        return Section(priority: record.priority, type: String(decoding: bytes[record.type], as: UTF8.self), rules: record.rules)
    }

    /// The value of a rule, and its mask.
    func value(of rule: Rule) -> ArraySlice<UInt8> { bytes[rule.valueStart..<(rule.valueStart + rule.valueCount)] }
    func mask(of rule: Rule) -> ArraySlice<UInt8>? {
        rule.maskStart < 0 ? nil : bytes[rule.maskStart..<(rule.maskStart + rule.valueCount)]
    }

    /// The first section (the highest priority) with a rule that matches `data`.
    func match(_ data: [UInt8]) -> Section? {
        firstMatch(data).map(section)
    }

    /// Where that section is in `sections`.
    func firstMatch(_ data: [UInt8]) -> Int? {
        records.firstIndex { record in
            var index = record.rules.lowerBound
            while index < record.rules.upperBound {
                if matches(index, data) { return true }
                index = rules[index].end
            }
            return false
        }
    }

    /// Whether the rule is found in `data` and, when it has nested rules, one of them matches.
    private func matches(_ index: Int, _ data: [UInt8]) -> Bool {
        let rule = rules[index]
        guard found(rule, in: data) else { return false }
        var child = index + 1
        guard child < rule.end else { return true }
        while child < rule.end {
            if matches(child, data) { return true }
            child = rules[child].end
        }
        return false
    }

    private func found(_ rule: Rule, in data: [UInt8]) -> Bool {
        var start = rule.offset
        while start < rule.offset + rule.rangeLength {
            guard start + rule.valueCount <= data.count else { return false }
            var equal = true
            for index in 0..<rule.valueCount {
                let mask = rule.maskStart < 0 ? 0xFF : bytes[rule.maskStart + index]
                if bytes[rule.valueStart + index] & mask != data[start + index] & mask {
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

        /// Where the next `count` bytes start, skipping them; nil when there are fewer.
        mutating func skip(_ count: Int) -> Int? {
            guard count <= bytes.count - position else { return nil }
            defer { position += count }
            return position
        }

        /// `[priority:type]\n`: the priority and where the type's name is.
        mutating func sectionHeader() -> (priority: Int, type: Range<Int>)? {
            guard take(UInt8(ascii: "[")), let priority = number(), take(UInt8(ascii: ":")),
                let close = bytes.firstIndex(of: UInt8(ascii: "]"), in: position..<bytes.count), close > position,
                bytes.firstIndex(of: UInt8(ascii: "\n"), in: position..<close) == nil
            else { return nil }
            let type = position..<close
            position = close + 1
            guard take(UInt8(ascii: "\n")) else { return nil }
            return (priority, type)
        }

        /// `[indent]>offset=value[&mask][~size][+range]\n`; nil (the line to be skipped) for
        /// anything else.
        mutating func rule() -> Rule? {
            let indent = number() ?? 0
            guard take(UInt8(ascii: ">")), let offset = number(), take(UInt8(ascii: "=")), let length = skip(2) else { return nil }
            let count = Int(bytes[length]) << 8 | Int(bytes[length + 1])
            guard let value = skip(count) else { return nil }
            var rule = Rule(indent: indent, offset: offset, rangeLength: 1, valueStart: value, valueCount: count)
            if take(UInt8(ascii: "&")) {
                guard let mask = skip(count) else { return nil }
                rule.maskStart = mask
            }
            // The word size only says how to swap bytes, which GLib's cache reading does not do.
            if take(UInt8(ascii: "~")), number() == nil { return nil }
            if take(UInt8(ascii: "+")) {
                guard let range = number() else { return nil }
                rule.rangeLength = range
            }
            guard take(UInt8(ascii: "\n")) else { return nil }
            return rule
        }
    }
}
