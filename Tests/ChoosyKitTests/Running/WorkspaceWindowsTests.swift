import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// Where the running choices' windows are: tied to instances by pid and by the pid's
/// ancestors, read from the window system once, within one budget for every request.
@Suite struct WorkspaceWindowsTests {
    let sandbox = Sandbox()

    /// A Hyprland that answers from the fixtures: Firefox (4242) here, Chromium (5151) elsewhere.
    func hyprland(_ requests: ScriptedLog = ScriptedLog()) -> (HyprlandWindowSystem, ScriptedSocketServer) {
        let server = ScriptedSocketServer(path: sandbox.root + "/.socket.sock") { connection in
            guard let request = connection.readRequest() else { return }
            let text = String(decoding: request, as: UTF8.self)
            requests.append(text)
            switch text {
            case "j/activeworkspace": connection.write(WindowSystemReplyTests.fixture("hyprland/j-activeworkspace.json"))
            case "j/clients": connection.write(WindowSystemReplyTests.fixture("hyprland/j-clients.json"))
            default: connection.write(Array("ok".utf8))
            }
        }!
        return (HyprlandWindowSystem(socket: server.path, sockets: UnixLocalSockets()), server)
    }

    @Test func aWindowIsTheInstancesOfItsProcessOrOfAnAncestor() {
        // 4242's parent is the instance's 40 (a browser's helper owns the window); 5151 is 60's.
        let proc = ProcFixture(selfParent: 1)
        proc.process(4242, parent: 40, exe: "/usr/lib/firefox-esr/firefox-esr", arguments: ["firefox-esr", "-contentproc"])
        proc.process(40, parent: 1, exe: "/usr/lib/firefox-esr/firefox-esr", arguments: ["firefox-esr"])
        let requests = ScriptedLog()
        let diagnostics = RecordingDiagnostics()
        let (system, server) = hyprland(requests)
        defer { server.stop() }
        let windows = WorkspaceWindows(system: system, fileSystem: proc.fileSystem, diagnostics: diagnostics)
        let firefox = RunningChoices.Instance(app: "firefox", profile: nil, pids: [40])
        let chromium = RunningChoices.Instance(app: "chromium", profile: nil, pids: [5151])
        #expect(windows.windows(of: [firefox])?.here.map(\.id) == ["0x55d0c2f0a6e0"])
        #expect(windows.windows(of: [firefox])?.elsewhere == [])
        #expect(windows.windows(of: [chromium])?.here == [] && windows.windows(of: [chromium])?.elsewhere.map(\.id) == ["0x55d0c2f3b1a0"])
        #expect(windows.windows(of: [])?.here == [])
        #expect(requests.lines == ["j/activeworkspace", "j/clients"], "asked once")
        #expect(diagnostics.explanations == ["Hyprland: 3 window(s), 1 on the current workspace"])
        #expect(windows.focus(SessionWindow(id: "0x55d0c2f0a6e0", pid: 4242, onCurrentWorkspace: true)))
        #expect(requests.lines.last == "dispatch focuswindow address:0x55d0c2f0a6e0")
    }

    /// A compositor that does not answer costs the budget once: the focus asked later has
    /// nothing left and is not waited for.
    @Test func oneBudgetForEveryRequest() {
        let server = ScriptedSocketServer(path: sandbox.root + "/niri.sock") { $0.hold() }!
        let diagnostics = RecordingDiagnostics()
        let windows = WorkspaceWindows(
            system: NiriWindowSystem(socket: server.path, sockets: UnixLocalSockets()), fileSystem: LocalFileSystem(),
            diagnostics: diagnostics)
        let start = Date()
        #expect(windows.windows() == nil)
        #expect(windows.windows(of: []) == nil, "not asked again")
        #expect(!windows.focus(SessionWindow(id: "21", pid: 1, onCurrentWorkspace: true)))
        #expect(Date().timeIntervalSince(start) < 5, "a hang, not a slowdown, is what this catches")
        #expect(server.accepted == 1)
        #expect(
            diagnostics.explanations == [
                "niri is skipped: it did not answer in time: only running choices count",
                "niri did not focus window 21: it did not answer in time",
            ])
    }

    @Test func noWindowSystemIsOneLine() {
        let diagnostics = RecordingDiagnostics()
        let windows = WorkspaceWindows(system: nil, fileSystem: LocalFileSystem(), diagnostics: diagnostics)
        #expect(windows.windows() == nil && windows.windows() == nil)
        #expect(
            diagnostics.explanations == [
                "no window system choosy can ask (sway, i3, Hyprland, niri, KWin, X11): only running choices count"
            ])
    }

    @Test func theSessionsWindowSystemIsTheFirstItsVariablesName() {
        func named(_ variables: [String: String]) -> String? {
            let environment = Environment(variables)
            return SessionWindowSystem.find(
                in: environment, sockets: UnixLocalSockets(), x11: XCBServer(),
                bus: SDBusMessageBus(sessionOf: environment, fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem(), processID: 1
            )?.name
        }
        #expect(named(["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "I3SOCK": "/run/user/1000/sway-ipc.sock", "DISPLAY": ":0"]) == "sway")
        #expect(
            named(["HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-1"])
                == "Hyprland")
        #expect(
            named(["HYPRLAND_INSTANCE_SIGNATURE": "../x", "XDG_RUNTIME_DIR": "/run/user/1000"]) == nil, "a signature is one path component")
        #expect(named(["NIRI_SOCKET": "/run/user/1000/niri.sock"]) == "niri")
        #expect(named(["I3SOCK": "/tmp/i3-ada/ipc-socket.1", "DISPLAY": ":0"]) == "i3")
        #expect(named(["DISPLAY": ":0"]) == "the X11 window manager")
        #expect(named(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]) == nil, "under Wayland, X11 sees only Xwayland's windows")
        let plasma = ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":1"]
        #expect(named(plasma) == "KWin")
        #expect(named(plasma.merging(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) { $1 }) == nil)
        #expect(named(plasma.merging(["WAYLAND_DISPLAY": ""]) { $1 }.filter { !$0.value.isEmpty }) == "the X11 window manager")
        #expect(named(["SWAYSOCK": "relative.sock"]) == nil)
        #expect(named([:]) == nil)
    }
}
