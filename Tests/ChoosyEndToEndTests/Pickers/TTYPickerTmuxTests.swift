import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The tty picker of the real `choosy open` in a real terminal (tmux), its stdout and stderr
/// files: what a user sees and types, and what choosy then launches and remembers.
@Suite(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
struct TTYPickerTmuxTests {
    static let url = "https://example.org/page"

    /// Firefox is the default, and two browsers have appeared since: the picker lists Firefox
    /// (marked default) first, then Chromium and Falkon.
    private func browsers() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        sandbox.installApp("org.kde.falkon.desktop", name: "Falkon", program: "falkon")
        return sandbox
    }

    /// Starts `choosy open browser browse url=… --picker P --title … --json` and waits for its list.
    private func picker(
        _ options: [String] = [], picker: String = "tty", waitFor text: String = "Choice:", environment: [String: String] = [:]
    ) throws -> (TmuxTerminal, String) {
        let arguments =
            ["open", "browser", "browse", "url=\(TTYPickerTmuxTests.url)", "--picker", picker, "--title", "Pick a browser", "--json"]
            + options
        let terminal = try TmuxTerminal(choosy: arguments, environment: environment, sandbox: browsers())
        return (terminal, terminal.waitForScreen(containing: text))
    }

    /// The app of choosy's `--json` line.
    private func openedApp(_ result: (stdout: String, stderr: String, status: Int32)?) -> String? {
        result.flatMap { Sandbox.jsonObject($0.stdout)?["app"] as? String }
    }

    private func defaultApp(_ sandbox: Sandbox) -> String {
        sandbox.choosy("default", "browser").stdout.trimmingCharacters(in: .newlines)
    }

    private func expectCancelled(_ terminal: TmuxTerminal, timeout: Double = 20) {
        let result = terminal.result(timeout: timeout)
        #expect(result?.status == 5)
        #expect(result?.stdout == "")
        #expect(result?.stderr == "choosy: cancelled: no app was chosen\n")
        #expect(defaultApp(terminal.sandbox) == "firefox")
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
    }

    @Test func theNumberedListAppearsAndNBangSetsTheDefault() throws {
        let (terminal, screen) = try picker()
        #expect(screen.contains("Pick a browser"))
        #expect(screen.contains("> 1  Firefox  (default)"))
        #expect(screen.contains("  2  Chromium"))
        #expect(screen.contains("  3  Falkon"))
        #expect(screen.contains("N! Enter: always"))
        try terminal.send("2!", "Enter")
        let result = terminal.result()
        #expect(result?.status == 0)
        #expect(openedApp(result) == "chromium")
        #expect(terminal.sandbox.launched("chromium") == [[TTYPickerTmuxTests.url]])
        #expect(defaultApp(terminal.sandbox) == "chromium")
        // The list is erased and the terminal is back in its usual mode.
        #expect(!terminal.screen().contains("Chromium"))
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
    }

    /// A picker command the shell cannot run gives way to the next picker of `auto`'s order,
    /// here the terminal's, with one line naming it (doc/desktop.md).
    @Test func aPickerCommandThatCannotRunGivesWayToTheTerminalPicker() throws {
        let (terminal, screen) = try picker(picker: "rofy -dmenu")
        #expect(screen.contains("> 1  Firefox  (default)"))
        try terminal.send("2", "Enter")
        let result = terminal.result()
        #expect(result?.status == 0)
        #expect(openedApp(result) == "chromium")
        #expect(
            result?.stderr.split(separator: "\n").filter { $0.hasPrefix("choosy:") && $0.contains("rofy") } == [
                "choosy: warning: the picker command 'rofy -dmenu' could not be run (not found: the shell's status 127); trying the automatic picker"
            ], "\(result?.stderr ?? "")")
    }

    /// `N@`: this app for the links of the site (its registrable domain), the type's default kept.
    @Test func nAtWritesASiteRule() throws {
        let (terminal, screen) = try picker()
        #expect(screen.contains("N@ Enter: always for example.org"))
        try terminal.send("2@", "Enter")
        #expect(openedApp(terminal.result()) == "chromium")
        #expect(defaultApp(terminal.sandbox) == "firefox")
        #expect(terminal.sandbox.choosy("rule", "list").stdout == "example.org  chromium\n")
    }

    @Test func aNumberAndEnterPicksJustOnce() throws {
        let (terminal, _) = try picker()
        try terminal.send("3")
        #expect(terminal.waitForScreen(containing: "Choice: 3").contains("> 3  Falkon"))
        try terminal.send("Enter")
        #expect(openedApp(terminal.result()) == "falkon")
        #expect(terminal.sandbox.launched("falkon") == [[TTYPickerTmuxTests.url]])
        #expect(defaultApp(terminal.sandbox) == "firefox")
    }

    @Test func arrowDownAndEnterPicksTheSecondRow() throws {
        let (terminal, _) = try picker()
        try terminal.send("Down")
        #expect(terminal.waitForScreen(containing: "> 2  Chromium").contains("  1  Firefox"))
        try terminal.send("Enter")
        #expect(openedApp(terminal.result()) == "chromium")
        #expect(defaultApp(terminal.sandbox) == "firefox")
    }

    @Test func arrowsThenBangEnterPicksAlways() throws {
        let (terminal, _) = try picker()
        try terminal.send("Down", "Down", "Down", "Up")
        terminal.waitForScreen(containing: "> 3  Falkon")
        try terminal.send("!", "Enter")
        #expect(openedApp(terminal.result()) == "falkon")
        #expect(defaultApp(terminal.sandbox) == "falkon")
    }

    @Test func aSingleEscCancelsAtOnce() throws {
        let (terminal, _) = try picker()
        try terminal.send("Escape")
        // No Enter, nothing more: the Esc alone ends it.
        expectCancelled(terminal, timeout: 5)
    }

    @Test(arguments: [["q", "Enter"], ["C-c"], ["C-d"]])
    func qCtrlCAndCtrlDCancel(keys: [String]) throws {
        let (terminal, _) = try picker()
        for key in keys { try terminal.send(key) }
        expectCancelled(terminal)
        #expect(terminal.sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func invalidInputShowsAHintAndAsksAgain() throws {
        let (terminal, _) = try picker()
        try terminal.send("9", "Enter")
        #expect(terminal.waitForScreen(containing: "Not a choice").contains("type a number from 1 to 3"))
        try terminal.send("1", "Enter")
        #expect(openedApp(terminal.result()) == "firefox")
    }

    @Test func noRememberRejectsAlways() throws {
        let (terminal, screen) = try picker(["--no-remember"])
        #expect(!screen.contains("always"))
        try terminal.send("2!", "Enter")
        terminal.waitForScreen(containing: "Always is not offered here")
        try terminal.send("2", "Enter")
        #expect(openedApp(terminal.result()) == "chromium")
        #expect(defaultApp(terminal.sandbox) == "firefox")
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalPutsTheTerminalModeBack(signal: Int32) throws {
        let (terminal, _) = try picker()
        let pid = try #require(terminal.pid)
        kill(pid, signal)
        let result = terminal.result()
        #expect(result?.status == 128 + signal)
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
        #expect(defaultApp(terminal.sandbox) == "firefox")
    }

    @Test func colourUnlessNoColor() throws {
        let (coloured, _) = try picker()
        #expect(coloured.screen(escapes: true).contains("\u{1B}[1m"))
        let (plain, _) = try picker(environment: ["NO_COLOR": "1"])
        let screen = plain.screen(escapes: true)
        #expect(screen.contains("> 1  Firefox"))
        #expect(!screen.contains("\u{1B}["))
    }

    @Test func aDumbTerminalReadsWholeLines() throws {
        let (terminal, screen) = try picker(environment: ["TERM": "dumb"])
        #expect(!screen.contains("Up/Down"))
        try terminal.send("x", "Enter")
        terminal.waitForScreen(containing: "Not a choice")
        try terminal.send("3!", "Enter")
        #expect(openedApp(terminal.result()) == "falkon")
        #expect(defaultApp(terminal.sandbox) == "falkon")
    }

    @Test func autoUsesTheTerminal() throws {
        let (terminal, screen) = try picker(picker: "auto")
        #expect(screen.contains("> 1  Firefox  (default)"))
        try terminal.send("1", "Enter")
        #expect(openedApp(terminal.result()) == "firefox")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fzf"), "needs fzf"))
    func fzfReadsTheChoiceLines() throws {
        let (terminal, screen) = try picker(picker: "fzf", waitFor: "Chromium (always)")
        #expect(screen.contains("Pick a browser"))
        // Each app's lines: just once, always, always for the site.
        try terminal.send("Down", "Down", "Down", "Down")
        terminal.waitForScreen(containing: "> Chromium (always)")
        try terminal.send("Enter")
        #expect(openedApp(terminal.result()) == "chromium")
        #expect(defaultApp(terminal.sandbox) == "chromium")
    }
}
