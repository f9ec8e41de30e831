import ChoosyKit
import ChoosyTestSupport
import Testing

/// The reader of a hook's output and the buffer that caps it (doc/security.md).
@Suite struct HookOutputTests {
    private func pairs(_ text: String, truncated: Bool = false) -> [String] {
        HookOutput.assignments(in: Array(text.utf8), truncated: truncated).map { "\($0.0)=\($0.1)" }
    }

    @Test func assignmentsAreTheKeyValueLinesInOrder() {
        #expect(pairs("a=1\nnot one\n=no key\nb=x=y\r\nc=\n") == ["a=1", "b=x=y", "c="])
        #expect(pairs("last=without a line end") == ["last=without a line end"])
    }

    @Test func aLineCutAtTheLimitIsLeftOut() {
        #expect(pairs("a=1\nb=cut sho", truncated: true) == ["a=1"])
        #expect(pairs("a=1\nb=2\n", truncated: true) == ["a=1", "b=2"])
        #expect(pairs("a=1\r", truncated: true) == ["a=1"])
        #expect(pairs("only=cut", truncated: true) == [])
        // A cut inside a multi-byte character leaves U+FFFD last: that line is cut too.
        let cut = Array("a=1\nb=é".utf8).dropLast()
        #expect(HookOutput.assignments(in: Array(cut), truncated: true).map(\.0) == ["a"])
    }

    @Test func cappedBytesKeepsThePrefixAndCountsTheRest() {
        var bytes = CappedBytes(limit: 5)
        bytes.append([1, 2, 3])
        #expect(bytes.bytes == [1, 2, 3] && !bytes.truncated)
        bytes.append([4, 5])
        #expect(bytes.bytes == [1, 2, 3, 4, 5] && !bytes.truncated)
        bytes.append([6])
        #expect(bytes.bytes == [1, 2, 3, 4, 5] && bytes.truncated)
        bytes.append([UInt8](repeating: 7, count: 100_000))
        #expect(bytes.bytes.count == 5)
        var empty = CappedBytes(limit: 0)
        empty.append([])
        #expect(!empty.truncated)
        empty.append([1])
        #expect(empty.bytes.isEmpty && empty.truncated)
    }

    @Test func theWarningNamesTheStreamsThatWereCut() {
        #expect(HookOutput.truncatedStreams(stdout: false, stderr: false) == nil)
        #expect(HookOutput.truncatedStreams(stdout: true, stderr: false) == "stdout")
        #expect(HookOutput.truncatedStreams(stdout: false, stderr: true) == "stderr")
        #expect(HookOutput.truncatedStreams(stdout: true, stderr: true) == "stdout and stderr")
    }
}
