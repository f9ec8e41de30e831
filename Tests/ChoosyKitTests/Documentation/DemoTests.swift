import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `make demo` (`scripts/demo.sh`), the README's first command, run as a user who keeps its
/// output (`make demo > demo.log 2>&1`) and pastes what it printed.
@Suite struct DemoTests {
    let sandbox = Sandbox()
    var directory: String { sandbox.root + "/demo" }

    /// Runs the demo on the binary under test, its stdout and stderr redirected to one file,
    /// and returns the file's lines.
    private func runRedirected() -> [String] {
        let log = sandbox.root + "/demo.log"
        let run = sandbox.run([
            "/bin/sh", "-c", #""$0" "$1" "$2" > "$3" 2>&1"#,
            Sandbox.packageRoot + "/scripts/demo.sh", Sandbox.choosyBinary, directory, log,
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let text = sandbox.read(log) ?? ""
        #expect(!text.contains("\0"), "a stream that was truncated and written on leaves NULs")
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Each `$ COMMAND` line with what followed it: up to the blank line before the next
    /// command or comment.
    private func commands(in lines: [String]) -> [(command: String, output: [String])] {
        var result: [(String, [String])] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("$ ") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count {
                let next = end + 1 < lines.count ? lines[end + 1] : "$ "
                if lines[end] == "" && (next.hasPrefix("$ ") || next.hasPrefix("# ")) { break }
                end += 1
            }
            result.append((String(lines[index].dropFirst(2)), Array(lines[index + 1..<end])))
            index = end
        }
        return result
    }

    @Test func theWholeRunSurvivesRedirectionInOrder() {
        let lines = runRedirected()
        #expect(lines.first == "A sandbox with Firefox, Chromium and Thunderbird installed (recorder apps), and no display:")
        #expect(lines.last == "  thunderbird started with: [mailto:ada@example.org?subject=From%20a%20link]")
        // What the picker showed (on stderr), what choosy printed, what the apps got: in the
        // order it happened.
        let milestones = [
            "$ choosy list", "$ choosy describe email",
            "  picker shows: Firefox", "  picker shows: Chromium (always)",
            "  chromium started with: [https://example.org]",
            "$ choosy default browser", "chromium",
            "  chromium started with: [https://example.org/again]",
            "  chromium started with: [https://x.com/intent/user?screen_name=choosyapp]",
            "$ choosy open email compose to=ada@example.org subject='Hello there' --dry-run",
            "thunderbird 'mailto:ada@example.org?subject=Hello%20there'",
            "$ choosy handle 'mailto:ada@example.org?subject=From%20a%20link'",
        ]
        var position = lines.startIndex
        for milestone in milestones {
            let found = lines[position...].firstIndex(of: milestone)
            #expect(found != nil, "'\(milestone)' after line \(position) of:\n\(lines.joined(separator: "\n"))")
            position = found.map { $0 + 1 } ?? position
        }
    }

    /// The printed commands are shell words as typed: pasted into `sh -c` in the demo's
    /// environment (`. DIR/env`) once it has finished, they print what the demo showed and
    /// launch what it launched. (Those whose answer depends on a default the demo set later,
    /// such as `choosy list`, are left out.)
    @Test func aPrintedCommandPastedIntoAShellDoesTheSame() throws {
        let printed = commands(in: runRedirected())
        let pastes = [
            "choosy describe email",
            "choosy default browser",
            "choosy open email compose to=ada@example.org subject='Hello there' --dry-run",
            "choosy handle 'mailto:ada@example.org?subject=From%20a%20link'",
        ]
        for command in pastes {
            let shown = try #require(printed.first { $0.command == command }, "the demo prints \(command)").output
            // The demo shows what the recorder apps were started with after the command's own output.
            let launchedLines = shown.filter { $0.contains(" started with: ") }
            let log = directory + "/log/launched"
            let pasted = sandbox.run(["/bin/sh", "-c", ". \"$0\" && " + command + " 2>&1", directory + "/env"])
            #expect(pasted.status == 0, "\(command): \(pasted.stdout)")
            #expect(pasted.stdout == shown.filter { !launchedLines.contains($0) }.map { $0 + "\n" }.joined(), "\(command)")
            if !launchedLines.isEmpty {
                let deadline = Date().addingTimeInterval(10)
                while sandbox.read(log)?.isEmpty != false && Date() < deadline { usleep(20_000) }
                #expect(sandbox.read(log) == launchedLines.map { $0 + "\n" }.joined(), "\(command)")
            }
        }
    }
}
