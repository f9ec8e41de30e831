import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Launching as real desktops need it: file-taking apps get local paths, apps that take only
/// files refuse remote URLs, and a graphical app with no display is not started in silence.
@Suite struct RealDesktopLaunchTests {
    let sandbox = Sandbox()

    /// VS Code's real entry (`code.desktop` of the Debian package): `Exec=… %F`.
    private func installVSCode() {
        sandbox.recorder("code")
        sandbox.desktopEntry("code.desktop", sandbox.application(name: "Visual Studio Code", exec: "code --unity-launch %F"))
    }

    @Test func anAbsolutePathReachesAnEntryThatTakesFiles() {
        installVSCode()
        let opened = sandbox.choosy("open", "editor", "open_file", "path=/home/me/notes file.txt", "line=3")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(sandbox.launched("code") == [["--unity-launch", "/home/me/notes file.txt"]])
        // A file: URL gives the same path, decoded.
        let url = sandbox.choosy("open", "editor", "open_file", "--app", "vscode", "path=file:///home/me/a%20b.txt", "--dry-run")
        #expect(url.stdout.contains("'/home/me/a b.txt'"), "\(url.stdout)")
    }

    @Test func aRemoteURLForAnEntryThatOnlyTakesFilesIsExit6() {
        installVSCode()
        let refused = sandbox.choosy("open", "editor", "open_file", "path=https://example.org/a.txt")
        #expect(refused.status == 6)
        #expect(
            refused.stderrLines == [
                "choosy: cannot launch code.desktop: it opens only local files, and 'https://example.org/a.txt' is not one"
            ])
        #expect(sandbox.recordedRuns("code").isEmpty)
    }

    @Test func aGraphicalAppWithNoDisplayGetsAWarningButStarts() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        let opened = sandbox.choosy("open", "browser", "browse", "url=https://example.org/")
        #expect(opened.status == 0)
        #expect(
            opened.rawStderr
                == "choosy: warning: started firefox.desktop, a graphical app, but neither DISPLAY nor WAYLAND_DISPLAY is set: it may not be able to show itself\n"
        )
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])

        // With a display there is nothing to say.
        let shown = sandbox.choosy(
            ["open", "browser", "browse", "url=https://example.org/2"], environment: ["WAYLAND_DISPLAY": "wayland-1"])
        #expect(shown.status == 0 && shown.rawStderr.isEmpty, "\(shown.rawStderr)")
    }
}
