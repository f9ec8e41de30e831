import Glibc

/// The saved scheme map and what it was built from. A line-based text file: a header, `R`
/// lines (the applications roots, in order), `D` lines (every directory with its mtime) and
/// `S` lines (a scheme and its IDs); fields are tab-separated and percent-escaped. The program
/// map (`desktop-programs.cache`) is the same file with program names for schemes.
///
/// Reading one is on the path of every command that looks up a scheme, and with thousands of
/// entries the file holds thousands of IDs: it is checked whole (a malformed file is never
/// used), but bytewise, and the IDs of a scheme are only decoded when that scheme is asked for:
/// the `S` lines are in the byte order of their escaped schemes, so the file is checked without
/// decoding one, and a scheme is found by binary search (the program map has thousands of lines,
/// and hashing each into a dictionary cost ten times the check). The program map is read with
/// `init(decodingStampsOf:)`: its `S` lines are left unchecked, and a lookup checks the few it
/// reads (checking its hundreds of KiB was most of what finding a link's source cost).
struct SchemeCache: Sendable {
    static let header = "choosy-desktop-index 1"

    var roots: [String]
    var directories: [(path: String, modified: Int64)]
    /// The map of a scan.
    private var decoded: [String: [String]]
    /// The map of a file read back: the file, and per `S` line where its escaped scheme and IDs are.
    private var bytes: [UInt8] = []
    private var lines: [(scheme: Range<Int>, ids: Range<Int>)] = []
    /// Read by `init(decodingStampsOf:)`: where its unchecked `S` lines are.
    private var unchecked: Range<Int>?
    /// Of a file read back whose `S` lines all come after the others (as `encoded` writes
    /// them): the bytes of the header and the `R` and `D` lines.
    private var stamps: ArraySlice<UInt8>?
    /// Whether it was read with the stamps of a map the caller had checked (`init(decodingStampsOf:sameAs:)`).
    private(set) var hasCheckedStamps = false

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
    /// with a scheme and at least one ID, in ascending byte order of their escaped schemes (so
    /// each scheme once), every field validly escaped, each line ended.
    init?(decoding bytes: [UInt8]) {
        self.init(bytes, checkingEveryLine: true)
    }

    /// Nil as for `init(decoding:)`, but only for what comes before the first `S` line (the
    /// header, the `R` and `D` lines); the `S` lines after it, as `encoded` writes them, are
    /// checked when a lookup reads them: `ids(forScheme:)` is nil for a malformed one.
    /// When the file's header, `R` and `D` lines are byte for byte those of `checked`, a map
    /// whose stamps the caller has checked, they are taken from it instead (the program map
    /// has the scheme map's: decoding them again cost as much as the rest of finding a source).
    init?(decodingStampsOf bytes: [UInt8], sameAs checked: SchemeCache? = nil) {
        if let checked, let stamps = checked.stamps, bytes.last == SchemeCache.newline, bytes.count > stamps.count,
            bytes[stamps.count] == UInt8(ascii: "S"), SchemeCache.startsWith(bytes, stamps)
        {
            self.init(roots: checked.roots, directories: checked.directories, handlers: [:])
            self.bytes = bytes
            self.unchecked = stamps.count..<bytes.count
            self.hasCheckedStamps = true
            return
        }
        self.init(bytes, checkingEveryLine: false)
    }

    private static func startsWith(_ bytes: [UInt8], _ prefix: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { whole in
            prefix.withUnsafeBytes { part in
                part.count <= whole.count && (part.isEmpty || memcmp(whole.baseAddress!, part.baseAddress!, part.count) == 0)
            }
        }
    }

    private init?(_ bytes: [UInt8], checkingEveryLine: Bool) {
        let header = Array((SchemeCache.header + "\n").utf8)
        guard bytes.count >= header.count, bytes[..<header.count].elementsEqual(header),
            bytes.last == SchemeCache.newline, !checkingEveryLine || String(validating: bytes, as: UTF8.self) != nil
        else { return nil }
        var roots: [String] = []
        var directories: [(path: String, modified: Int64)] = []
        var lines: [(scheme: Range<Int>, ids: Range<Int>)] = []
        var unchecked: Range<Int>?
        var firstS: Int?
        var stampsFirst = true
        var start = header.count
        while start < bytes.count {
            if bytes[start] == UInt8(ascii: "S") {
                if firstS == nil { firstS = start }
                if !checkingEveryLine {
                    unchecked = start..<bytes.count
                    break
                }
            } else if firstS != nil {
                stampsFirst = false
            }
            // The last byte is a newline, so every line has one.
            let end = SchemeCache.find(SchemeCache.newline, in: bytes, start..<bytes.count)!
            defer { start = end + 1 }
            // A one-letter kind, a tab, then the fields.
            guard end - start >= 2, bytes[start + 1] == SchemeCache.tab,
                SchemeCache.isValidlyEscaped(bytes, (start + 2)..<end),
                checkingEveryLine || String(validating: bytes[start..<end], as: UTF8.self) != nil
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
                let scheme = fields.lowerBound..<firstTab
                if let previous = lines.last?.scheme, !bytes[previous].lexicographicallyPrecedes(bytes[scheme]) { return nil }
                lines.append((scheme, (firstTab + 1)..<end))
            default:
                return nil
            }
        }
        self.init(roots: roots, directories: directories, handlers: [:])
        self.bytes = bytes
        self.lines = lines
        self.unchecked = unchecked
        if stampsFirst { self.stamps = bytes[..<(firstS ?? bytes.count)] }
    }

    /// The IDs that handle `scheme`, in precedence order; nil when the line that would hold
    /// them is malformed (only in a map of `init(decodingStampsOf:)`).
    func ids(forScheme scheme: String) -> [String]? {
        if let ids = decoded[scheme] { return ids }
        let key = Array(SchemeCache.escape(scheme).utf8)
        let found: Range<Int>
        if let unchecked {
            switch SchemeCache.search(key, in: bytes, unchecked) {
            case .found(let ids): found = ids
            case .absent: return []
            case .malformed: return nil
            }
        } else {
            var (low, high) = (0, lines.count)
            while low < high {
                let middle = (low + high) / 2
                if bytes[lines[middle].scheme].lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            guard low < lines.count, bytes[lines[low].scheme].elementsEqual(key) else { return [] }
            found = lines[low].ids
        }
        return bytes[found].split(separator: SchemeCache.tab, omittingEmptySubsequences: false).map(SchemeCache.unescape)
    }

    private enum Search {
        case found(ids: Range<Int>)
        case absent
        case malformed
    }

    /// The `S` line of `key` among the lines of `section` (whole lines, in order), by binary
    /// search over their bytes: each line it reads is checked as `init(decoding:)` checks it.
    private static func search(_ key: [UInt8], in bytes: [UInt8], _ section: Range<Int>) -> Search {
        // `low` and `high` are where lines start, and the line of `key` is between them.
        var (low, high) = (section.lowerBound, section.upperBound)
        while low < high {
            let middle = low + (high - low) / 2
            let start = findLast(newline, in: bytes, low..<middle).map { $0 + 1 } ?? low
            // The section ends with a newline, so every line has one.
            let end = find(newline, in: bytes, start..<section.upperBound)!
            guard end - start >= 2, bytes[start] == UInt8(ascii: "S"), bytes[start + 1] == tab,
                let firstTab = find(tab, in: bytes, (start + 2)..<end)
            else { return .malformed }
            let scheme = (start + 2)..<firstTab
            if bytes[scheme].lexicographicallyPrecedes(key) {
                low = end + 1
            } else if bytes[scheme].elementsEqual(key) {
                guard isValidlyEscaped(bytes, (start + 2)..<end), String(validating: bytes[start..<end], as: UTF8.self) != nil else {
                    return .malformed
                }
                return .found(ids: (firstTab + 1)..<end)
            } else {
                high = start
            }
        }
        return .absent
    }

    /// Every scheme and its IDs (of a map of `init(decodingStampsOf:)`, those of the file
    /// checked whole: none of a malformed one).
    var handlers: [String: [String]] {
        if unchecked != nil { return SchemeCache(decoding: bytes)?.handlers ?? [:] }
        var all = decoded
        for line in lines {
            let scheme = SchemeCache.unescape(bytes[line.scheme])
            all[scheme] = ids(forScheme: scheme) ?? []
        }
        return all
    }

    /// Appended as bytes: a rebuild writes thousands of IDs, and joining Strings for each line
    /// cost more than working out the map.
    func encoded() -> [UInt8] {
        let handlers = handlers
        var bytes = Array((SchemeCache.header + "\n").utf8)
        func line(_ kind: String, _ fields: [String]) {
            bytes.append(contentsOf: kind.utf8)
            for field in fields {
                bytes.append(SchemeCache.tab)
                bytes.append(contentsOf: SchemeCache.escape(field).utf8)
            }
            bytes.append(SchemeCache.newline)
        }
        for root in roots { line("R", [root]) }
        for directory in directories { line("D", [String(directory.modified), directory.path]) }
        // In the order `init(decoding:)` checks: the escaped schemes' bytes.
        let schemes = handlers.keys.map { (scheme: $0, escaped: Array(SchemeCache.escape($0).utf8)) }
        for scheme in schemes.sorted(by: { $0.escaped.lexicographicallyPrecedes($1.escaped) }) {
            line("S", [scheme.scheme] + handlers[scheme.scheme]!)
        }
        return bytes
    }

    /// File names may hold tabs and newlines; they must not break the line format.
    private static func escape(_ field: String) -> String {
        // Thousands of IDs on a rebuild, almost never with a byte to escape.
        let plain =
            field.utf8.withContiguousStorageIfAvailable { !$0.contains(where: SchemeCache.isEscaped) }
            ?? !field.utf8.contains(where: SchemeCache.isEscaped)
        guard !plain else { return field }
        var result = ""
        appendEscaped(field, to: &result) { scalar in SchemeCache.escapes[scalar] }
        return result
    }

    private static func isEscaped(_ byte: UInt8) -> Bool {
        byte == SchemeCache.percent || byte == SchemeCache.tab || byte == SchemeCache.newline || byte == 0x0D
    }

    /// `%` and the bytes that end a field or a line, percent-encoded.
    private static let escapes: [Unicode.Scalar: String] = ["%": "%25", "\t": "%09", "\n": "%0A", "\r": "%0D"]

    /// The escapes `escape` writes are the only ones allowed: `%25`, `%09`, `%0A`, `%0D`; and a
    /// byte it escapes is never there as it is (a raw `\r` would make a scheme that no lookup,
    /// which escapes the scheme asked for, can find).
    private static func isValidlyEscaped(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard find(0x0D, in: bytes, range) == nil else { return false }
        var index = range.lowerBound
        while let percent = find(SchemeCache.percent, in: bytes, index..<range.upperBound) {
            guard percent + 2 < range.upperBound, unescaped(bytes[percent + 1], bytes[percent + 2]) != nil else { return false }
            index = percent + 3
        }
        return true
    }

    /// The first index of `byte` in `range` (the file is scanned once per byte, and with
    /// thousands of entries it is tens of KiB on every command that looks up a scheme).
    private static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.firstIndex(of: byte, in: range)
    }

    /// The last index of `byte` in `range` (a line's few dozen bytes back).
    private static func findLast(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in range.reversed().first { buffer[$0] == byte } }
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
