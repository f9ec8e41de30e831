import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// The examples of the README's "Shell aliases" section, read from README.md and run as they
/// are in a real bash: Firefox and Chromium are recorder apps, Firefox is the default browser.
@Suite struct ReadmeShellAliasTests {
    let sandbox = Sandbox()

    struct Block {
        var language: String
        var text: String
    }

    init() {
        sandbox.putChoosyOnPath()
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.recorder(program)
            sandbox.desktopEntry(id, sandbox.application(name: name, exec: program + " %u"))
        }
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        // The picker `--choose` shows: it answers Chromium (just once).
        sandbox.overrides["CHOOSY_PICKER"] = "grep -m1 -x Chromium"
    }

    /// The fenced code blocks of the section, in order.
    static let blocks: [Block] = {
        let readme = (try? String(contentsOfFile: Sandbox.packageRoot + "/README.md", encoding: .utf8)) ?? ""
        guard let start = readme.range(of: "\n## Shell aliases\n") else { return [] }
        let section = readme[start.upperBound...].components(separatedBy: "\n## ")[0]
        var blocks: [Block] = []
        var current: Block?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = Block(language: String(line.dropFirst(3)), text: "")
                }
            } else if current != nil {
                current!.text += line + "\n"
            }
        }
        return blocks
    }()

    /// Runs a script in bash, with aliases expanded as in an interactive shell.
    private func bash(_ script: String) -> Sandbox.Output {
        sandbox.run(["/bin/bash", "-O", "expand_aliases", "-c", script])
    }

    /// What the recorder apps were started with, as `app url`, once there are `count` runs
    /// (apps start detached, so they finish after choosy returns).
    private func launches(count: Int) -> [String] {
        var runs: [String] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            runs = (sandbox.recordedRuns("firefox") + sandbox.recordedRuns("chromium")).map { run in
                (run[0] as NSString).lastPathComponent + " " + run.dropFirst().joined(separator: " ")
            }
            if runs.count >= count { break }
            usleep(20_000)
        } while Date() < deadline
        return runs
    }

    @Test func theExamplesRunAsWritten() {
        let blocks = Self.blocks
        #expect(blocks.map(\.language) == ["sh", "sh", "sh", "console"])
        guard blocks.count == 4 else { return }
        let profile = "firefox https://x.com/intent/user?screen_name=choosyapp"
        var expected: [String] = []
        for block in blocks.prefix(2) {
            let output = bash(block.text)
            #expect(output.status == 0 && output.stderr.isEmpty, "\(block.text)\(output.stderr)")
            expected.append(profile)
            #expect(launches(count: expected.count) == expected, "\(block.text)")
        }

        let browse = bash(blocks[2].text)
        #expect(browse.status == 0 && browse.stderr.isEmpty, "\(browse.stderr)")
        // The default browser, then the one picked for this link; the default stays.
        let all = launches(count: 4)
        #expect(all.dropFirst(2).sorted() == ["chromium https://example.org", "firefox https://example.org"])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox\n")
    }

    /// `$ ` lines are run one after the other in one shell; the other lines are what they print
    /// (stdout and stderr together).
    @Test func theTranscriptPrintsWhatItShows() {
        guard let transcript = Self.blocks.last, transcript.language == "console" else {
            Issue.record("no console block in the Shell aliases section")
            return
        }
        let lines = transcript.text.split(separator: "\n").map(String.init)
        let commands = lines.filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) }
        let expected = lines.filter { !$0.hasPrefix("$ ") }.map { $0 + "\n" }.joined()
        let output = bash("exec 2>&1\n" + commands.joined(separator: "\n"))
        #expect(output.stdout == expected)
        #expect(commands.contains("tw choosyapp"))
        // The bare word is a usage error (doc/choosy.1).
        #expect(bash("alias tw='choosy open Twitter show_profile'\ntw choosyapp").status == 2)
    }
}
