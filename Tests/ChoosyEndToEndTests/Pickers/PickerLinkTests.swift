import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The link is shown beside the title in every picker (SPEC §6.1), in each program's own place
/// for a message, and never raw: stand-ins under the pickers' names record their argv, stdin
/// and environment; rofi and zenity think an X server or a Wayland compositor answers (a
/// socket the test listens on), fuzzel, wofi, bemenu and tofi a Wayland compositor; fzf and the
/// tty picker run in a real terminal (tmux). The real programs are shown the link in
/// RealGraphicalPickerTests and RealWaylandPickerTests.
@Suite struct PickerLinkTests {
    let sandbox = Sandbox()
    /// An IDNA host and a path long enough to be cut.
    static let link = "https://xn--bcher-kva.example/" + String(repeating: "kapitel/", count: 12) + "ende.html?seite=3"
    static let shown = LinkForDisplay.text(link)

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
    }

    /// A stand-in for `name` that records what it got and cancels.
    private func standIn(_ name: String) {
        sandbox.write(
            sandbox.bin + "/" + name,
            """
            #!/bin/sh
            for a in "$0" "$@"; do printf '%s\\0' "$a"; done > "\(sandbox.records)/\(name).argv"
            printf '%s' "$CHOOSY_PICKER_TITLE" > "\(sandbox.records)/\(name).title"
            printf '%s' "${CHOOSY_PICKER_LINK-unset}" > "\(sandbox.records)/\(name).link"
            cat > /dev/null
            exit 1

            """, mode: 0o755)
    }

    private func argv(_ name: String) -> [String] {
        (sandbox.read("records/\(name).argv") ?? "").split(separator: "\0").map(String.init)
    }

    private func handle(_ picker: String, _ link: String = Self.link, environment: [String: String]) -> Sandbox.Output {
        sandbox.choosy(["handle", link, "--choose", "--picker", picker], environment: environment)
    }

    private func expectNothingRaw(_ texts: [String], _ name: String) {
        for text in texts {
            #expect(!text.unicodeScalars.contains(where: DisplayText.isEscaped), "\(name): \(text.debugDescription)")
        }
    }

    @Test func theLinkIsShownAsAPersonReadsIt() {
        #expect(Self.shown.hasPrefix("https://bücher.example [xn--bcher-kva.example]/kapitel/"), "\(Self.shown)")
        #expect(Self.shown.contains("…") && Self.shown.hasSuffix("ende.html?seite=3"), "\(Self.shown)")
    }

    @Test func rofiShowsItAsItsMessageEscapedForMarkup() throws {
        standIn("rofi")
        let (socket, display) = ListeningSocket.x11Display()
        let output = handle("rofi", environment: ["DISPLAY": display])
        #expect(output.status == 5, "\(output.stderr)")
        let argv = argv("rofi")
        #expect(argv.firstIndex(of: "-mesg").map { argv[$0 + 1] } == DisplayText.pangoMarkup(Self.shown), "\(argv)")
        socket.stop()
    }

    @Test func zenityShowsItUnderTheTitle() throws {
        standIn("zenity")
        let display = try #require(ListeningSocket(path: sandbox.root + "/wl-0"))
        let output = handle("zenity", environment: ["WAYLAND_DISPLAY": display.path])
        #expect(output.status == 5, "\(output.stderr)")
        let text = argv("zenity").first { $0.hasPrefix("--text=") }
        #expect(text == "--text=Browser: Browse to a URL with…\n" + DisplayText.pangoMarkup(Self.shown), "\(text ?? "none")")
    }

    @Test(arguments: ["fuzzel", "wofi", "bemenu", "tofi"])
    func aWaylandPickerShowsItInItsPrompt(picker: String) throws {
        standIn(picker)
        let display = try #require(ListeningSocket(path: sandbox.root + "/wl-0"))
        let output = handle(picker, environment: ["WAYLAND_DISPLAY": display.path])
        #expect(output.status == 5, "\(output.stderr)")
        let argv = argv(picker)
        #expect(argv.contains { $0.contains("Browser: Browse to a URL with… " + Self.shown) }, "\(argv)")
    }

    @Test func aCommandGetsItInItsVariable() {
        standIn("my-picker")
        let output = handle(sandbox.bin + "/my-picker", environment: [:])
        #expect(output.status == 5, "\(output.stderr)")
        #expect(sandbox.read("records/my-picker.link") == Self.shown)
        #expect(sandbox.read("records/my-picker.title") == "Browser: Browse to a URL with…")
    }

    /// `open` shows the link its action is given (`url`), whose markup and escapes
    /// reach no picker raw.
    @Test func openShowsTheLinkItIsGivenAndNothingRaw() throws {
        standIn("rofi")
        standIn("my-picker")
        let (socket, display) = ListeningSocket.x11Display()
        let value = "<span color='red'>\u{1B}]52;c;aGk=\u{7}\u{202E}x</span>"
        let shown = "<span color='red'>\\u{1B}]52;c;aGk=\\u{7}\\u{202E}x</span>"
        for picker in ["rofi", sandbox.bin + "/my-picker"] {
            let output = sandbox.choosy(
                ["open", "browser", "browse", "url=\(value)", "--choose", "--picker", picker], environment: ["DISPLAY": display])
            #expect(output.status == 5, "\(output.stderr)")
        }
        let argv = argv("rofi")
        #expect(!argv.isEmpty)
        expectNothingRaw(argv, "rofi")
        #expect(argv.firstIndex(of: "-mesg").map { argv[$0 + 1] } == DisplayText.pangoMarkup(shown), "\(argv)")
        #expect(sandbox.read("records/my-picker.link") == shown)
        socket.stop()
    }

    @Test(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
    func fzfShowsItOnItsHeadersSecondLine() throws {
        standIn("fzf")
        let terminal = try TmuxTerminal(choosy: ["handle", Self.link, "--choose", "--picker", "fzf"], sandbox: sandbox)
        #expect(terminal.result()?.status == 5)
        #expect(argv("fzf").contains("--header=Browser: Browse to a URL with…\n" + Self.shown), "\(argv("fzf"))")
    }

    @Test(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (apt-get install -y tmux)"))
    func theTTYPickerShowsItUnderTheTitle() throws {
        let terminal = try TmuxTerminal(choosy: ["handle", Self.link, "--choose", "--picker", "tty"], sandbox: sandbox)
        let screen = terminal.waitForScreen(containing: "Choice:")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let title = try #require(lines.firstIndex { $0.hasPrefix("Browser: Browse to a URL with") }, "\(screen)")
        #expect(lines[title + 1].hasPrefix("https://bücher.example [xn--bcher-kva.example]/kapitel/"), "\(screen)")
        try terminal.send("q", "Enter")
        #expect(terminal.result()?.status == 5)
    }
}
