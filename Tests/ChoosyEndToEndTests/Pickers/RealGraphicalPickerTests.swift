import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// The real rofi and zenity (Debian's packages) on a real X server (Xvfb), driven with
/// xdotool as a user drives them: the real `choosy open` shows them, and the test checks what
/// it launched (the recorder apps' argv) and what it remembered (`choosy default`). Each test
/// has an X server of its own, so they run at once without taking each other's keyboard.
@Suite(.enabled(if: XvfbDisplay.unavailable == nil, "Xvfb cannot start here (apt-get install -y xvfb); the reason is on stderr"))
struct RealGraphicalPickerTests {
    static let url = "https://example.org/page"

    /// How to find each picker's window, and whether it must be given the keyboard: rofi
    /// grabs it, zenity (a GTK dialog) waits for a window manager that Xvfb does not have.
    enum GUIPicker: String, CaseIterable, CustomTestStringConvertible {
        case rofi, zenity

        var window: [String] {
            switch self {
            case .rofi: ["--class", "rofi"]
            case .zenity: ["--name", "Pick a browser"]
            }
        }

        var needsFocus: Bool { self == .zenity }
        var testDescription: String { rawValue }
    }

    /// Firefox and Chromium, no default: the picker offers Firefox, Firefox (always),
    /// Chromium, Chromium (always), in that order.
    private func browsers() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", extra: "Icon=firefox\n")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", extra: "Icon=chromium\n")
        return sandbox
    }

    private func defaultBrowser(_ sandbox: Sandbox) -> String {
        sandbox.choosy("default", "browser").stdout.trimmingCharacters(in: .newlines)
    }

    /// Runs `choosy open browser browse url=… --title 'Pick a browser' --json [options]` on
    /// `x`, waits for `picker`'s window and presses `keys` in it; returns choosy's output.
    private func open(_ sandbox: Sandbox, on x: XvfbDisplay, picker: GUIPicker, options: [String], keys: [String]) async -> Sandbox.Output {
        let arguments = ["open", "browser", "browse", "url=\(Self.url)", "--title", "Pick a browser", "--json"] + options
        async let opened = sandbox.run(arguments, environment: ["DISPLAY": x.display], timeout: 120)
        let window = await offPool { x.waitForWindow(picker.window) }
        #expect(window != nil, "no \(picker) window appeared")
        if let window {
            if picker.needsFocus { #expect(x.focus(window)) }
            #expect(x.xdotool(["key", "--delay", "30"] + keys)?.status == 0)
        } else {
            // Nothing will answer the picker: ending the display ends it, and choosy with it.
            x.stop()
        }
        return await opened
    }

    @Test(arguments: GUIPicker.allCases)
    func theSecondAppPickedAlwaysIsLaunchedAndRemembered(picker: GUIPicker) async throws {
        let sandbox = browsers()
        let x = try XvfbDisplay(directory: sandbox.root)
        // Home: the first row, whatever the toolkit highlights first; four rows down (past
        // Firefox's just once, always and always for the site) is "Chromium (always)".
        let output = await open(
            sandbox, on: x, picker: picker, options: ["--picker", picker.rawValue],
            keys: ["Home", "Down", "Down", "Down", "Down", "Return"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(Sandbox.jsonObject(output.stdout)?["app"] as? String == "chromium")
        #expect(sandbox.launched("chromium") == [[Self.url]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
        #expect(defaultBrowser(sandbox) == "chromium")
    }

    @Test(arguments: GUIPicker.allCases)
    func escapeCancelsAndKeepsTheDefault(picker: GUIPicker) async throws {
        let sandbox = browsers()
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        let x = try XvfbDisplay(directory: sandbox.root)
        let output = await open(sandbox, on: x, picker: picker, options: ["--picker", picker.rawValue, "--choose"], keys: ["Escape"])
        #expect(output.status == 5)
        #expect(output.stdout == "")
        #expect(output.stderrLines.contains("choosy: cancelled: no app was chosen"), "\(output.rawStderr)")
        #expect(sandbox.recordedRuns("firefox").isEmpty && sandbox.recordedRuns("chromium").isEmpty)
        #expect(defaultBrowser(sandbox) == "firefox")
    }

    /// A link clicked on the desktop: no terminal (the Sandbox runs choosy with `setsid`), a
    /// display, no picker named. `auto` shows rofi, the first graphical picker installed;
    /// the first row picks Firefox just once.
    @Test func autoShowsAGraphicalPickerWithADisplayAndNoTerminal() async throws {
        let sandbox = browsers()
        let x = try XvfbDisplay(directory: sandbox.root)
        let output = await open(sandbox, on: x, picker: .rofi, options: ["-v"], keys: ["Home", "Return"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(output.stderrLines.contains { $0.hasPrefix("choosy: showing the picker: ") }, "\(output.rawStderr)")
        #expect(sandbox.launched("firefox") == [[Self.url]])
        #expect(defaultBrowser(sandbox) == "")
    }
}
