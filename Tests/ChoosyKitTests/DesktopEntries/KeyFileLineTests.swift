import Testing

@testable import ChoosyKit

/// What a line of a key file is, which all three readers (desktop entries and lists, the
/// `mimeapps.list` editor, Firefox's `profiles.ini`) take from one place.
@Suite struct KeyFileLineTests {
    /// The line's kind, with its ranges as text.
    private func read(_ line: String) -> String {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            switch KeyFileLine(buffer, 0..<buffer.count) {
            case .blank: "blank"
            case .comment: "comment"
            case .group(let name): "group \(KeyFileLine.text(buffer, name))"
            case .malformedGroup: "malformed"
            case .entry(let key, let value): "entry \(KeyFileLine.text(buffer, key))|\(KeyFileLine.text(buffer, value))"
            case .other: "other"
            }
        }
    }

    @Test(arguments: [
        ("", "blank"), (" \t ", "blank"), ("# x=y", "comment"), ("  #[g]", "comment"),
        ("[Desktop Entry]", "group Desktop Entry"), (" [g] \t", "group g"), ("[ g ]", "group  g "),
        ("[", "malformed"), ("[]", "malformed"), ("[a]b", "malformed"), ("[a[b]", "malformed"), ("[a]]", "malformed"),
        ("[a=b", "malformed"),
        ("Key=Value", "entry Key|Value"), ("  Key \t= \t Value  ", "entry Key|Value  "), ("=v", "entry |v"),
        ("k=", "entry k|"), ("k=a=b", "entry k|a=b"), ("; Name=x", "entry ; Name|x"),
        ("text", "other"), ("Name x", "other"),
    ])
    func eachLineIsOneKind(line: String, expected: String) {
        #expect(read(line) == expected)
    }

    private func lines(_ text: String, endingAtCR: Bool = false) -> [String] {
        let bytes = Array(text.utf8)
        var found: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            KeyFileLine.lines(in: buffer, endingAtCR: endingAtCR) { range in
                found.append(KeyFileLine.text(buffer, range))
                return true
            }
        }
        return found
    }

    @Test func linesEndAtLFWithTheirCROrAtACRAlone() {
        #expect(lines("a\r\n\nb\rc\n") == ["a", "", "b\rc"])
        #expect(lines("a\r\n\nb\rc\n", endingAtCR: true) == ["a", "", "", "b", "c"])
        #expect(lines("") == [] && lines("x") == ["x"] && lines("\r") == [""])
        // Stopping early reads no further line.
        var seen = 0
        Array("a\nb\nc".utf8).withUnsafeBufferPointer { buffer in
            KeyFileLine.lines(in: buffer) { _ in
                seen += 1
                return false
            }
        }
        #expect(seen == 1)
    }
}
