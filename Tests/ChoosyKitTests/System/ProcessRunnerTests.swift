import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// `PosixProcessRunner.run` with real children (doc/security.md): output kept up to the limit, no
/// wait past the child's exit, what it left in its group ended, the time limit over the whole run.
@Suite struct ProcessRunnerTests {
    private let runner = PosixProcessRunner(fileSystem: LocalFileSystem())

    private func shell(_ script: String, timeout: Double? = 20, group: Bool = true, limit: Int? = nil) -> (ProcessResult, Double) {
        let request = ProcessRequest(
            argv: ["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"],
            timeout: timeout, ownProcessGroup: group, outputLimit: limit
        )
        let started = Date()
        let result = try! runner.run(request)
        return (result, Date().timeIntervalSince(started))
    }

    @Test func outputPastTheLimitIsReadAndDiscardedStreamByStream() {
        let (result, _) = shell("head -c 3000000 /dev/zero | tr '\\0' a; echo err >&2", limit: 1 << 20)
        #expect(result.status == 0)
        #expect(result.stdout == [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20))
        #expect(result.stdoutTruncated)
        #expect(result.stderr == Array("err\n".utf8))
        #expect(!result.stderrTruncated)
    }

    /// A link given with bytes that are not UTF-8 is passed with those bytes (doc/security.md).
    @Test func argumentBytesReplaceTheUTF8OfTheirArgument() {
        var request = ProcessRequest(argv: ["/bin/sh", "-c", "printf %s \"$0\"", "\u{FFFD}"], environment: ["PATH": "/usr/bin:/bin"])
        request.argumentBytes = [3: [0x61, 0xFF]]
        #expect(try! runner.run(request).stdout == [0x61, 0xFF])
    }

    /// A variable given with bytes that are not UTF-8 is passed with those bytes while it holds
    /// the text they were read as; set to another value, it gets that value (doc/security.md).
    @Test func givenEnvironmentBytesStandForTheirVariableWhileItHoldsTheirText() {
        var request = ProcessRequest(
            argv: ["/bin/sh", "-c", "printf '%s|%s' \"$ODD\" \"$SET\""],
            environment: ["PATH": "/usr/bin:/bin", "ODD": "a\u{FFFD}", "SET": "new"])
        request.environmentBytes = ["ODD": Array("ODD=a".utf8) + [0xFF], "SET": Array("SET=old".utf8) + [0xFF]]
        #expect(try! runner.run(request).stdout == [0x61, 0xFF] + Array("|new".utf8))
    }

    /// A picker starts before its lines are made (bench/README.md, "The picker's first frame"):
    /// the child is running when its input is asked for, and reads all of it.
    @Test func inputMadeOnceStartedIsMadeWhileTheChildRunsAndReachesIt() throws {
        let directory = try #require(mkdtemp(strdup(NSTemporaryDirectory() + "choosy-run-XXXXXX")).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let started = directory + "/started"
        let request = ProcessRequest(
            argv: ["/bin/sh", "-c", "touch \"$0\"; cat", started], environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        var childWasRunning = false
        let lines = Array(String(repeating: "Firefox (always)\n", count: 10_000).utf8)
        let result = try runner.run(request) {
            for _ in 0..<1000 where !FileManager.default.fileExists(atPath: started) { usleep(10_000) }
            childWasRunning = FileManager.default.fileExists(atPath: started)
            return lines
        }
        #expect(childWasRunning, "the input was asked for before the child ran")
        #expect(result.status == 0 && result.stdout == lines)
    }

    @Test func everythingWrittenBeforeTheExitIsKept() {
        // More than a pipe holds (so read while it runs), then a last burst just before exit.
        let (result, _) = shell("head -c 200000 /dev/zero; head -c 60000 /dev/zero >&2; exit 3")
        #expect(result.status == 3)
        #expect(result.stdout.count == 200_000)
        #expect(result.stderr.count == 60_000)
        #expect(!result.stdoutTruncated && !result.stderrTruncated && !result.timedOut)
    }

    /// The shell exits at once, leaving a child that holds its stdout: choosy stops waiting
    /// when the shell exits (not 30 s later, not at the time limit) and ends the child.
    @Test func aChildLeftHoldingTheOutputNeitherHoldsTheRunNorOutlivesIt() throws {
        let (result, elapsed) = shell("sleep 30 & echo $!; echo done=1; exit 0")
        #expect(result.status == 0 && !result.timedOut)
        #expect(elapsed < 10, "took \(elapsed) s")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.hasSuffix("\ndone=1\n"))
        let child = try #require(pid_t(text.prefix { $0 != "\n" }))
        #expect(waitUntilGone(child, timeout: 5), "the left-behind sleep \(child) still runs")
    }

    /// Without a group of its own (a picker on the terminal) nothing is killed, but choosy does
    /// not wait for the pipes either.
    @Test func withoutItsOwnGroupALeftBehindChildIsLeftAlone() throws {
        let (result, elapsed) = shell("sleep 30 & echo $!", group: false)
        let child = try #require(pid_t(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(child, SIGKILL) }
        #expect(result.status == 0 && !result.timedOut)
        #expect(elapsed < 10, "took \(elapsed) s")
        #expect(isRunning(child))
    }

    /// `exec yes` never stops writing: memory stays at the limit and the time limit still ends it.
    @Test func theTimeLimitEndsAChildThatNeverStopsWriting() {
        let (result, elapsed) = shell("exec yes", timeout: 1, limit: 1 << 16)
        #expect(result.timedOut)
        #expect(result.status == 128 + SIGKILL)
        #expect(result.stdout.count == 1 << 16)
        #expect(result.stdoutTruncated)
        #expect(elapsed >= 1 && elapsed < 6, "took \(elapsed) s")
    }

    /// A writer that left the group (its own session) and keeps the pipe full after the child
    /// exits: the draining stops at a pipe's worth, it does not follow the writer forever.
    @Test func drainingAfterTheExitIsBounded() throws {
        let (result, elapsed) = shell("setsid sh -c 'echo $$ >&2; exec yes' & sleep 0.5; exit 0")
        let writer = try #require(pid_t(String(decoding: result.stderr, as: UTF8.self).prefix { $0 != "\n" }))
        defer { kill(writer, SIGKILL) }
        #expect(result.status == 0 && !result.timedOut)
        #expect(elapsed < 10, "took \(elapsed) s")
    }
}
