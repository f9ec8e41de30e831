import Glibc

/// One line of a key file (Desktop Entry spec, "Basic format of the file"), as all three of
/// choosy's readers of one see it: `KeyFile` (desktop entries and `mimeapps.list`, strict: a
/// line it cannot use rejects the file), `MimeAppsEditor` (the user's `mimeapps.list`, every
/// byte kept) and `FirefoxProfileList` (`profiles.ini`, lenient: such a line is skipped). Each
/// decides what to do with a line; what a line is, is decided here once.
package enum KeyFileLine: Equatable, Sendable {
    /// Nothing but blanks.
    case blank
    /// `#` first, after blanks.
    case comment
    /// `[name]` with blanks around it: the name's bytes, at least one, none of them a bracket.
    case group(name: Range<Int>)
    /// A line that starts with `[` but is no group header (`[`, `[]`, `[a]b`, `[a[b]`).
    case malformedGroup
    /// `key=value`: the key without the blanks around it, the value without the blanks after
    /// `=`; blanks at the end of the value stay, as GLib keeps them.
    case entry(key: Range<Int>, value: Range<Int>)
    /// Anything else: text without `=`.
    case other

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    /// The line `bytes[range]`, given without its line end.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end && KeyFileLine.isBlank(bytes[start]) { start += 1 }
        guard start < end else {
            self = .blank
            return
        }
        switch bytes[start] {
        case UInt8(ascii: "#"):
            self = .comment
        case KeyFileLine.openBracket:
            while KeyFileLine.isBlank(bytes[end - 1]) { end -= 1 }
            // `[`, a name of at least one byte, `]`.
            guard end - start > 2, bytes[end - 1] == KeyFileLine.closeBracket,
                case let name = (start + 1)..<(end - 1),
                !name.contains(where: { bytes[$0] == KeyFileLine.openBracket || bytes[$0] == KeyFileLine.closeBracket })
            else {
                self = .malformedGroup
                return
            }
            self = .group(name: name)
        default:
            guard let equals = KeyFileLine.firstIndex(of: UInt8(ascii: "="), in: bytes, start..<end) else {
                self = .other
                return
            }
            var keyEnd = equals
            while keyEnd > start && KeyFileLine.isBlank(bytes[keyEnd - 1]) { keyEnd -= 1 }
            var valueStart = equals + 1
            while valueStart < end && KeyFileLine.isBlank(bytes[valueStart]) { valueStart += 1 }
            self = .entry(key: start..<keyEnd, value: valueStart..<end)
        }
    }

    /// The ranges of the lines of `bytes`, each without its line end, empty lines included.
    /// A line ends at LF, and a CR just before the LF is part of the line end; with
    /// `endingAtCR` (Firefox's own reader) a CR ends a line by itself. `body` returns false to stop.
    package static func lines(in bytes: UnsafeBufferPointer<UInt8>, endingAtCR: Bool = false, _ body: (Range<Int>) -> Bool) {
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd: Int
            if endingAtCR {
                lineEnd = bytes[lineStart...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
            } else {
                lineEnd = firstIndex(of: 0x0A, in: bytes, lineStart..<bytes.count) ?? bytes.count
            }
            let end = !endingAtCR && lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            guard body(lineStart..<end) else { return }
            lineStart = lineEnd + 1
        }
    }

    /// `bytes[range]` as text (the readers check what must be valid UTF-8 themselves).
    package static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The range without the blanks at its end.
    package static func trimmingEnd(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && isBlank(bytes[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    package static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// memchr: lines are found once per byte of every file read.
    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
