import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct CommandPickerTests {
    let request = PickerRequest(
        title: "Open link with",
        candidates: [
            PickerCandidate(appKey: "firefox", displayName: "Firefox", isDefault: true),
            PickerCandidate(appKey: "chromium", displayName: "Chromium"),
        ])

    /// A picker script that records what it was given and answers `answer`.
    @discardableResult
    private func answeringScript(_ sandbox: Sandbox, _ answer: String, status: Int = 0) -> String {
        sandbox.write(
            sandbox.bin + "/answering-picker",
            """
            #!/bin/sh
            cat > "\(sandbox.records)/stdin"
            printf '%s' "$CHOOSY_PICKER_TITLE" > "\(sandbox.records)/title"
            printf '%s' "$1" > "\(sandbox.records)/argument"
            printf '\(answer)'
            exit \(status)

            """, mode: 0o755)
    }

    @Test func theCommandReadsTheLinesAndTheTitleAndItsAnswerIsTheChoice() throws {
        let sandbox = Sandbox()
        let script = answeringScript(sandbox, "Chromium (always)\\n")
        let picker = CommandPicker(
            command: "\(script) 'one argument'", environment: sandbox.choosyEnvironment,
            runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        #expect(try picker.choose(request) == .always(1))
        #expect(sandbox.read("records/stdin") == "Firefox\nFirefox (always)\nChromium\nChromium (always)\n")
        #expect(sandbox.read("records/title") == "Open link with")
        #expect(sandbox.read("records/argument") == "one argument")
    }

    /// The title reaches the command's script as it is shown: nothing raw to echo (issue 39).
    @Test func theTitleVariableHoldsNoRawControlCharacter() throws {
        let sandbox = Sandbox()
        let script = answeringScript(sandbox, "Firefox\\n")
        let picker = CommandPicker(
            command: script, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        var hostile = request
        hostile.title = "Evil\u{1B}]0;pwned\u{7}\u{202E}: Show\nwith"
        #expect(try picker.choose(hostile) == .justOnce(0))
        #expect(sandbox.read("records/title") == "Evil\\u{1B}]0;pwned\\u{7}\\u{202E}: Show\\u{A}with")
    }

    @Test func aJustOnceAnswerWithoutAlwaysLines() throws {
        let sandbox = Sandbox()
        answeringScript(sandbox, "Firefox\\n")
        var once = request
        once.allowAlways = false
        // Found through the environment's PATH, as the shell sees it.
        let picker = CommandPicker(
            command: "answering-picker", environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        #expect(try picker.choose(once) == .justOnce(0))
        #expect(sandbox.read("records/stdin") == "Firefox\nChromium\n")
    }

    @Test func aNonZeroExitIsACancelEvenWithAValidLine() throws {
        let sandbox = Sandbox()
        let script = answeringScript(sandbox, "Firefox\\n", status: 1)
        #expect(
            try CommandPicker(
                command: script, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .cancelled)
    }

    @Test(arguments: ["printf 'rm -rf /\\nFirefox\\n'", "echo garbage", "cat >/dev/null", "true", "exit 2"])
    func garbageEmptyOrFailingCommandsAreACancel(command: String) throws {
        let sandbox = Sandbox()
        #expect(
            try CommandPicker(
                command: command, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .cancelled)
    }

    @Test func aRequestWithoutCandidatesRunsNothing() throws {
        let sandbox = Sandbox()
        let script = answeringScript(sandbox, "Firefox\\n")
        let empty = PickerRequest(title: "Open", candidates: [])
        #expect(
            try CommandPicker(
                command: script, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(empty) == .cancelled)
        #expect(!sandbox.exists("records/stdin"))
    }

    /// The shell's 127 (not found) and 126 (not executable): the command never ran, so it could
    /// not show itself, which is no cancel (doc/desktop.md).
    @Test func aCommandTheShellCannotRunWasNotShown() throws {
        let sandbox = Sandbox()
        sandbox.write(sandbox.bin + "/not-executable", "#!/bin/sh\n", mode: 0o644)
        let runner = PosixProcessRunner(fileSystem: LocalFileSystem())
        let missing = try CommandPicker(command: "rofy -dmenu", environment: sandbox.choosyEnvironment, runner: runner).choose(request)
        #expect(missing == .notShown("the picker command 'rofy -dmenu' could not be run (not found: the shell's status 127)"))
        let script = sandbox.bin + "/not-executable"
        let denied = try CommandPicker(command: script, environment: sandbox.choosyEnvironment, runner: runner).choose(request)
        #expect(denied == .notShown("the picker command '\(script)' could not be run (not executable: the shell's status 126)"))
    }
}
