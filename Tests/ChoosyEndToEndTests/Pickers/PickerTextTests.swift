import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// What the real binary hands each picker when a catalog's type, action and app names hold
/// terminal escapes, Pango markup and a bidi override (issue 39): stand-ins under the pickers'
/// names record their argv, stdin and title variable; fzf and the tty picker run in a real
/// terminal (tmux), rofi and zenity think a display answers (a socket the test listens on).
/// Nothing arrives raw: control and format characters come as `\u{XX}`, and markup as text
/// where the program reads markup (zenity's `--text`; rofi is told to read none).
@Suite struct PickerTextTests {
    let sandbox = Sandbox()
    /// As the catalog writes them: JSON escapes.
    static let typeName = #"Evil\u001b]52;c;aGk=\u0007<span color='red'>\u202ex</span>"#
    static let actionName = #"Show\nchoosy: forged"#
    static let appName = #"E\u0085vil\u001b[8m"#
    /// The title choosy makes of them, as it is shown.
    static let shownTitle = "Evil\\u{1B}]52;c;aGk=\\u{7}<span color='red'>\\u{202E}x</span>: Show\\u{A}choosy: forged with…"

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/evil.json",
            """
            [{"key":"evil","name":"\(Self.typeName)","actions":[{"key":"show","name":"\(Self.actionName)"}],
              "apps":[{"key":"evil","name":"\(Self.appName)","app_url_scheme":"evil:","desktop_ids":["firefox.desktop"],
                       "actions":[{"key":"show","url_format":"evil:x"}]}]}]
            """)
    }

    /// A stand-in for `name` that records what it got and cancels.
    private func standIn(_ name: String) {
        sandbox.write(
            sandbox.bin + "/" + name,
            """
            #!/bin/sh
            for a in "$0" "$@"; do printf '%s\\0' "$a"; done > "\(sandbox.records)/\(name).argv"
            printf '%s' "$CHOOSY_PICKER_TITLE" > "\(sandbox.records)/\(name).title"
            cat > "\(sandbox.records)/\(name).stdin"
            exit 1

            """, mode: 0o755)
    }

    /// The stand-in's argv, and its stdin's rows (each without rofi's options after a NUL).
    private func recorded(_ name: String) -> (argv: [String], rows: [String], title: String) {
        let argv = (sandbox.read("records/\(name).argv") ?? "").split(separator: "\0").map(String.init)
        let rows = (sandbox.read("records/\(name).stdin") ?? "").split(separator: "\n").map { String($0.prefix { $0 != "\0" }) }
        return (argv, rows, sandbox.read("records/\(name).title") ?? "")
    }

    private func expectNothingRaw(_ texts: [String], _ name: String) {
        for text in texts {
            #expect(!text.unicodeScalars.contains(where: DisplayText.isEscaped), "\(name): \(text.debugDescription)")
        }
    }

    private func expectShownRows(_ rows: [String], _ name: String) {
        #expect(rows.first == "E\\u{85}vil\\u{1B}[8m", "\(name): \(rows)")
    }

    private func open(_ picker: String, environment: [String: String]) -> Sandbox.Output {
        sandbox.choosy(["open", "evil", "show", "--choose", "--picker", picker], environment: environment)
    }

    @Test func zenityGetsTheTitleShownAndItsMarkupAsText() throws {
        standIn("zenity")
        let display = try #require(ListeningSocket(path: sandbox.root + "/wl-0"))
        let output = open("zenity", environment: ["WAYLAND_DISPLAY": display.path])
        #expect(output.status == 5, "\(output.stderr)")
        let (argv, rows, _) = recorded("zenity")
        expectNothingRaw(argv + rows, "zenity")
        #expect(argv.contains("--title=" + Self.shownTitle), "\(argv)")
        #expect(argv.contains("--text=" + DisplayText.pangoMarkup(Self.shownTitle)), "\(argv)")
        #expect(argv.contains { $0.hasPrefix("--text=") && $0.contains("&lt;span color='red'&gt;") && !$0.contains("<") })
        expectShownRows(rows, "zenity")
    }

    @Test func rofiGetsTheTitleShownAndReadsNoMarkup() throws {
        standIn("rofi")
        // An X server's socket: choosy checks that the display answers before it starts rofi.
        let (socket, display) = ListeningSocket.x11Display()
        let output = open("rofi", environment: ["DISPLAY": display])
        #expect(output.status == 5, "\(output.stderr)")
        let (argv, rows, _) = recorded("rofi")
        expectNothingRaw(argv + rows, "rofi")
        #expect(argv.firstIndex(of: "-p").map { argv[$0 + 1] } == Self.shownTitle, "\(argv)")
        #expect(argv.contains("-no-markup") && argv.contains("-no-markup-rows"))
        expectShownRows(rows, "rofi")
        socket.stop()
    }

    @Test func aCommandGetsTheTitleShownInItsVariable() {
        standIn("my-picker")
        let output = open(sandbox.bin + "/my-picker", environment: [:])
        #expect(output.status == 5, "\(output.stderr)")
        let (_, rows, title) = recorded("my-picker")
        expectNothingRaw(rows + [title], "command")
        #expect(title == Self.shownTitle)
        expectShownRows(rows, "command")
    }

    @Test(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
    func fzfGetsTheTitleShownAsItsHeader() throws {
        standIn("fzf")
        let terminal = try TmuxTerminal(choosy: ["open", "evil", "show", "--choose", "--picker", "fzf"], sandbox: sandbox)
        #expect(terminal.result()?.status == 5)
        let (argv, rows, _) = recorded("fzf")
        expectNothingRaw(argv + rows, "fzf")
        #expect(argv.contains("--header=" + Self.shownTitle), "\(argv)")
        expectShownRows(rows, "fzf")
    }

    /// The tty picker draws the title itself: it shows the escapes, and the terminal's title
    /// (which OSC 0 and 2 set) stays as it was.
    @Test(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
    func theTTYPickerShowsTheTitleAndTheTerminalKeepsItsOwn() throws {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/evil.json",
            #"""
            [{"key":"evil","name":"Evil\u001b]2;pwned\u0007","actions":[{"key":"show","name":"Show"}],
              "apps":[{"key":"evil","name":"E\u0085vil","app_url_scheme":"evil:","desktop_ids":["firefox.desktop"],
                       "actions":[{"key":"show","url_format":"evil:x"}]}]}]
            """#)
        let terminal = try TmuxTerminal(choosy: ["open", "evil", "show", "--choose", "--picker", "tty"], sandbox: sandbox)
        let screen = terminal.waitForScreen(containing: "Choice:")
        #expect(screen.contains("Evil\\u{1B}]2;pwned\\u{7}: Show"), "\(screen)")
        #expect(screen.contains("E\\u{85}vil"), "\(screen)")
        #expect(try terminal.paneTitle() != "pwned")
        try terminal.send("q", "Enter")
        #expect(terminal.result()?.status == 5)
    }
}
