import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// KDE Plasma's KWin through the real `choosy handle` (doc/running.md, "KDE Plasma"): a real
/// session bus with a service that answers as KWin's scripting does
/// (Tests/Fixtures/dbus/kwin_service.py), running the script choosy loads in Node.js against a
/// window table and making the script's `callDBus` on the bus; the browsers left running are
/// recorder apps whose pids the table gives the windows.
@Suite(.enabled(if: access("/usr/bin/node", X_OK) == 0, "make test installs nodejs, which runs the KWin scripts"))
struct KWinEndToEndTests {
    static let url = "https://example.org/page"

    final class Plasma: @unchecked Sendable {
        let sandbox = Sandbox()
        let daemon: SessionBusDaemon
        let firefox: String
        let chromium: String
        var record: String { sandbox.root + "/kwin-record.jsonl" }
        var table: String { sandbox.root + "/kwin-windows.json" }
        private var started: [pid_t] = []

        init(config: String) throws {
            (firefox, chromium) = sandbox.installTwoRunningBrowsers(config: config)
            sandbox.write(sandbox.bin + "/stay", "#!/bin/sh\nshift\nexec \"$@\"\n", mode: 0o755)
            daemon = try SessionBusDaemon(in: sandbox)
        }

        deinit {
            // The browser and the child it waits on.
            for pid in started {
                _ = sandbox.run(["/usr/bin/pkill", "-KILL", "-P", String(pid)])
                kill(pid, SIGKILL)
            }
        }

        /// Starts `program ARGUMENTS` left running (it waits on a child, as a browser on its windows).
        func startBrowser(_ program: String, _ arguments: [String] = []) throws -> Int32 {
            let pid = try #require(
                startInBackground(
                    [sandbox.bin + "/" + program] + arguments,
                    environment: sandbox.environment.merging(["BROWSER_WINDOW": sandbox.bin + "/stay"]) { $1 }))
            started.append(pid)
            return pid
        }

        /// The fake KWin, its windows `windows` (pid, internal ID, desktops), `current` the desktop shown.
        func startKWin(current: String, _ windows: [(pid: Int32, id: String, desktops: [String])], arguments: [String] = []) throws {
            let listed = windows.map { ["pid": Int($0.pid), "internalId": $0.id, "desktops": $0.desktops] as [String: Any] }
            let data = try JSONSerialization.data(withJSONObject: ["current": current, "windows": listed])
            sandbox.write(table, String(decoding: data, as: UTF8.self))
            try daemon.run("kwin_service.py", [table, record] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        }

        /// `choosy ARGUMENTS` in a Plasma Wayland session on that bus.
        func choosy(_ arguments: [String], environment: [String: String] = [:]) -> Sandbox.Output {
            sandbox.choosy(
                arguments,
                environment: [
                    "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "6", "DISPLAY": "",
                    "DBUS_SESSION_BUS_ADDRESS": daemon.address, "XDG_RUNTIME_DIR": sandbox.root + "/run",
                ].merging(environment) { $1 })
        }

        /// What the fake KWin did, in order.
        var recorded: [[String: Any]] {
            (sandbox.read(record) ?? "").split(separator: "\n").compactMap { Sandbox.jsonObject(String($0)) }
        }
    }

    static let firefoxWindow = "{6f1c9d4e-0b7a-4c1e-9a55-2d3b8e7f0a11}"
    static let chromiumWindow = "{0a2b3c4d-5e6f-4789-8abc-def012345678}"

    /// Firefox's Work profile has its window on desktop 1, Chromium on desktop 2, the one shown.
    @Test(arguments: ["6", "5"])
    func ofSeveralThatRunTheOneWithAWindowHereAndItGetsTheFocus(plasma: String) throws {
        let desktop = try Plasma(config: #"{"running": "use"}"#)
        let firefox = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let chromium = try desktop.startBrowser(desktop.chromium)
        let (one, two) = plasma == "5" ? ("1", "2") : ("c2b6f0a0-1111-4a4a-8b8b-000000000001", "c2b6f0a0-1111-4a4a-8b8b-000000000002")
        try desktop.startKWin(
            current: two, [(firefox, Self.firefoxWindow, [one]), (chromium, Self.chromiumWindow, [two])], arguments: ["--plasma", plasma])
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.sandbox.launched(desktop.chromium) == [[Self.url]])
        #expect(
            output.stderrLines.contains(
                "choosy: running: of the 2 candidates that run ('firefox@Work', 'chromium'), only 'chromium' has a window on this workspace"
            ),
            "\(output.rawStderr)")
        let steps = desktop.recorded
        // Two scripts, each loaded, run and unloaded; the second focused Chromium's window.
        #expect(steps.compactMap { $0["plugin"] as? String }.count == 2, "\(steps)")
        #expect(steps.compactMap { $0["unloaded"] as? String }.count == 2, "\(steps)")
        #expect(steps.compactMap { $0["focused"] as? String } == [Self.chromiumWindow], "\(steps)")
        for path in steps.compactMap({ $0["loaded"] as? String }) {
            #expect(path.hasPrefix(desktop.sandbox.root + "/run/choosy-kwin-") && !desktop.sandbox.exists(path), "\(path)")
        }
    }

    @Test func aWindowOnAllDesktopsIsHere() throws {
        let desktop = try Plasma(config: #"{"running": "use"}"#)
        let firefox = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let chromium = try desktop.startBrowser(desktop.chromium)
        try desktop.startKWin(
            current: "2", [(firefox, Self.firefoxWindow, ["1"]), (chromium, Self.chromiumWindow, ["3"])], arguments: ["--plasma", "5"])
        // Neither is here: the usual decision, the picker (which cancels).
        #expect(desktop.choosy(["handle", Self.url]).status == 5)
        #expect(desktop.sandbox.pickerInvocations.count == 1)
    }

    /// KWin that runs the script and never calls back, or calls back with what is no JSON: the
    /// usual decision within the bound, and one line under -v.
    @Test(arguments: ["silent", "garbage", "slow"])
    func aKWinThatDoesNotAnswerIsSkipped(mode: String) throws {
        let desktop = try Plasma(config: #"{"running": "use"}"#)
        let firefox = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let chromium = try desktop.startBrowser(desktop.chromium)
        try desktop.startKWin(
            current: "2", [(firefox, Self.firefoxWindow, ["1"]), (chromium, Self.chromiumWindow, ["2"])], arguments: ["--mode", mode])
        let started = Date()
        let output = desktop.choosy(["handle", Self.url, "-v"])
        let took = Date().timeIntervalSince(started)
        #expect(output.status == 5, "both run, no window is known: the picker asks (and cancels): \(output.rawStderr)")
        let skipped = output.stderrLines.filter { $0.hasPrefix("choosy: KWin ") }
        #expect(skipped.count == 1, "\(output.rawStderr)")
        #expect(took < 3, "took \(took) s")
        #expect(desktop.recorded.compactMap { $0["unloaded"] as? String }.count == 1, "the script is unloaded all the same")
    }
}
