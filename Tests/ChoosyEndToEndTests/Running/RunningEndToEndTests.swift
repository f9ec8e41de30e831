import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// Each rule of SPEC §6.2 (doc/running.md) through the real `choosy handle`, in a headless
/// sway with two workspaces: the browsers left running are recorder apps with a foot window
/// of their own, run as the compositor's user, and choosy runs as that user too. The picker
/// is the recording `CMD` picker; the focus is read back from sway's tree.
@Suite(.enabled(if: HeadlessSway.unavailable == nil, "sway cannot start here (apt-get install -y sway foot); the reason is on stderr"))
struct RunningEndToEndTests {
    static let url = "https://example.org/page"

    /// Firefox with two profiles (Work, Personal) and Chromium, their programs this test's own,
    /// a picker that records what it shows, `config` as config.json; all the compositor user's.
    final class Desktop: @unchecked Sendable {
        let sandbox = Sandbox()
        let firefox: String
        let chromium: String
        let sway: HeadlessSway
        private let binary: String
        private var started: [pid_t] = []

        init(config: String) throws {
            (firefox, chromium) = sandbox.installTwoRunningBrowsers(config: config)
            binary = Sandbox.asNobody.isEmpty ? Sandbox.choosyBinary : sandbox.choosyBinaryForNobody()
            if !Sandbox.asNobody.isEmpty { _ = sandbox.run(["/bin/chown", "-R", "65534:65534", sandbox.root]) }
            chmod(sandbox.root, 0o755)
            sway = try HeadlessSway(directory: sandbox.root)
        }

        deinit {
            for pid in started { kill(pid, SIGKILL) }
            sway.stop()
        }

        /// Starts `program ARGUMENTS` left running with a foot window (as `user`, by default the
        /// compositor's) on the current workspace; the window's process is its child.
        func startBrowser(_ program: String, _ arguments: [String] = [], as user: [String] = Sandbox.asNobody) throws -> pid_t {
            let pid = try #require(
                sway.openWindow([sandbox.bin + "/" + program] + arguments, environment: ["BROWSER_WINDOW": "/usr/bin/foot"], as: user))
            started.append(pid)
            return pid
        }

        /// `swaymsg workspace NAME`.
        func workspace(_ name: String) {
            #expect(sway.message(["workspace", name]) != nil)
        }

        /// `choosy ARGUMENTS` as the compositor's user, in its session (the sandbox's `PATH`).
        func choosy(_ arguments: [String], environment: [String: String] = [:]) -> Sandbox.Output {
            sandbox.choosy(
                arguments,
                environment: sway.environment.merging(["SWAYSOCK": sway.ipcSocket ?? "", "DISPLAY": ""]) { $1 }.merging(environment) { $1 },
                timeout: 60,
                wrapper: Sandbox.asNobody, binary: binary)
        }

        /// The runs choosy started of `program`, argv without argv[0].
        func launched(_ program: String, count: Int = 1) -> [[String]] {
            sandbox.launched(program, count: count)
        }

        var pickerLines: [[String]] { sandbox.pickerInvocations.map(\.lines) }
    }

    static func lines(_ names: String...) -> [String] {
        names.flatMap { [$0, $0 + " (always)", $0 + " (always for example.org)"] }
    }

    @Test func pickersMarkTheChoicesThatRun() throws {
        let desktop = try Desktop(config: #"{"running": "mark"}"#)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Personal"])
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 5, "the picker cancelled: \(output.rawStderr)")
        #expect(desktop.pickerLines == [Self.lines("Firefox — Work", "Firefox — Personal (running)", "Chromium")])
    }

    @Test func runningFirstListsThemFirst() throws {
        let desktop = try Desktop(config: #"{"running": "first"}"#)
        _ = try desktop.startBrowser(desktop.chromium)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Personal"])
        #expect(desktop.choosy(["handle", Self.url]).status == 5)
        #expect(desktop.pickerLines == [Self.lines("Firefox — Personal (running)", "Chromium (running)", "Firefox — Work")])
    }

    @Test func theOneChoiceThatRunsIsUsedWithoutAsking() throws {
        let desktop = try Desktop(config: #"{"running": "use"}"#)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.launched(desktop.firefox) == [["-P", "Work", Self.url]])
        #expect(desktop.pickerLines == [])
        #expect(output.stderrLines.contains("choosy: running: 'firefox@Work' is the only candidate that runs"), "\(output.rawStderr)")
        let why = desktop.choosy(["why", Self.url])
        #expect(why.stdout.contains("decided by: running: 'firefox@Work' is the only candidate that runs\n"), "\(why.stdout)")
        #expect(why.stdout.contains("profile Work; supports browse; running\n"), "\(why.stdout)")
    }

    /// Firefox's Work profile has its window on workspace 1, Chromium on workspace 2, where the
    /// user is: Chromium's is the one window here.
    @Test func ofSeveralThatRunTheOneWithAWindowHere() throws {
        let desktop = try Desktop(config: #"{"running": "use"}"#)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        desktop.workspace("2")
        _ = try desktop.startBrowser(desktop.chromium)
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.launched(desktop.chromium) == [[Self.url]])
        #expect(
            output.stderrLines.contains(
                "choosy: running: of the 2 candidates that run ('firefox@Work', 'chromium'), only 'chromium' has a window on this workspace"
            ),
            "\(output.rawStderr)")
        // Both with a window here: the usual decision, the picker.
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Personal"])
        #expect(desktop.choosy(["handle", Self.url]).status == 5)
        #expect(desktop.pickerLines.count == 1)
    }

    @Test func withNoneRunningThePickerAsks() throws {
        let desktop = try Desktop(config: #"{"running": "use"}"#)
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 5)
        #expect(output.stderrLines.contains("choosy: running: no candidate runs"), "\(output.rawStderr)")
        #expect(desktop.pickerLines == [Self.lines("Firefox — Work", "Firefox — Personal", "Chromium")])
    }

    @Test func aDefaultStillWins() throws {
        let desktop = try Desktop(config: #"{"running": "use"}"#)
        #expect(desktop.choosy(["default", "browser", "chromium"]).status == 0)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let output = desktop.choosy(["handle", Self.url])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.launched(desktop.chromium) == [[Self.url]])
        #expect(desktop.sandbox.recordedRuns(desktop.firefox).isEmpty)
    }

    /// Another user's Firefox (root's, beside the compositor user's choosy) is none of the
    /// user's choices.
    @Test(.enabled(if: !Sandbox.asNobody.isEmpty, "needs root, to run a browser as another user"))
    func anotherUsersBrowserDoesNotCount() throws {
        let desktop = try Desktop(config: #"{"running": "use"}"#)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"], as: [])
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 5, "\(output.rawStderr)")
        #expect(output.stderrLines.contains("choosy: running: no candidate runs"), "\(output.rawStderr)")
    }

    /// The browser's window on this workspace gets the focus before it is handed the link; a
    /// dry run only says so.
    @Test func theBrowsersWindowHereGetsTheFocusFirst() throws {
        let desktop = try Desktop(config: #"{"running": "mark"}"#)
        desktop.workspace("2")
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        let browserWindow = try #require(desktop.sway.focusedPid)
        // Another window, focused now, on the same workspace.
        let other = try #require(desktop.sway.openWindow())
        #expect(desktop.sway.focusedPid == Int(other))
        let dryRun = desktop.choosy(["handle", Self.url, "--app", "firefox@Work", "--dry-run", "-v"])
        #expect(dryRun.status == 0, "\(dryRun.rawStderr)")
        #expect(dryRun.stderr.contains("has a window on this workspace: it gets the focus first"), "\(dryRun.rawStderr)")
        #expect(desktop.sway.focusedPid == Int(other), "a dry run focuses nothing")
        let output = desktop.choosy(["handle", Self.url, "--app", "firefox@Work", "-v"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.sway.focusedPid == browserWindow)
        #expect(desktop.launched(desktop.firefox) == [["-P", "Work", Self.url]])
    }

    /// With its windows all on another workspace, `new_window_here` opens a new one here (the
    /// catalog's `--new-window`, after the profile's arguments).
    @Test func newWindowHereWhenItsWindowsAreElsewhere() throws {
        let desktop = try Desktop(config: #"{"running": "use", "new_window_here": true}"#)
        _ = try desktop.startBrowser(desktop.firefox, ["-P", "Work"])
        desktop.workspace("2")
        let output = desktop.choosy(["handle", Self.url, "-v"])
        #expect(output.status == 0, "\(output.rawStderr)")
        #expect(desktop.launched(desktop.firefox) == [["-P", "Work", "--new-window", Self.url]])
        let why = desktop.choosy(["why", Self.url, "--json"])
        let handOver = Sandbox.jsonObject(why.stdout)?["hand_over"] as? [String: Any]
        #expect(handOver?["action"] as? String == "new_window" && handOver?["arguments"] as? [String] == ["--new-window"], "\(why.stdout)")
        // Without it, the link goes to the browser as it is.
        desktop.sandbox.write(desktop.sandbox.configHome + "/choosy/config.json", #"{"running": "use"}"#)
        #expect(desktop.choosy(["handle", Self.url]).status == 0)
        #expect(desktop.launched(desktop.firefox, count: 2).last == ["-P", "Work", Self.url])
    }
}

extension Sandbox {
    /// Firefox with two profiles (Work, then Personal, its default) and Chromium, each a
    /// browser left running when started so (`installRunningBrowser`), their programs this
    /// test's own; `config` as config.json, and the recording `CMD` picker. The programs' names.
    func installTwoRunningBrowsers(config: String) -> (firefox: String, chromium: String) {
        let firefox = Sandbox.uniqueProgram("firefox")
        let chromium = Sandbox.uniqueProgram("chromium")
        installRunningBrowser("firefox.desktop", name: "Firefox", program: firefox)
        installRunningBrowser("chromium.desktop", name: "Chromium", program: chromium)
        write(
            home + "/.mozilla/firefox/profiles.ini",
            """
            [Profile0]
            Name=Work
            IsRelative=1
            Path=w0rk.Work

            [Profile1]
            Name=Personal
            IsRelative=1
            Path=p3rs.default
            Default=1

            """)
        write(configHome + "/choosy/config.json", config)
        overrides["CHOOSY_PICKER"] = pickerScript()
        return (firefox, chromium)
    }
}
