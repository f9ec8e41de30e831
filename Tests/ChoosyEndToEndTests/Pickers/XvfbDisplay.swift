import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc

/// A real X server for tests of the graphical pickers: Xvfb on a display number it picks
/// itself (`-displayfd`), so that tests running at once, and anyone else's servers, never
/// collide. xdotool finds windows on it and types like a user. Stopped when released.
final class XvfbDisplay: @unchecked Sendable {
    /// `:N`, for DISPLAY.
    let display: String
    private let pid: pid_t

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts Xvfb, its log and display number in files under `directory`; waits (at most
    /// 30 s: a loaded machine is slow) until it accepts clients.
    init(directory: String) throws {
        let number = directory + "/xvfb-display"
        let log = directory + "/xvfb.log"
        // Started by choosy's runner, which gives children an empty signal mask: test threads
        // block most signals, and a server started from one (as Foundation's Process does)
        // would never see the SIGTERM that stops it. Xvfb writes the number of the display it
        // chose to fd 3 once it is ready; -noreset: no reset between one client and the next.
        let started = try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: [
                    "/bin/sh", "-c",
                    #"Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$0" 2>"$1" </dev/null >/dev/null & echo $!"#,
                    number, log,
                ],
                environment: ["PATH": "/usr/bin:/bin"], timeout: 10
            ))
        guard let started, started.status == 0,
            let pid = pid_t(String(decoding: started.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw StartFailure(description: "cannot run Xvfb") }
        self.pid = pid
        let deadline = Date().addingTimeInterval(30)
        var written = ""
        while !written.hasSuffix("\n") {
            guard isRunning(pid), Date() < deadline else {
                endServer(pid)
                let reason = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").last.map(String.init)
                throw StartFailure(description: "Xvfb did not start: \(reason ?? "it printed nothing")")
            }
            usleep(20_000)
            written = (try? String(contentsOfFile: number, encoding: .utf8)) ?? ""
        }
        display = ":" + written.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        stop()
    }

    /// Ends the server, and with it every window on it (a picker that waits there exits).
    func stop() {
        endServer(pid)
    }

    /// nil when Xvfb can start here, else why not: tried once per test run.
    static let unavailable: String? = serverProbe("xvfb", skipped: "GUI picker tests") { _ = try XvfbDisplay(directory: $0) }

    // MARK: xdotool

    /// Runs xdotool against this display, for at most `timeout` seconds.
    @discardableResult
    func xdotool(_ arguments: [String], timeout: Double = 20) -> ProcessResult? {
        let request = ProcessRequest(
            argv: ["/usr/bin/xdotool"] + arguments, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"],
            timeout: timeout
        )
        return try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)
    }

    /// Waits until a visible window matches (`["--class", "rofi"]`, `["--name", title]`) and
    /// returns its id, or nil after `timeout` seconds (long: a loaded test run can be slow to start choosy).
    func waitForWindow(_ match: [String], timeout: Double = 60) -> String? {
        guard let result = xdotool(["search", "--sync", "--onlyvisible"] + match, timeout: timeout),
            result.status == 0, !result.timedOut
        else { return nil }
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// Gives `window` the keyboard: with no window manager nothing else does.
    func focus(_ window: String) -> Bool {
        xdotool(["windowfocus", "--sync", window])?.status == 0
    }

    /// Presses keys (X keysym names: `Down`, `Return`, `Escape`) as a user would, through
    /// the XTEST extension, to whichever window has the keyboard.
    func press(_ keys: String...) -> Bool {
        xdotool(["key", "--delay", "30"] + keys)?.status == 0
    }
}
