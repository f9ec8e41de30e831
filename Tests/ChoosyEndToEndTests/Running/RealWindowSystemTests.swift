import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The readers of the window systems against the real ones (doc/running.md): a headless sway
/// with foot windows, i3 and openbox under Xvfb with xterm windows, on two workspaces. What
/// the reader says is compared with what the window system's own tools say, and the focus it
/// gives is read back from the window system.
@Suite struct RealWindowSystemTests {
    let sandbox = Sandbox()

    init() {
        // sway runs as nobody, who must reach its directory.
        chmod(sandbox.root, 0o755)
    }

    @Test(.enabled(if: HeadlessSway.unavailable == nil, "sway cannot start here (apt-get install -y sway foot); the reason is on stderr"))
    func swayGivesItsWindowsAndFocusesOneOnTheCurrentWorkspace() throws {
        let sway = try HeadlessSway(directory: sandbox.root)
        let elsewhere = try #require(sway.openWindow())
        #expect(sway.message(["workspace", "2"]) != nil)
        let first = try #require(sway.openWindow())
        let second = try #require(sway.openWindow())
        #expect(sway.focusedPid == Int(second))
        let system = I3WindowSystem(name: "sway", socket: try #require(sway.ipcSocket), sockets: UnixLocalSockets(), pids: nil)
        let windows = try system.windows(before: .after(10))
        #expect(windows.map(\.pid) == [elsewhere, first, second])
        #expect(windows.map(\.onCurrentWorkspace) == [false, true, true])
        try system.focus(windows[1], before: .after(10))
        #expect(sway.focusedPid == Int(first))
    }

    @Test(.enabled(if: XvfbDisplay.unavailable == nil, "Xvfb cannot start here; the reason is on stderr"))
    func i3GivesItsWindowsWithTheirPidsFromXAndFocusesOne() throws {
        let config = sandbox.write("i3.conf", "# i3 config file (v4)\nipc-socket \(sandbox.root)/i3.sock\n")
        let session = try X11Session(directory: sandbox.root, manager: ["/usr/bin/i3", "-c", config])
        let elsewhere = try #require(session.openWindow())
        #expect(i3Message(["workspace", "2"]) != nil)
        let first = try #require(session.openWindow())
        let second = try #require(session.openWindow())
        let system = I3WindowSystem(
            name: "i3", socket: sandbox.root + "/i3.sock", sockets: UnixLocalSockets(),
            pids: EWMHWindowSystem(display: session.xvfb.display, server: XCBServer()))
        let windows = try system.windows(before: .after(10))
        #expect(windows.map(\.pid) == [elsewhere, first, second])
        #expect(windows.map(\.onCurrentWorkspace) == [false, true, true])
        let active = session.activeWindow
        try system.focus(windows[1], before: .after(10))
        let focused = session.activeWindow { $0 != nil && $0 != active }
        #expect(focused != nil && focused != active)
        #expect(session.xprop(["-id", String(focused ?? 0), "_NET_WM_PID"])?.hasSuffix("= \(first)\n") == true)

        func i3Message(_ arguments: [String]) -> String? {
            let request = ProcessRequest(
                argv: ["/usr/bin/i3-msg", "-s", sandbox.root + "/i3.sock"] + arguments, environment: session.environment, timeout: 20)
            return (try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)).flatMap {
                $0.status == 0 ? String(decoding: $0.stdout, as: UTF8.self) : nil
            }
        }
    }

    @Test(.enabled(if: XvfbDisplay.unavailable == nil, "Xvfb cannot start here; the reason is on stderr"))
    func anEWMHWindowManagerGivesItsWindowsAndFocusesOne() throws {
        let session = try X11Session(directory: sandbox.root, manager: ["/usr/bin/openbox"])
        let elsewhere = try #require(session.openWindow())
        // The second desktop, as a pager switches to it.
        let switched = ProcessRequest(argv: ["/usr/bin/xdotool", "set_desktop", "1"], environment: session.environment, timeout: 20)
        #expect(try PosixProcessRunner(fileSystem: LocalFileSystem()).run(switched).status == 0)
        let first = try #require(session.openWindow())
        let second = try #require(session.openWindow())
        let system = EWMHWindowSystem(display: session.xvfb.display, server: XCBServer())
        let windows = try system.windows(before: .after(10))
        #expect(windows.map(\.pid) == [elsewhere, first, second])
        #expect(windows.map(\.onCurrentWorkspace) == [false, true, true])
        try system.focus(windows[1], before: .after(10))
        #expect(session.activeWindow { $0.map(String.init) == windows[1].id }.map(String.init) == windows[1].id)
        try system.focus(windows[2], before: .after(10))
        #expect(session.activeWindow { $0.map(String.init) == windows[2].id }.map(String.init) == windows[2].id)
    }
}
