import Glibc

/// The saved scheme map and what it was built from. A line-based text file: a header, `R`
/// lines (the applications roots, in order), `D` lines (every directory with its mtime) and
/// `S` lines (a scheme and its IDs); fields are tab-separated and percent-escaped.
///
/// Reading one is on the path of every command that looks up a scheme, and with thousands of
/// entries the file holds thousands of IDs: it is checked whole (a malformed file is never
/// used), but bytewise, and the IDs of a scheme are only decoded when that scheme is asked for.
struct SchemeCache: Sendable {
    static let header = "choosy-desktop-index 1"

    var roots: [String]
    var directories: [(path: String, modified: Int64)]
    /// The map of a scan.
    private var decoded: [String: [String]]
    /// The map of a file read back: the file, and per scheme where its escaped IDs are.
    private var bytes: [UInt8] = []
    private var encodedIDs: [String: Range<Int>] = [:]

    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")
    private static let percent = UInt8(ascii: "%")

    init(roots: [String], directories: [(path: String, modified: Int64)], handlers: [String: [String]]) {
        self.roots = roots
        self.directories = directories
        self.decoded = handlers
    }

    /// Nil for anything but a well-formed cache of this version: valid UTF-8, the header line,
    /// then only `R` lines with one field, `D` lines with an integer and a path, and `S` lines
    /// with a scheme (once) and at least one ID, every field validly escaped, each line ended.
    init?(decoding bytes: [UInt8]) {
        let header = Array((SchemeCache.header + "\n").utf8)
        guard bytes.count >= header.count, bytes[..<header.count].elementsEqual(header),
            bytes.last == SchemeCache.newline, String(validating: bytes, as: UTF8.self) != nil
        else { return nil }
        var roots: [String] = []
        var directories: [(path: String, modified: Int64)] = []
        var encodedIDs: [String: Range<Int>] = [:]
        var start = header.count
        while start < bytes.count {
            // The last byte is a newline, so every line has one.
            let end = SchemeCache.find(SchemeCache.newline, in: bytes, start..<bytes.count)!
            defer { start = end + 1 }
            // A one-letter kind, a tab, then the fields.
            guard end - start >= 2, bytes[start + 1] == SchemeCache.tab,
                SchemeCache.isValidlyEscaped(bytes, (start + 2)..<end)
            else { return nil }
            let fields = (start + 2)..<end
            let firstTab = SchemeCache.find(SchemeCache.tab, in: bytes, fields)
            switch bytes[start] {
            case UInt8(ascii: "R") where firstTab == nil:
                roots.append(SchemeCache.unescape(bytes[fields]))
            case UInt8(ascii: "D"):
                guard let firstTab, SchemeCache.find(SchemeCache.tab, in: bytes, (firstTab + 1)..<end) == nil,
                    let modified = Int64(String(decoding: bytes[fields.lowerBound..<firstTab], as: UTF8.self))
                else { return nil }
                directories.append((SchemeCache.unescape(bytes[(firstTab + 1)..<end]), modified))
            case UInt8(ascii: "S"):
                guard let firstTab else { return nil }
                let scheme = SchemeCache.unescape(bytes[fields.lowerBound..<firstTab])
                guard encodedIDs[scheme] == nil else { return nil }
                encodedIDs[scheme] = (firstTab + 1)..<end
            default:
                return nil
            }
        }
        self.init(roots: roots, directories: directories, handlers: [:])
        self.bytes = bytes
        self.encodedIDs = encodedIDs
    }

    /// The IDs that handle `scheme`, in precedence order.
    func ids(forScheme scheme: String) -> [String] {
        if let ids = decoded[scheme] { return ids }
        guard let range = encodedIDs[scheme] else { return [] }
        return bytes[range].split(separator: SchemeCache.tab, omittingEmptySubsequences: false).map(SchemeCache.unescape)
    }

    /// Every scheme and its IDs.
    var handlers: [String: [String]] {
        var all = decoded
        for scheme in encodedIDs.keys { all[scheme] = ids(forScheme: scheme) }
        return all
    }

    func encoded() -> [UInt8] {
        let handlers = handlers
        var text = SchemeCache.header + "\n"
        for root in roots { text += "R\t\(SchemeCache.escape(root))\n" }
        for directory in directories { text += "D\t\(directory.modified)\t\(SchemeCache.escape(directory.path))\n" }
        for scheme in handlers.keys.sorted() {
            text += (["S", SchemeCache.escape(scheme)] + handlers[scheme]!.map(SchemeCache.escape)).joined(separator: "\t") + "\n"
        }
        return Array(text.utf8)
    }

    /// File names may hold tabs and newlines; they must not break the line format.
    private static func escape(_ field: String) -> String {
        // Thousands of IDs on a rebuild, almost never with a byte to escape.
        guard field.utf8.contains(where: { $0 == SchemeCache.percent || $0 == SchemeCache.tab || $0 == SchemeCache.newline || $0 == 0x0D })
        else {
            return field
        }
        var result = ""
        appendEscaped(field, to: &result) { scalar in SchemeCache.escapes[scalar] }
        return result
    }

    /// `%` and the bytes that end a field or a line, percent-encoded.
    private static let escapes: [Unicode.Scalar: String] = ["%": "%25", "\t": "%09", "\n": "%0A", "\r": "%0D"]

    /// The escapes `escape` writes are the only ones allowed: `%25`, `%09`, `%0A`, `%0D`.
    private static func isValidlyEscaped(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while let percent = find(SchemeCache.percent, in: bytes, index..<range.upperBound) {
            guard percent + 2 < range.upperBound, unescaped(bytes[percent + 1], bytes[percent + 2]) != nil else { return false }
            index = percent + 3
        }
        return true
    }

    /// The first index of `byte` in `range` (memchr: the file is scanned once per byte, and
    /// with thousands of entries it is tens of KiB on every command that looks up a scheme).
    private static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    private static func unescaped(_ high: UInt8, _ low: UInt8) -> UInt8? {
        switch (high, low) {
        case (UInt8(ascii: "2"), UInt8(ascii: "5")): return SchemeCache.percent
        case (UInt8(ascii: "0"), UInt8(ascii: "9")): return SchemeCache.tab
        case (UInt8(ascii: "0"), UInt8(ascii: "A")): return SchemeCache.newline
        case (UInt8(ascii: "0"), UInt8(ascii: "D")): return UInt8(ascii: "\r")
        default: return nil
        }
    }

    /// A field checked by `isValidlyEscaped`, unescaped.
    private static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(SchemeCache.percent) else { return String(decoding: field, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            if field[index] == SchemeCache.percent, index + 2 < field.endIndex,
                let byte = unescaped(field[index + 1], field[index + 2])
            {
                result.append(byte)
                index += 3
            } else {
                result.append(field[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
