import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// A `/proc` tree in memory: each process with its parent, executable, arguments, environment
/// and owner, as the kernel shows them.
struct ProcFixture {
    let fileSystem: FakeFileSystem

    init(
        selfParent: Int32, cgroup: String = "0::/user.slice/user-1000.slice/session-2.scope\n",
        in fileSystem: FakeFileSystem = FakeFileSystem()
    ) {
        self.fileSystem = fileSystem
        write("/proc/self/stat", "100 (choosy) R \(selfParent) 100 100 0 -1")
        write("/proc/self/cgroup", cgroup)
    }

    func write(_ path: String, _ text: String) { write(path, Array(text.utf8)) }

    func write(_ path: String, _ bytes: [UInt8]) {
        try! fileSystem.writeAtomically(bytes, to: path, permissions: 0o444)
    }

    func process(
        _ pid: Int32, parent: Int32, exe: String?, arguments: [String], environment: [String] = [], owner: UInt32? = nil,
        comm: String? = nil
    ) {
        let directory = "/proc/\(pid)"
        write(
            directory + "/stat",
            "\(pid) (\(comm ?? String(arguments.first?.split(separator: "/").last ?? "x"))) S \(parent) \(pid) \(pid) 0 -1")
        write(directory + "/cmdline", Array(arguments.map { $0 + "\0" }.joined().utf8))
        write(directory + "/environ", Array(environment.map { $0 + "\0" }.joined().utf8))
        if let exe { fileSystem.links.withLock { $0[directory + "/exe"] = exe } }
        if let owner { fileSystem.owners.withLock { $0[directory] = owner } }
    }

    func find(declared: String? = nil, programs: [String: String] = [:], diagnostics: RecordingDiagnostics = RecordingDiagnostics())
        -> LinkSource?
    {
        LinkSourceFinder(declared: declared, fileSystem: fileSystem, diagnostics: diagnostics) { programs[$0] }.find()
    }
}

@Suite struct LinkSourceFinderTests {
    static let gio = ["GIO_LAUNCHED_DESKTOP_FILE=/usr/share/applications/com.slack.Slack.desktop", "GIO_LAUNCHED_DESKTOP_FILE_PID=40"]

    /// slack (40, launched by GIO) → sh -c (41) → xdg-open (42, a script) → choosy (100).
    func slackTree(cgroup: String = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-7.scope\n")
        -> ProcFixture
    {
        let proc = ProcFixture(selfParent: 42, cgroup: cgroup)
        proc.write("/usr/bin/xdg-open", "#!/bin/sh\n")
        try! proc.fileSystem.writeAtomically([], to: "/usr/bin/xdg-open", permissions: 0o755)
        proc.process(
            42, parent: 41, exe: "/usr/bin/dash", arguments: ["/bin/sh", "/usr/bin/xdg-open", "https://github.com/"], environment: Self.gio)
        proc.process(
            41, parent: 40, exe: "/usr/bin/dash", arguments: ["sh", "-c", "xdg-open https://github.com/"],
            environment: Self.gio + ["BAMF_DESKTOP_FILE_HINT=/usr/share/applications/sh.desktop"])
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["/app/bin/slack", "--enable-features=x"], environment: Self.gio)
        return proc
    }

    @Test func theNearestAppWinsAndWhatOnlyPassesTheLinkOnIsSkipped() {
        let diagnostics = RecordingDiagnostics()
        #expect(
            slackTree().find(diagnostics: diagnostics)
                == LinkSource(id: "com.slack.Slack.desktop", how: "the GIO_LAUNCHED_DESKTOP_FILE of process 40 (slack)"))
        #expect(
            diagnostics.explanations == ["the link came from com.slack.Slack.desktop (the GIO_LAUNCHED_DESKTOP_FILE of process 40 (slack))"]
        )
    }

    @Test func choosySourceWinsOverEveryOtherWay() {
        #expect(slackTree().find(declared: "thunderbird") == LinkSource(id: "thunderbird", how: "CHOOSY_SOURCE"))
    }

    @Test func anExecutableThatRunsAnEntrysProgramIsThatEntry() {
        let proc = slackTree()
        // One program may serve several entries: GIO's variables, for the process itself, say which.
        #expect(proc.find(programs: ["slack": "slack.desktop"])?.id == "com.slack.Slack.desktop", "the environment comes first")
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["/app/bin/slack", "--enable-features=x"])
        #expect(proc.find(programs: ["slack": "slack.desktop"])?.id == "slack.desktop", "without them, the executable's entry")
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["/app/bin/slack", "--enable-features=x"], environment: Self.gio)
        // A script's process runs its interpreter: the script is what it runs (and, started by
        // its `#!`, the kernel gives it the script's name).
        proc.write("/home/ada/bin/recorder", "#!/bin/sh\n")
        try! proc.fileSystem.writeAtomically([], to: "/home/ada/bin/recorder", permissions: 0o755)
        proc.process(41, parent: 40, exe: "/usr/bin/dash", arguments: ["/bin/sh", "/home/ada/bin/recorder", "x"], comm: "recorder")
        #expect(
            proc.find(programs: ["recorder": "recorder.desktop"])
                == LinkSource(id: "recorder.desktop", how: "process 41 runs recorder, the Exec of recorder.desktop"))
        // A shell started by name is a shell, whatever it runs: its arguments are not read.
        proc.process(41, parent: 40, exe: "/usr/bin/dash", arguments: ["/bin/sh", "/home/ada/bin/recorder", "x"])
        proc.fileSystem.looked.withLock { $0 = [] }
        #expect(proc.find(programs: ["recorder": "recorder.desktop"])?.id == "com.slack.Slack.desktop")
        #expect(!proc.fileSystem.looked.withLock { $0 }.contains("/proc/41/cmdline"), "a shell's arguments are not read")
        #expect(
            proc.find(programs: ["sh": "sh.desktop", "dash": "dash.desktop"])?.id == "com.slack.Slack.desktop", "a shell is never an app")
    }

    @Test func anInheritedGIOVariableIsNotTheProcesssOwnAndBAMFNeedsNoPid() {
        let proc = slackTree()
        proc.process(
            40, parent: 39, exe: "/app/bin/slack", arguments: ["slack"],
            environment: ["GIO_LAUNCHED_DESKTOP_FILE=/x/applications/other.desktop", "GIO_LAUNCHED_DESKTOP_FILE_PID=39"])
        proc.process(
            39, parent: 1, exe: "/usr/bin/kgx", arguments: ["kgx"],
            environment: ["BAMF_DESKTOP_FILE_HINT=/usr/share/applications/kde/org.kde.konsole.desktop"])
        #expect(proc.find() == LinkSource(id: "kde-org.kde.konsole.desktop", how: "the BAMF_DESKTOP_FILE_HINT of process 39 (kgx)"))
    }

    @Test func withNoAppAmongTheAncestorsTheScopeOfChoosyNamesTheSource() {
        let proc = slackTree()
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["slack"])
        #expect(
            proc.find()
                == LinkSource(id: "org.gnome.Terminal.desktop", how: "the scope choosy runs in, app-gnome-org.gnome.Terminal-7.scope"))
    }

    @Test func anotherUsersProcessEndsTheWalkAndSaysSo() {
        let proc = slackTree(cgroup: "0::/user.slice/session-2.scope\n")
        proc.process(41, parent: 40, exe: nil, arguments: ["sudo", "-u", "ada", "xdg-open"], owner: getuid() &+ 1)
        let diagnostics = RecordingDiagnostics()
        #expect(proc.find(diagnostics: diagnostics) == nil)
        #expect(diagnostics.explanations.contains("process 41 belongs to another user: it and its ancestors are not looked at"))
        #expect(
            !proc.fileSystem.looked.withLock { $0 }.contains { $0.hasPrefix("/proc/41/") || $0.hasPrefix("/proc/40") },
            "nothing of it is read")
        #expect(diagnostics.explanations.last == "the link came from no app choosy can name")
    }

    @Test func aProcessThatVanishesWhileItIsReadEndsTheWalk() {
        let proc = slackTree(cgroup: "")
        proc.fileSystem.remove("/proc/41/stat")
        let diagnostics = RecordingDiagnostics()
        #expect(proc.find(diagnostics: diagnostics) == nil)
        #expect(diagnostics.explanations.contains("process 41 ended while it was read: its ancestors are not looked at"))
        // A stat of another process in its place (the pid was reused) is no stat of it.
        proc.process(41, parent: 40, exe: "/usr/bin/dash", arguments: ["sh"])
        proc.write("/proc/41/stat", "7 (sh) S 40")
        #expect(proc.find() == nil)
        proc.fileSystem.remove("/proc/41/stat")
        proc.fileSystem.remove("/proc/41/cmdline")
        proc.fileSystem.remove("/proc/41")
        #expect(proc.find() == nil)
    }

    @Test func aHugeOrBinaryEnvironmentIsNoSourceAndIsSaid() {
        let proc = slackTree(cgroup: "")
        proc.write("/proc/40/environ", [UInt8](repeating: 0x41, count: ProcessFiles.environmentLimit + 1))
        let diagnostics = RecordingDiagnostics()
        #expect(proc.find(diagnostics: diagnostics) == nil)
        #expect(
            diagnostics.explanations.contains { $0.hasPrefix("the environment of process 40 (slack) is not searched: /proc/40/environ: ") })
        var binary: [UInt8] = Array("GIO_LAUNCHED_DESKTOP_FILE=/a/applications/\u{FF}\0".utf8) + [0xFF, 0xFE, 0, 0, 0x3D, 0x3D, 0]
        binary += Array("GIO_LAUNCHED_DESKTOP_FILE_PID=40\0GIO_LAUNCHED_DESKTOP_FILE=\0".utf8) + [0xC3, 0x28, 0]
        proc.write("/proc/40/environ", binary)
        let said = RecordingDiagnostics()
        #expect(proc.find(diagnostics: said) == nil)
        #expect(said.explanations.contains("the GIO_LAUNCHED_DESKTOP_FILE of process 40 names no desktop entry: '/a/applications/\u{FF}'"))
    }

    /// The portal's OpenURI (xdg-desktop-portal, `open-uri.c`) launches the handler itself
    /// through GIO: choosy's parent is the portal, its grandparent the user's systemd, and
    /// GIO puts it in a scope of its own. Neither says which sandboxed app sent the link.
    @Test func aLinkThroughThePortalHasNoSource() {
        let proc = ProcFixture(
            selfParent: 900, cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-glib-choosy-4242.scope\n")
        proc.process(
            900, parent: 800, exe: "/usr/libexec/xdg-desktop-portal", arguments: ["/usr/libexec/xdg-desktop-portal"],
            environment: Self.gio + ["XDG_CURRENT_DESKTOP=GNOME"])
        proc.process(800, parent: 1, exe: "/usr/lib/systemd/systemd", arguments: ["/usr/lib/systemd/systemd", "--user"])
        let diagnostics = RecordingDiagnostics()
        #expect(proc.find(programs: ["slack": "com.slack.Slack.desktop"], diagnostics: diagnostics) == nil)
        #expect(diagnostics.explanations.contains("the scope 'app-glib-choosy-4242.scope' is choosy's own, started for the link"))
        #expect(diagnostics.explanations.last == "the link came from no app choosy can name")
    }

    @Test func aProcessWhoseOtherFilesVanishAfterItsStatIsNoSourceAndIsSaid() {
        let proc = slackTree(cgroup: "")
        for file in ["cmdline", "environ"] { proc.fileSystem.remove("/proc/40/\(file)") }
        proc.fileSystem.links.withLock { $0["/proc/40/exe"] = nil }
        let diagnostics = RecordingDiagnostics()
        #expect(proc.find(programs: ["slack": "com.slack.Slack.desktop"], diagnostics: diagnostics) == nil)
        #expect(diagnostics.explanations.contains("process 40 ended while it was read: its ancestors are not looked at"))
        // With its executable still there, its environment is what vanished.
        proc.fileSystem.links.withLock { $0["/proc/40/exe"] = "/app/bin/slack" }
        let said = RecordingDiagnostics()
        #expect(proc.find(diagnostics: said) == nil)
        #expect(said.explanations.contains { $0.hasPrefix("the environment of process 40 (slack) is not searched: /proc/40/environ") })
    }

    @Test func aLoopOfParentsEnds() {
        let proc = ProcFixture(selfParent: 50, cgroup: "")
        proc.process(50, parent: 51, exe: "/usr/bin/a", arguments: ["a"])
        proc.process(51, parent: 50, exe: "/usr/bin/b", arguments: ["b"])
        #expect(proc.find() == nil)
    }

    @Test(arguments: [
        ("app-gnome-org.gnome.Evolution-4242.scope", "org.gnome.Evolution.desktop"),
        ("app-gnome-google\\x2dchrome-9.scope", "google-chrome.desktop"),
        ("app-flatpak-com.slack.Slack-123.scope", "com.slack.Slack.desktop"),
        ("app-org.kde.konsole-ab12.scope", "org.kde.konsole.desktop"),
        ("app-KDE-org.kde.dolphin\\x2d2-1.scope", "org.kde.dolphin-2.desktop"),
        ("snap.firefox.firefox-2c5bd6a4-3d18-4e5f-a0a1-1234567890ab.scope", "firefox_firefox.desktop"),
        ("snap.my-snap.my-app-2c5bd6a4-3d18-4e5f-a0a1-1234567890ab.scope", "my-snap_my-app.desktop"),
    ])
    func appScopesNameTheirDesktopID(unit: String, id: String) {
        #expect(AppScope.read(unit) == .app(id))
    }

    @Test(arguments: [
        ("session-2.scope", "the scope 'session-2.scope' is no app's"),
        ("app-gnome-firefox-1.service", "'app-gnome-firefox-1.service' is no scope"),
        ("app-a-b-c-1.scope", "the scope 'app-a-b-c-1.scope' is not app-<launcher>-<desktop ID>-<n>.scope"),
        ("app-1.scope", "the scope 'app-1.scope' is not app-<launcher>-<desktop ID>-<n>.scope"),
        ("app-gnome--1.scope", "the scope 'app-gnome--1.scope' is not app-<launcher>-<desktop ID>-<n>.scope"),
        ("app-gnome-a\\x2-1.scope", "the scope 'app-gnome-a\\x2-1.scope' holds an escape systemd does not write"),
        ("app-gnome-a\\xzz-1.scope", "the scope 'app-gnome-a\\xzz-1.scope' holds an escape systemd does not write"),
        ("app-gnome-a\\n-1.scope", "the scope 'app-gnome-a\\n-1.scope' holds an escape systemd does not write"),
        ("app-gnome-a\\xff-1.scope", "the scope 'app-gnome-a\\xff-1.scope' holds an escape systemd does not write"),
        ("app-gnome-a\\x2fb-1.scope", "the scope 'app-gnome-a\\x2fb-1.scope' names no desktop ID one can have"),
        ("app-gnome-a\\x00b-1.scope", "the scope 'app-gnome-a\\x00b-1.scope' names no desktop ID one can have"),
        ("app-gnome-\\x2e-1.scope", "the scope 'app-gnome-\\x2e-1.scope' names no desktop ID one can have"),
        ("snap.firefox.scope", "the snap scope 'snap.firefox.scope' has no UUID"),
        (
            "snap.firefox-2c5bd6a4-3d18-4e5f-a0a1-1234567890ab.scope",
            "the snap scope 'snap.firefox-2c5bd6a4-3d18-4e5f-a0a1-1234567890ab.scope' is not snap.<name>.<app>-<uuid>.scope"
        ),
    ])
    func oddScopesNameNoAppAndSayWhy(unit: String, reason: String) {
        #expect(AppScope.read(unit) == .noApp(reason))
    }

    @Test func theStatOfAProcessIsReadPastAnyCommandName() {
        #expect(ProcessFiles.stat(Array("42 (a) b) (c) S 7 42 42 0".utf8))! == (42, 7, "a) b) (c"))
        #expect(ProcessFiles.stat(Array("42 () S 7".utf8))! == (42, 7, ""))
        #expect(ProcessFiles.stat(Array("42 (x".utf8)) == nil)
        #expect(ProcessFiles.stat(Array("42 x) S 7".utf8)) == nil)
        #expect(ProcessFiles.stat(Array("x (a) S 7".utf8)) == nil)
        #expect(ProcessFiles.stat(Array("42 (a) S 99999999999".utf8)) == nil)
        #expect(ProcessFiles.unit(inCgroup: Array("12:cpu:/x.scope\n0::/a/app-x-1.scope\n".utf8)) == "app-x-1.scope")
        #expect(ProcessFiles.unit(inCgroup: Array("0::/\n".utf8)) == nil)
        #expect(LinkSourceFinder.desktopID(ofFile: "/usr/share/applications/kde4/okular.desktop") == "kde4-okular.desktop")
        #expect(LinkSourceFinder.desktopID(ofFile: "/opt/x/firefox.desktop") == "firefox.desktop")
        #expect(LinkSourceFinder.desktopID(ofFile: "/opt/x/firefox") == nil)
    }
}

/// The same readers on the real `/proc`, for this test process and its parent.
@Suite struct RealProcessFilesTests {
    let fileSystem = LocalFileSystem()

    @Test func thisProcesssFilesReadAsTheKernelSaysThem() throws {
        let stat = try #require(ProcessFiles.stat(try fileSystem.read("/proc/self/stat", limit: ProcessFiles.smallFileLimit)))
        #expect(stat.pid == getpid() && stat.parent == getppid())
        let comm = try fileSystem.read("/proc/self/comm", limit: ProcessFiles.smallFileLimit)
        #expect(stat.name == String(decoding: comm.dropLast(), as: UTF8.self), "the command name, as `comm` has it")
        #expect(fileSystem.linkTarget("/proc/self/exe") == fileSystem.canonicalPath("/proc/self/exe"))
        #expect(fileSystem.linkTarget("/proc/self/stat") == nil, "no link")
        let arguments = ProcessFiles.arguments(ofCmdline: try fileSystem.read("/proc/self/cmdline", limit: ProcessFiles.smallFileLimit))
        #expect(arguments == CommandLine.arguments)
        let environ = try fileSystem.read("/proc/self/environ", limit: ProcessFiles.environmentLimit)
        #expect(ProcessFiles.variables(["PATH"], inEnviron: environ)["PATH"] == Environment.current().variables["PATH"])
    }

    @Test func processFilesReadWithFewerCallsReadAsAnyFile() throws {
        // Files that do not change while this process runs (its `stat` does: its times).
        for name in ["cmdline", "environ", "limits", "cgroup"] {
            let path = "/proc/self/" + name
            #expect(try fileSystem.readProcessFile(path, limit: 1 << 20) == (try fileSystem.read(path, limit: 1 << 20)), "\(path)")
        }
        let stat = try #require(ProcessFiles.stat(try fileSystem.readProcessFile("/proc/self/stat", limit: ProcessFiles.smallFileLimit)))
        #expect(stat.pid == getpid() && stat.parent == getppid())
        #expect(throws: FileSystemError.self) { try fileSystem.readProcessFile("/proc/self/limits", limit: 10) }
        #expect(throws: FileSystemError.self) { try fileSystem.readProcessFile("/proc/\(Int32.max)/stat", limit: 10) }
    }

    /// An environment of 20 KiB takes several reads: each short read but the last.
    @Test func aProcessFileLargerThanOneReadIsReadWhole() throws {
        let variable = "CHOOSY_LARGE=" + String(repeating: "x", count: 20_000)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        sleeper.environment = ["CHOOSY_LARGE": String(variable.dropFirst("CHOOSY_LARGE=".count))]
        try sleeper.run()
        defer {
            kill(sleeper.processIdentifier, SIGKILL)
            sleeper.waitUntilExit()
        }
        let path = "/proc/\(sleeper.processIdentifier)/environ"
        // `run` may return before the child runs sleep: until then its environment is this
        // process's, and for a moment after the exec none (the kernel sets the executable first).
        var environ: [UInt8] = []
        for _ in 0..<500 {
            let running = fileSystem.linkTarget("/proc/\(sleeper.processIdentifier)/exe")?.hasSuffix("/sleep") == true
            environ = try fileSystem.readProcessFile(path, limit: ProcessFiles.environmentLimit)
            if running && !environ.isEmpty { break }
            usleep(10_000)
        }
        #expect(environ == Array((variable + "\0").utf8))
        #expect(throws: FileSystemError.self) { try fileSystem.readProcessFile(path, limit: 10_000) }
    }

    @Test func theNearestAncestorThatIsNoShellIsFoundByItsExecutable() throws {
        let diagnostics = RecordingDiagnostics()
        let found = LinkSourceFinder(declared: nil, fileSystem: fileSystem, diagnostics: diagnostics) { "x-\($0).desktop" }.find()
        let parent = try #require(fileSystem.linkTarget("/proc/\(getppid())/exe")).split(separator: "/").last.map(String.init)
        if let parent, !LinkSourceFinder.passesLinksOn(parent) {
            #expect(found?.how.hasPrefix("process \(getppid()) runs ") == true, "\(diagnostics.explanations)")
        } else {
            #expect(found?.id.hasPrefix("x-") == true, "\(diagnostics.explanations)")
        }
    }
}
