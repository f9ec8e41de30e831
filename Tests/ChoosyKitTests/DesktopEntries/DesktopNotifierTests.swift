import ChoosyKit
import ChoosyTestSupport
import Testing

/// A notification repeats a line of stderr, which quotes links and names: notification servers
/// read its body as Pango markup, so it goes as text (doc/security.md, "What choosy prints").
@Suite struct DesktopNotifierTests {
    @Test func theBodyIsShownAsTextWithNothingRaw() {
        let sandbox = Sandbox()
        sandbox.recorder("notify-send")
        sandbox.overrides["DISPLAY"] = ":97"
        let notifier = DesktopNotifier(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        )
        notifier.notify("opened https://example.org/?a=1&b=<i>2</i>\u{1B}]52;c;aGk=\u{7}\u{202E}")
        #expect(
            sandbox.waitForRuns("notify-send").first?.last
                == "opened https://example.org/?a=1&amp;b=&lt;i&gt;2&lt;/i&gt;\\u{1B}]52;c;aGk=\\u{7}\\u{202E}")
    }
}
