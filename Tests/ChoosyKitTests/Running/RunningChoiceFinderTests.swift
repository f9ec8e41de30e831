import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// Which choices run (doc/running.md), from a `/proc` in memory (ProcFixture) holding what the
/// kernel shows of real browsers: Firefox's main and content processes, Chromium's browser and
/// renderer, and from the real `/proc` with processes of this user and of another.
@Suite struct RunningChoiceFinderTests {
    static let firefoxProfiles = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", "{{profile}}"])
    static let chromiumProfiles = AppProfiles(format: .chromium, paths: [:], arguments: ["--profile-directory={{profile}}"])
    static let work = BrowserProfile(name: "Work", selector: "Work", directory: "/home/ada/.mozilla/firefox/w0rk.Work")
    static let personal = BrowserProfile(name: "Personal", selector: "Personal", directory: "/home/ada/.mozilla/firefox/p3rs.default")
    static let chromiumPerson = BrowserProfile(name: "Person 1", selector: "Default", directory: "/home/ada/.config/chromium/Default")
    static let chromiumWork = BrowserProfile(name: "Work", selector: "Profile 1", directory: "/home/ada/.config/chromium/Profile 1")

    static func choice(_ key: String, exec: String, profiles: AppProfiles?, profile: BrowserProfile? = nil) -> InstalledApp {
        let app = App(key: key, name: key.capitalized, urlScheme: "http:", desktopIDs: [key + ".desktop"], profiles: profiles)
        let entry = DesktopEntry(
            id: key + ".desktop", path: "/usr/share/applications/\(key).desktop",
            keys: ["Type": "Application", "Name": app.name, "Exec": "\(exec) %u"])
        let installed = InstalledApp(app: app, entry: entry, displayName: app.name)
        return profile.map(installed.opening) ?? installed
    }

    static let firefox = choice("firefox", exec: "/usr/lib/firefox-esr/firefox-esr", profiles: firefoxProfiles)
    static let chromium = choice("chromium", exec: "/usr/bin/chromium", profiles: chromiumProfiles)
    /// What a picker offers of the two: each profile, and Work's container.
    static let choices = [
        firefox.opening(work), firefox.opening(work.inContainer("Banking")), firefox.opening(personal),
        chromium.opening(chromiumPerson), chromium.opening(chromiumWork),
    ]

    /// Firefox for Work with a content process, Firefox started bare holding Personal's lock,
    /// Chromium's Work profile with a renderer; and what must not count: Chromium with another
    /// user data directory, another user's Firefox, processes that ended while being read,
    /// a kernel thread, a shell.
    func desktop() -> ProcFixture {
        let proc = ProcFixture(selfParent: 1)
        let firefox = "/usr/lib/firefox-esr/firefox-esr"
        proc.process(40, parent: 1, exe: firefox, arguments: [firefox, "-P", "Work", "https://example.org/"])
        proc.process(41, parent: 40, exe: firefox, arguments: [firefox, "-contentproc", "-childID", "1", "-isForBrowser", "40", "tab"])
        proc.process(50, parent: 1, exe: firefox, arguments: [firefox])
        proc.fileSystem.links.withLock { $0[Self.personal.directory! + "/lock"] = "127.0.1.1:+50" }
        proc.fileSystem.links.withLock { $0[Self.work.directory! + "/lock"] = "127.0.1.1:+40" }
        let chromium = "/usr/lib/chromium/chromium"
        proc.process(60, parent: 1, exe: chromium, arguments: [chromium, "--profile-directory=Profile 1"])
        proc.process(61, parent: 60, exe: chromium, arguments: [chromium, "--type=renderer", "--lang=en-US"])
        proc.process(70, parent: 1, exe: chromium, arguments: [chromium, "--user-data-dir=/tmp/scratch", "--profile-directory=Profile 1"])
        proc.process(80, parent: 1, exe: firefox, arguments: [firefox, "-P", "Personal"], owner: getuid() &+ 1)
        // Ended while read: its arguments are gone; and one whose stat went after them.
        proc.write("/proc/90/stat", "90 (firefox-esr) S 1 90 90 0 -1")
        proc.write("/proc/91/cmdline", "\(firefox)\0-P\0Work\0")
        proc.process(2, parent: 0, exe: nil, arguments: [], comm: "kthreadd")
        proc.process(100, parent: 1, exe: "/usr/bin/dash", arguments: ["sh", "-c", "firefox-esr"])
        return proc
    }

    @Test func eachInstanceHasTheProfileItWasStartedForAndItsOwnProcesses() {
        let running = RunningChoiceFinder(fileSystem: desktop().fileSystem, diagnostics: RecordingDiagnostics()).find(among: Self.choices)
        #expect(
            running.instances == [
                .init(app: "firefox", profile: "Work", pids: [40, 41]),
                .init(app: "firefox", profile: "Personal", pids: [50]),
                .init(app: "chromium", profile: "Work", pids: [60, 61]),
            ])
        #expect(Self.choices.map(running.isRunning) == [true, true, true, false, true])
        #expect(running.isRunning(Self.firefox) && running.isRunning(Self.chromium), "an app's plain key runs with any of its profiles")
        #expect(running.instance(withProcess: 41)?.profile == "Work")
    }

    /// An app with no profile list runs when its program does; `-P`'s value is a profile's
    /// `Name`, `--profile` its directory; a profile no choice names is the browser's default.
    @Test func profilesByNameByDirectoryOrNone() {
        let proc = ProcFixture(selfParent: 1)
        let firefox = "/usr/lib/firefox-esr/firefox-esr"
        proc.process(40, parent: 1, exe: firefox, arguments: [firefox, "--profile", Self.personal.directory! + "/"])
        proc.process(50, parent: 1, exe: firefox, arguments: [firefox, "-p", "Elsewhere"])
        let running = RunningChoiceFinder(fileSystem: proc.fileSystem, diagnostics: RecordingDiagnostics()).find(among: Self.choices)
        #expect(
            running.instances == [.init(app: "firefox", profile: "Personal", pids: [40]), .init(app: "firefox", profile: nil, pids: [50])])
        let plain = Self.choice("firefox", exec: "/usr/lib/firefox-esr/firefox-esr", profiles: nil)
        #expect(RunningChoiceFinder(fileSystem: proc.fileSystem, diagnostics: RecordingDiagnostics()).find(among: [plain]).isRunning(plain))
    }

    /// With no choice that has a program to look for, nothing below `/proc` is read.
    @Test func nothingIsReadWithoutAProgramToLookFor() {
        let proc = desktop()
        proc.fileSystem.looked.withLock { $0 = [] }
        let webApp = InstalledApp(
            app: App(key: "gmail", name: "Gmail", urlScheme: "https://mail.google.com"), entry: nil, displayName: "Gmail")
        #expect(RunningChoiceFinder(fileSystem: proc.fileSystem, diagnostics: RecordingDiagnostics()).find(among: [webApp]) == .none)
        #expect(proc.fileSystem.looked.withLock { $0 }.isEmpty)
    }

    @Test(arguments: ["127.0.1.1:+4242", "192.168.1.2:4242", "::1:+4242"])
    func aLockNamesItsHolder(target: String) {
        #expect(ProfileArguments.lockHolder(target) == 4242)
    }

    @Test(arguments: ["127.0.1.1:+", "4242", "127.0.1.1:+-4", "127.0.1.1:+99999999999", "x:+42a"])
    func aLockThatNamesNoProcess(target: String) {
        #expect(ProfileArguments.lockHolder(target) == nil)
    }

    @Test func theProfileArgumentsAsTheBrowsersReadThem() {
        #expect(ProfileArguments.firefox(["firefox", "-P", "Work"]) == .named("Work"))
        #expect(ProfileArguments.firefox(["firefox", "--P", "Work", "-P", "Other"]) == .named("Work"))
        #expect(ProfileArguments.firefox(["firefox", "-PROFILE", "/p/"]) == .directory("/p"))
        #expect(ProfileArguments.firefox(["firefox", "-P"]) == .none, "no value")
        #expect(ProfileArguments.firefox(["-P", "x"]) == .none, "argv[0] is the program")
        #expect(ProfileArguments.firefox(["firefox", "---P", "x", "-Px"]) == .none)
        #expect(ProfileArguments.chromium(["chromium", "--profile-directory=Profile 1"]) == .chromium(userData: nil, profile: "Profile 1"))
        #expect(ProfileArguments.chromium(["chromium", "--user-data-dir=/d/", "--type=gpu"]) == .chromium(userData: "/d", profile: nil))
        #expect(ProfileArguments.chromium(["chromium", "--profile-directory="]) == .none)
    }

    // MARK: The real /proc

    /// A program that records nothing and waits: a browser left running.
    func startWaiting(_ program: String, _ arguments: [String], in sandbox: Sandbox, as user: [String] = []) -> pid_t {
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/bin/sh", "-c", #""$@" >/dev/null 2>&1 </dev/null & echo $!"#, "sh"] + user + [program] + arguments,
                environment: ["PATH": "/usr/bin:/bin"], timeout: 10))
        return pid_t(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    @Test func theUsersOwnProcessesCountAndAnotherUsersDoNot() throws {
        let sandbox = Sandbox()
        // A script that waits in a child: the script is the browser, as `sh SCRIPT` runs it. Its
        // name is this test's alone: tests running at once start browsers of their own.
        let name = "fakefox-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let browser = sandbox.write(sandbox.bin + "/" + name, "#!/bin/sh\nsleep 60\n", mode: 0o755)
        chmod(sandbox.root, 0o755)
        chmod(sandbox.bin, 0o755)
        let mine = startWaiting(browser, ["-P", "Work"], in: sandbox)
        defer { kill(mine, SIGKILL) }
        let choices = [Self.choice("firefox", exec: browser, profiles: Self.firefoxProfiles, profile: Self.work)]
        var running: RunningChoices = .none
        // The script runs its sleep once the shell has read it.
        for _ in 0..<100 where running.instances.isEmpty {
            running = RunningChoiceFinder(fileSystem: LocalFileSystem(), diagnostics: RecordingDiagnostics()).find(among: choices)
            usleep(20_000)
        }
        #expect(running.instances.map(\.profile) == ["Work"])
        #expect(running.instances.first?.pids.first == mine)
        kill(mine, SIGKILL)
        _ = waitUntilGone(mine, timeout: 5)
        guard getuid() == 0 else { return }
        let theirs = startWaiting(browser, ["-P", "Work"], in: sandbox, as: Sandbox.asNobody)
        defer { kill(theirs, SIGKILL) }
        usleep(200_000)
        #expect(isRunning(theirs))
        #expect(RunningChoiceFinder(fileSystem: LocalFileSystem(), diagnostics: RecordingDiagnostics()).find(among: choices) == .none)
    }
}
