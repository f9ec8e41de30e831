import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc

/// What the tests of what runs where (doc/running.md) do in a real session: start windows,
/// ask the window system what it shows, as a user's tools do.
extension HeadlessSway {
    /// sway's IPC socket in its runtime directory (`SWAYSOCK`).
    var ipcSocket: String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?.first {
            $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock")
        }).map { runtimeDirectory + "/" + $0 }
    }

    /// The session as a client sees it: the variables sway gives its clients.
    var clientEnvironment: [String: String] {
        environment.merging(["PATH": "/usr/bin:/bin", "SWAYSOCK": ipcSocket ?? ""]) { $1 }
    }

    /// `swaymsg ARGUMENTS` as the compositor's user: what it printed, or nil when it failed.
    @discardableResult
    func message(_ arguments: [String]) -> String? {
        let request = ProcessRequest(argv: Sandbox.asNobody + ["/usr/bin/swaymsg"] + arguments, environment: clientEnvironment, timeout: 20)
        guard let result = try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request), result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// The pid of the focused window's process, as sway's tree says.
    var focusedPid: Int? {
        guard let tree = message(["-r", "-t", "get_tree"]).flatMap({ Sandbox.jsonObject($0) }) else { return nil }
        func focused(_ node: [String: Any]) -> Int? {
            if node["focused"] as? Bool == true { return node["pid"] as? Int }
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(focused).first
        }
        return focused(tree)
    }

    /// Starts a `foot` window (a real Wayland client) as `user` (the compositor's, by default),
    /// by `argv` when given (a browser that opens one); its pid once sway shows a window of it,
    /// or of a process it started.
    func openWindow(
        _ argv: [String] = ["/usr/bin/foot", "-e", "sleep", "3600"], environment extra: [String: String] = [:],
        as user: [String] = Sandbox.asNobody
    ) -> pid_t? {
        let before = windowPids()
        // Its output is kept beside sway's log.
        let log = log + ".client-\(before.count)"
        guard let pid = startInBackground(user + argv, log: log, environment: clientEnvironment.merging(extra) { $1 }) else { return nil }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if windowPids().count > before.count { return pid }
            usleep(50_000)
        }
        return nil
    }

    /// The pids of every window.
    func windowPids() -> [Int] {
        guard let tree = message(["-r", "-t", "get_tree"]).flatMap({ Sandbox.jsonObject($0) }) else { return [] }
        func pids(_ node: [String: Any]) -> [Int] {
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return ((node["pid"] as? Int).map { [$0] } ?? []) + children.flatMap(pids)
        }
        return pids(tree)
    }
}

/// An X11 window manager (i3, openbox) on an Xvfb display, with real X clients (xterm).
final class X11Session: @unchecked Sendable {
    let xvfb: XvfbDisplay
    let directory: String
    private var pids: [pid_t] = []

    /// Starts Xvfb in `directory`, then `manager` on it, and waits until the manager has
    /// claimed the screen (`_NET_SUPPORTING_WM_CHECK` on the root window).
    init(directory: String, manager: [String], environment extra: [String: String] = [:]) throws {
        self.directory = directory
        xvfb = try XvfbDisplay(directory: directory)
        guard let manager = startInBackground(manager, log: directory + "/manager.log", environment: environment.merging(extra) { $1 })
        else { throw XvfbDisplay.StartFailure(description: "cannot start \(manager)") }
        pids.append(manager)
        let deadline = Date().addingTimeInterval(30)
        while xprop(["-root", "_NET_SUPPORTING_WM_CHECK"])?.contains("window id #") != true {
            guard Date() < deadline, isRunning(manager) else {
                stop()
                throw XvfbDisplay.StartFailure(description: "\(manager) did not manage the display")
            }
            usleep(50_000)
        }
    }

    var environment: [String: String] { ["DISPLAY": xvfb.display, "PATH": "/usr/bin:/bin", "HOME": directory] }

    /// `xprop ARGUMENTS` on this display.
    func xprop(_ arguments: [String]) -> String? {
        let request = ProcessRequest(argv: ["/usr/bin/xprop"] + arguments, environment: environment, timeout: 20)
        guard let result = try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request), result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// The windows the manager lists (`_NET_CLIENT_LIST`).
    func clients() -> [UInt32] {
        guard let line = xprop(["-root", "_NET_CLIENT_LIST"]), let hash = line.firstIndex(of: "#") else { return [] }
        return line[line.index(after: hash)...].split(separator: ",").compactMap {
            UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16)
        }
    }

    /// `_NET_ACTIVE_WINDOW`.
    var activeWindow: UInt32? {
        guard let line = xprop(["-root", "_NET_ACTIVE_WINDOW"]), let hash = line.firstIndex(of: "#") else { return nil }
        return UInt32(line[line.index(after: hash)...].trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16)
    }

    /// The active window once `done` holds for it (a window manager takes a focus request in
    /// its own time), or as it is after `seconds`.
    func activeWindow(within seconds: Double = 10, until done: (UInt32?) -> Bool) -> UInt32? {
        let deadline = Date().addingTimeInterval(seconds)
        var active = activeWindow
        while !done(active) && Date() < deadline {
            usleep(20_000)
            active = activeWindow
        }
        return active
    }

    /// Starts `argv` (an xterm when not given) and gives its pid once the manager lists one
    /// more window.
    func openWindow(_ argv: [String] = ["/usr/bin/xterm", "-e", "sleep", "3600"], environment extra: [String: String] = [:]) -> pid_t? {
        let before = clients().count
        guard let pid = startInBackground(argv, environment: environment.merging(extra) { $1 }) else { return nil }
        pids.append(pid)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if clients().count > before { return pid }
            usleep(50_000)
        }
        return nil
    }

    func stop() {
        for pid in pids.reversed() { endServer(pid) }
        pids = []
        xvfb.stop()
    }

    deinit {
        stop()
    }
}
