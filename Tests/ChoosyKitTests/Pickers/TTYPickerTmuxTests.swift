import ChoosyKit
import Foundation
import Glibc
import Testing

/// The tty picker in a real terminal (tmux), its stdout a file: what a user sees and types.
@Suite(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
struct TTYPickerTmuxTests {
    static let browsers = ["--title", "Pick a browser", "--default", "firefox", "firefox=Firefox", "chromium=Chromium", "web=Web"]

    /// Starts the picker and waits for its list.
    private func picker(_ arguments: [String] = browsers, environment: [String: String] = [:]) throws -> (TmuxTerminal, String) {
        let terminal = try TmuxTerminal(["--picker", "tty"] + arguments, environment: environment)
        return (terminal, terminal.waitForScreen(containing: "Choice:"))
    }

    @Test func theNumberedListAppearsAndNBangPicksAlways() throws {
        let (terminal, screen) = try picker()
        #expect(screen.contains("Pick a browser"))
        #expect(screen.contains("> 1  Firefox  (default)"))
        #expect(screen.contains("  2  Chromium"))
        #expect(screen.contains("  3  Web"))
        #expect(screen.contains("N! Enter: always"))
        try terminal.send("2!", "Enter")
        let result = terminal.result()
        #expect(result?.answer == "always chromium")
        #expect(result?.status == 0)
        // The list is erased and the terminal is back in its usual mode.
        #expect(!terminal.screen().contains("Chromium"))
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
    }

    @Test func aNumberAndEnterPicksJustOnce() throws {
        let (terminal, _) = try picker()
        try terminal.send("3")
        #expect(terminal.waitForScreen(containing: "Choice: 3").contains("> 3  Web"))
        try terminal.send("Enter")
        #expect(terminal.result()?.answer == "once web")
    }

    @Test func arrowDownAndEnterPicksTheSecondRow() throws {
        let (terminal, _) = try picker()
        try terminal.send("Down")
        #expect(terminal.waitForScreen(containing: "> 2  Chromium").contains("  1  Firefox"))
        try terminal.send("Enter")
        #expect(terminal.result()?.answer == "once chromium")
    }

    @Test func aSingleEscCancelsAtOnce() throws {
        let (terminal, _) = try picker()
        try terminal.send("Escape")
        // No Enter, nothing more: the Esc alone ends it.
        #expect(terminal.result(timeout: 5)?.answer == "cancelled")
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
    }

    @Test(arguments: [["q", "Enter"], ["C-c"], ["C-d"]])
    func qCtrlCAndCtrlDCancel(keys: [String]) throws {
        let (terminal, _) = try picker()
        for key in keys { try terminal.send(key) }
        let result = terminal.result()
        #expect(result?.answer == "cancelled")
        #expect(result?.status == 0)
    }

    @Test func invalidInputShowsAHintAndAsksAgain() throws {
        let (terminal, _) = try picker()
        try terminal.send("9", "Enter")
        #expect(terminal.waitForScreen(containing: "Not a choice").contains("type a number from 1 to 3"))
        try terminal.send("1", "Enter")
        #expect(terminal.result()?.answer == "once firefox")
    }

    @Test func noRememberRejectsAlways() throws {
        let (terminal, screen) = try picker(["--no-remember"] + TTYPickerTmuxTests.browsers)
        #expect(!screen.contains("always"))
        try terminal.send("2!", "Enter")
        terminal.waitForScreen(containing: "Always is not offered here")
        try terminal.send("2", "Enter")
        #expect(terminal.result()?.answer == "once chromium")
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalPutsTheTerminalModeBack(signal: Int32) throws {
        let (terminal, _) = try picker()
        let pid = try #require(terminal.pid)
        kill(pid, signal)
        let result = terminal.result()
        #expect(result?.status == 128 + signal)
        #expect(terminal.terminalModeAfterwards.isSuperset(of: ["icanon", "echo", "isig"]))
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
        #expect(terminal.result()?.answer == "always web")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fzf"), "needs fzf"))
    func fzfReadsTheChoiceLines() throws {
        let terminal = try TmuxTerminal(["--picker", "fzf"] + TTYPickerTmuxTests.browsers)
        let screen = terminal.waitForScreen(containing: "Chromium (always)")
        #expect(screen.contains("Pick a browser"))
        try terminal.send("Down", "Down", "Down")
        terminal.waitForScreen(containing: "> Chromium (always)")
        try terminal.send("Enter")
        #expect(terminal.result()?.answer == "always chromium")
    }
}
