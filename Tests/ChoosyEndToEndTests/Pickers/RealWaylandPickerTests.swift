import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The real Wayland pickers (Debian's fuzzel, wofi, bemenu and tofi) in a real Wayland compositor (headless
/// sway), driven with wtype as a user drives them: the real `choosy handle` shows them, and
/// the test checks what it launched (the recorder apps' argv). Each test has a compositor
/// of its own (see HeadlessSway).
@Suite(.enabled(if: HeadlessSway.unavailable == nil, "sway cannot start here (apt-get install -y sway wtype); the reason is on stderr"))
struct RealWaylandPickerTests {
    static let url = "https://example.org/"

    enum WaylandPicker: String, CaseIterable, CustomTestStringConvertible {
        case fuzzel, wofi, bemenu, tofi
        var testDescription: String { rawValue }
    }

    /// Firefox and Chromium, no default: the picker offers Firefox, Firefox (always),
    /// Firefox (always for the site), then Chromium's rows. Everything in it belongs to the
    /// user choosy runs as, who must be the compositor's.
    private func browsers() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", extra: "Icon=firefox\n")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", extra: "Icon=chromium\n")
        // GTK (wofi) finds image formats through the MIME database in XDG_DATA_DIRS, and
        // aborts without it; a desktop session has it.
        try? FileManager.default.createSymbolicLink(atPath: sandbox.dataDir + "/mime", withDestinationPath: "/usr/share/mime")
        if !Sandbox.asNobody.isEmpty {
            _ = sandbox.run(["/bin/chown", "-R", "65534:65534", sandbox.root])
        }
        return sandbox
    }

    /// Runs `choosy handle URL [options]` (as the compositor's user) with `sway`'s session,
    /// `desktop` as `XDG_CURRENT_DESKTOP` and no X display, in the C locale (choosy gives the
    /// pickers that need it UTF-8), waits until the picker has the keyboard and answers it.
    private func handle(
        _ sandbox: Sandbox, in sway: HeadlessSway, options: [String], desktop: String = "",
        answer: @Sendable (HeadlessSway) -> Bool
    ) async -> (output: Sandbox.Output, focused: Bool) {
        let binary = Sandbox.asNobody.isEmpty ? Sandbox.choosyBinary : sandbox.choosyBinaryForNobody()
        let session = sway.environment.merging(["DISPLAY": "", "XDG_CURRENT_DESKTOP": desktop]) { $1 }
        async let handled = offPool {
            sandbox.choosy(["handle", Self.url] + options, environment: session, timeout: 120, wrapper: Sandbox.asNobody, binary: binary)
        }
        let focused = await offPool { sway.waitForKeyboardFocus() }
        if focused {
            #expect(answer(sway))
        } else {
            // Nothing will answer the picker: ending the compositor ends it, and choosy with it.
            sway.stop()
        }
        return (await handled, focused)
    }

    /// `handle` in a fresh sandbox and compositor.
    private func handleInFreshSession(options: [String], keys: [String]) async throws -> (sandbox: Sandbox, output: Sandbox.Output) {
        let sandbox = browsers()
        let sway = try HeadlessSway(directory: sandbox.root)
        let (output, focused) = await handle(sandbox, in: sway, options: options) { $0.press(keys) }
        #expect(focused, "no picker took the keyboard")
        return (sandbox, output)
    }

    @Test(arguments: WaylandPicker.allCases)
    func theAppPickedIsLaunched(picker: WaylandPicker) async throws {
        let (sandbox, output) = try await handleInFreshSession(
            options: ["--picker", picker.rawValue], keys: ["Down", "Down", "Down", "Return"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(sandbox.launched("chromium") == [[Self.url]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test(arguments: WaylandPicker.allCases)
    func escapeCancels(picker: WaylandPicker) async throws {
        let (sandbox, output) = try await handleInFreshSession(options: ["--picker", picker.rawValue], keys: ["Escape"])
        #expect(output.status == 5, "\(output.rawStderr)")
        #expect(output.stderrLines.contains("choosy: cancelled: no app was chosen"), "\(output.rawStderr)")
        #expect(sandbox.recordedRuns("firefox").isEmpty && sandbox.recordedRuns("chromium").isEmpty)
    }

    /// A link clicked in a wlroots session: only WAYLAND_DISPLAY, no desktop named, no
    /// terminal. `auto` shows fuzzel, the first of doc/desktop.md's order for it; its first
    /// row is Firefox just once.
    @Test func autoShowsFuzzelOnAWaylandSession() async throws {
        let (sandbox, output) = try await handleInFreshSession(options: ["-v"], keys: ["Return"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(output.stderrLines.contains { $0.hasPrefix("choosy: starting fuzzel on WAYLAND_DISPLAY=") }, "\(output.rawStderr)")
        #expect(sandbox.launched("firefox") == [[Self.url]])
        #expect(sandbox.recordedRuns("chromium").isEmpty)
    }

    /// The same link on GNOME's Wayland session, where GNOME Shell shows no layer-shell
    /// menus: `auto` shows zenity first, on the Wayland display (there is no X display), and
    /// closing its window cancels. (Picking in zenity is tested under Xvfb: wtype's keys reach
    /// the Wayland pickers' layer surfaces but not GTK's dialog window in headless sway.)
    @Test func autoShowsZenityOnAGNOMEWaylandSessionAndClosingItCancels() async throws {
        let sandbox = browsers()
        let sway = try HeadlessSway(directory: sandbox.root)
        let (output, focused) = await handle(sandbox, in: sway, options: ["-v"], desktop: "GNOME") { $0.closeFocusedWindow() }
        #expect(focused, "no picker took the keyboard")
        #expect(output.stderrLines.contains("choosy: starting zenity on WAYLAND_DISPLAY=wayland-1"), "\(output.rawStderr)")
        #expect(!output.stderrLines.contains { $0.hasPrefix("choosy: starting fuzzel") }, "\(output.rawStderr)")
        #expect(output.status == 5, "\(output.rawStderr)")
        #expect(output.stderrLines.contains("choosy: cancelled: no app was chosen"), "\(output.rawStderr)")
        #expect(sandbox.recordedRuns("firefox").isEmpty && sandbox.recordedRuns("chromium").isEmpty)
    }
}
