import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc

/// A real Wayland compositor for tests of the Wayland pickers: sway with its headless
/// backend, in a runtime directory of its own, and a virtual keyboard held open from the start
/// (wtype) so that the seat has a keyboard when a picker asks for one, as a desktop's has. Debian's sway will
/// not run as root: as root it runs as nobody, and so must every client (the picker, wtype,
/// hence choosy). `WAYLAND_DEBUG=server` logs each keyboard focus, so a test types only once
/// the picker has it. One compositor per test: a second picker in one sway session was
/// found to crash. Stopped when released.
final class HeadlessSway: @unchecked Sendable {
    let runtimeDirectory: String
    let display = "wayland-1"
    let log: String
    private let pid: pid_t
    private var keyboard: pid_t = 0

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a client needs to reach this compositor.
    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": display] }

    /// Starts sway with its config, log and runtime directory under `directory` (which the
    /// user sway runs as must be able to enter); waits (at most 30 s) for its socket.
    init(directory: String) throws {
        runtimeDirectory = directory + "/sway-run"
        log = directory + "/sway.log"
        let config = directory + "/sway.conf"
        try? FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true)
        chmod(runtimeDirectory, 0o700)
        if !Sandbox.asNobody.isEmpty { chown(runtimeDirectory, 65534, 65534) }
        try Data("output HEADLESS-1 resolution 1280x800\n".utf8).write(to: URL(fileURLWithPath: config))
        chmod(config, 0o644)
        var variables = [
            "PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": runtimeDirectory,
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            "WAYLAND_DEBUG": "server",
        ]
        guard
            let pid = startInBackground(Sandbox.asNobody + ["/usr/bin/sway", "-c", config], log: log, environment: variables)
        else { throw StartFailure(description: "cannot run sway") }
        self.pid = pid
        let deadline = Date().addingTimeInterval(30)
        while access(runtimeDirectory + "/" + display, F_OK) != 0 {
            guard isRunning(pid), Date() < deadline else {
                endServer(pid)
                let reason = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").last(where: {
                    $0.contains("[ERROR]")
                })
                throw StartFailure(description: "sway did not start: \(reason.map(String.init) ?? "it printed nothing")")
            }
            usleep(20_000)
        }
        variables["WAYLAND_DISPLAY"] = display
        variables["WAYLAND_DEBUG"] = nil
        guard
            let keyboard = startInBackground(
                Sandbox.asNobody + ["/usr/bin/wtype", "-s", "3600000"], log: "/dev/null", environment: variables)
        else {
            endServer(pid)
            throw StartFailure(description: "cannot run wtype")
        }
        self.keyboard = keyboard
        // The seat has a keyboard once the virtual one has its keymap: a picker that starts
        // before that finds a seat without one, and bemenu 0.6 then dies by SIGSEGV.
        while !logHolds(#"zwp_virtual_keyboard_v1@[0-9]+\.keymap\("#) {
            guard isRunning(pid), isRunning(keyboard), Date() < deadline else {
                stop()
                throw StartFailure(description: "the virtual keyboard did not reach sway")
            }
            usleep(20_000)
        }
    }

    private func logHolds(_ pattern: String) -> Bool {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").range(of: pattern, options: .regularExpression) != nil
    }

    deinit {
        stop()
    }

    /// Ends the compositor, and with it every client (a picker that waits there exits).
    func stop() {
        if keyboard != 0 { endServer(keyboard) }
        endServer(pid)
    }

    /// nil when sway can start here, else why not: tried once per test run.
    static let unavailable: String? = serverProbe("sway", skipped: "Wayland picker tests") { _ = try HeadlessSway(directory: $0) }

    /// Waits until a surface (the picker's) has the keyboard, or `timeout` seconds pass.
    func waitForKeyboardFocus(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if logHolds(#"wl_keyboard@[0-9]+\.enter\("#) { return true }
            guard isRunning(pid) else { return false }
            usleep(50_000)
        }
        return false
    }

    /// Closes the focused window as a user does with the window manager (sway's `kill`,
    /// through its IPC socket in the runtime directory).
    func closeFocusedWindow() -> Bool {
        let socket = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?.first {
            $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock")
        }
        guard let socket else { return false }
        let variables = ["PATH": "/usr/bin:/bin", "SWAYSOCK": runtimeDirectory + "/" + socket]
        let request = ProcessRequest(argv: Sandbox.asNobody + ["/usr/bin/swaymsg", "kill"], environment: variables, timeout: 20)
        return (try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request))?.status == 0
    }

    /// Presses keys (XKB keysym names: `Down`, `Return`, `Escape`) as a user would, through
    /// a virtual keyboard, to whichever surface has the keyboard.
    func press(_ keys: [String]) -> Bool {
        let argv = Sandbox.asNobody + ["/usr/bin/wtype"] + keys.flatMap { ["-k", $0, "-s", "30"] }
        let request = ProcessRequest(argv: argv, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }, timeout: 20)
        return (try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request))?.status == 0
    }
}
