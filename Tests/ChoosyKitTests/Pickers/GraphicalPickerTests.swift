import ChoosyKit
import Foundation
import Testing

/// What choosy hands rofi and zenity, byte for byte: a stand-in of the same name records argv
/// and stdin and answers like they do (the chosen row on stdout, exit 1 on cancel). The real
/// programs, driven on an X server, are in `RealGraphicalPickerTests`.
@Suite struct GraphicalPickerTests {
    let request = PickerRequest(title: "Open <this> & that", candidates: [
        PickerCandidate(appKey: "firefox", displayName: "Firefox", icon: "firefox", isDefault: true),
        PickerCandidate(appKey: "chromium", displayName: "Chromium", icon: "/opt/chromium/icon.png"),
        PickerCandidate(appKey: "web", displayName: "Web"),
    ])

    private func standIn(_ name: String, in sandbox: Sandbox, answer: String, status: Int = 0) -> String {
        sandbox.write(sandbox.bin + "/" + name, """
            #!/bin/sh
            for a in "$0" "$@"; do printf '%s\\0' "$a"; done > "\(sandbox.records)/argv"
            cat > "\(sandbox.records)/stdin"
            printf '\(answer)'
            exit \(status)

            """, mode: 0o755)
    }

    private func recorded(_ sandbox: Sandbox) -> (argv: [String], stdin: String) {
        let argv = (sandbox.read("records/argv") ?? "").split(separator: "\0").map(String.init)
        return (argv, sandbox.read("records/stdin") ?? "")
    }

    @Test func rofiGetsDmenuRowsWithIconsAndItsRowMapsBack() throws {
        let sandbox = Sandbox()
        let rofi = standIn("rofi", in: sandbox, answer: "Chromium (always)\\n")
        let answer = try RofiPicker(executable: rofi, environment: sandbox.choosyEnvironment).choose(request)
        #expect(answer == .always(1))
        let (argv, stdin) = recorded(sandbox)
        #expect(argv == [rofi, "-dmenu", "-p", "Open <this> & that", "-i", "-no-custom", "-show-icons"])
        #expect(stdin == """
            Firefox\0icon\u{1F}firefox
            Firefox (always)\0icon\u{1F}firefox
            Chromium\0icon\u{1F}/opt/chromium/icon.png
            Chromium (always)\0icon\u{1F}/opt/chromium/icon.png
            Web
            Web (always)

            """)
    }

    @Test func rofiCancelledIsACancel() throws {
        let sandbox = Sandbox()
        let rofi = standIn("rofi", in: sandbox, answer: "", status: 1)
        #expect(try RofiPicker(executable: rofi, environment: sandbox.choosyEnvironment).choose(request) == .cancelled)
    }

    @Test func zenityGetsAOneColumnListWithTheTitleAsPlainText() throws {
        let sandbox = Sandbox()
        let zenity = standIn("zenity", in: sandbox, answer: "Web\\n")
        var once = request
        once.allowAlways = false
        let answer = try ZenityPicker(executable: zenity, environment: sandbox.choosyEnvironment).choose(once)
        #expect(answer == .justOnce(2))
        let (argv, stdin) = recorded(sandbox)
        #expect(argv == [
            zenity, "--list", "--title=Open <this> & that", "--text=Open &lt;this&gt; &amp; that",
            "--column=App", "--hide-header",
        ])
        #expect(stdin == "Firefox\nChromium\nWeb\n")
    }

    @Test func zenityCancelledIsACancel() throws {
        let sandbox = Sandbox()
        let zenity = standIn("zenity", in: sandbox, answer: "", status: 1)
        #expect(try ZenityPicker(executable: zenity, environment: sandbox.choosyEnvironment).choose(request) == .cancelled)
    }
}
