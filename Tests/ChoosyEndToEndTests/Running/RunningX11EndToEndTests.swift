import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// SPEC §6.2 through the real `choosy handle` in X11 sessions (doc/running.md): i3 (its IPC,
/// with the windows' pids from X) and openbox (EWMH) under Xvfb, the browsers left running
/// recorder apps with an xterm window of their own. Firefox's Work profile has its window on
/// the first workspace, Chromium on the second, where the user is, and a plain xterm there
/// has the focus: `"running": "use"` picks Chromium, whose window gets the focus before it is
/// handed the link, as the window manager's `_NET_ACTIVE_WINDOW` then says.
@Suite(.enabled(if: XvfbDisplay.unavailable == nil, "Xvfb cannot start here; the reason is on stderr"))
struct RunningX11EndToEndTests {
    static let url = "https://example.org/page"

    enum Manager: String, CaseIterable, CustomTestStringConvertible {
        case i3, openbox
        var testDescription: String { rawValue }
    }

    @Test(arguments: Manager.allCases)
    func theOneWithAWindowHereIsUsedAndFocused(manager: Manager) throws {
        let sandbox = Sandbox()
        let (firefox, chromium) = sandbox.installTwoRunningBrowsers(config: #"{"running": "use"}"#)
        let socket = sandbox.root + "/i3.sock"
        let session =
            switch manager {
            case .i3:
                try X11Session(
                    directory: sandbox.root,
                    manager: ["/usr/bin/i3", "-c", sandbox.write("i3.conf", "# i3 config file (v4)\nipc-socket \(socket)\n")])
            case .openbox: try X11Session(directory: sandbox.root, manager: ["/usr/bin/openbox"])
            }
        let window = ["BROWSER_WINDOW": "/usr/bin/xterm"]
        _ = try #require(session.openWindow([sandbox.bin + "/" + firefox, "-P", "Work"], environment: window))
        let secondWorkspace =
            switch manager {
            case .i3: ["/usr/bin/i3-msg", "-s", socket, "workspace", "2"]
            case .openbox: ["/usr/bin/xdotool", "set_desktop", "1"]
            }
        let switched = ProcessRequest(argv: secondWorkspace, environment: session.environment, timeout: 20)
        #expect(try PosixProcessRunner(fileSystem: LocalFileSystem()).run(switched).status == 0)
        let browser = try #require(session.openWindow([sandbox.bin + "/" + chromium], environment: window))
        let other = try #require(session.openWindow())
        #expect(session.activeWindow { $0.flatMap(pid(of:)) == other }.flatMap(pid(of:)) == other)

        var environment = ["DISPLAY": session.xvfb.display, "WAYLAND_DISPLAY": ""]
        if manager == .i3 { environment["I3SOCK"] = socket }
        let output = sandbox.choosy(["handle", Self.url, "-v"], environment: environment)
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(sandbox.launched(chromium) == [[Self.url]])
        #expect(
            output.stderrLines.contains(
                "choosy: running: of the 2 candidates that run ('firefox@Work', 'chromium'), only 'chromium' has a window on this workspace"
            ),
            "\(output.rawStderr)")
        // The focused window is the browser's: its xterm, a child of the browser's process.
        let focused = try #require(
            session.activeWindow { $0.flatMap(pid(of:)).map { parent(of: $0) == browser } ?? false }.flatMap(pid(of:)))
        #expect(parent(of: focused) == browser, "window of \(focused), not of \(browser)")

        func pid(of window: UInt32) -> pid_t? {
            session.xprop(["-id", String(window), "_NET_WM_PID"])?.split(separator: "=").last.flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }

    /// The parent of a running process.
    func parent(of pid: pid_t) -> pid_t? {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").dropFirst()
            .first.flatMap { pid_t($0) }
    }
}
