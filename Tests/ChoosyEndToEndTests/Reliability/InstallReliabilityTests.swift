import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// `install` and `uninstall` at once and killed with SIGKILL at random points (doc/desktop.md):
/// `previous-handlers.json`, `choosy.desktop.before-install`, the entry and `mimeapps.list`
/// are never torn, and an uninstall that completes still restores what the first install
/// replaced, byte for byte.
@Suite struct InstallReliabilityTests {
    let sandbox = Sandbox()
    var mimeappsPath: String { sandbox.configHome + "/mimeapps.list" }
    var entryPath: String { sandbox.dataHome + "/applications/choosy.desktop" }
    var recordPath: String { sandbox.configHome + "/choosy/previous-handlers.json" }
    var backupPath: String { sandbox.configHome + "/choosy/choosy.desktop.before-install" }
    /// The entry `make install` put in place before choosy's own.
    static let before =
        "[Desktop Entry]\nType=Application\nName=Choosy\nExec=/usr/local/bin/choosy handle %u\nMimeType=x-scheme-handler/choosy;\n"

    init() {
        sandbox.installApp(
            "firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        sandbox.installApp(
            "org.kde.falkon.desktop", name: "Falkon", program: "falkon", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        sandbox.installApp(
            "org.mozilla.Thunderbird.desktop", name: "Thunderbird", program: "thunderbird", mimeTypes: ["x-scheme-handler/mailto"])
        sandbox.write(mimeappsPath, LinkHandlerInstallTests.mimeapps)
        sandbox.write(entryPath, Self.before)
    }

    /// Every file as it may be between two runs: the record absent or whole JSON, the entry
    /// the one before or choosy's own, every line of `mimeapps.list` one of the user's or one
    /// naming choosy.
    func expectNothingTorn(_ context: String) {
        if let record = sandbox.read(recordPath) {
            #expect(Sandbox.jsonObject(record) != nil, "\(context): the record is torn: \(record)")
        }
        if let backup = sandbox.read(backupPath) { #expect(backup == Self.before, "\(context): the copy is \(backup)") }
        let entry = sandbox.read(entryPath) ?? ""
        #expect(
            entry == Self.before || (entry.hasPrefix("[Desktop Entry]\n") && entry.contains(" handle %u\n") && entry.hasSuffix("\n")),
            "\(context): the entry is \(entry)")
        let original = Set(LinkHandlerInstallTests.mimeapps.split(separator: "\n", omittingEmptySubsequences: false))
        for line in (sandbox.read(mimeappsPath) ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(original.contains(line) || line.hasSuffix("=choosy.desktop;"), "\(context): mimeapps.list has \(line)")
        }
    }

    /// What was there before the first install is back, and nothing of choosy's is left.
    func expectRestored(_ context: String) {
        #expect(sandbox.read(mimeappsPath) == LinkHandlerInstallTests.mimeapps, "\(context)")
        #expect(sandbox.read(entryPath) == Self.before, "\(context)")
        #expect(!sandbox.exists(recordPath) && !sandbox.exists(backupPath), "\(context)")
        // What a killed run left half-written went with the next run's lock.
        for directory in [sandbox.configHome, sandbox.configHome + "/choosy", sandbox.dataHome + "/applications"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            #expect(!names.contains { $0.contains(".tmp-") }, "\(context): a temporary file in \(directory): \(names)")
        }
    }

    @Test func installsAndUninstallsAtOnceLoseNothing() async throws {
        let installs = await ConcurrencyTests.runAtOnce(
            sandbox, (0..<12).map { $0.isMultiple(of: 2) ? ["install", "--default-handler"] : ["install"] })
        for output in installs { #expect(output.status == 0, "\(output.stderr)") }
        expectNothingTorn("after 12 installs at once")
        // No install recorded choosy itself, or kept its own entry as the one to put back.
        #expect(sandbox.read(backupPath) == Self.before)
        #expect(sandbox.read(recordPath).map { !$0.contains("choosy.desktop") } == true, "\(sandbox.read(recordPath) ?? "")")

        let uninstalls = await ConcurrencyTests.runAtOnce(sandbox, Array(repeating: ["uninstall"], count: 8))
        for output in uninstalls { #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)") }
        expectRestored("after 8 uninstalls at once")
    }

    @Test func killedInstallsAndUninstallsTearNothingAndUninstallStillRestores() async throws {
        let duration = await offPool { KillableRun.duration(self.sandbox, ["install", "--default-handler"]) }
        #expect(await sandbox.run("uninstall").status == 0)
        expectRestored("after one undisturbed install and uninstall")

        var ends: [KillableRun.End] = []
        for trial in 0..<CrashSafetyTests.kills {
            let command = [["install", "--default-handler"], ["install"], ["uninstall"]].randomElement()!
            let delay = Double.random(in: 0...(duration * 1.2))
            let end = await offPool { KillableRun.run(self.sandbox, command, killAfter: delay) }
            ends.append(end)
            expectNothingTorn("trial \(trial): \(command) killed after \(delay) s")
        }
        #expect(ends.contains(.killed) && ends.contains(.exited(0)), "kills landed on both sides: \(ends)")
        let uninstalled = await sandbox.run("uninstall")
        #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
        expectRestored("after \(CrashSafetyTests.kills) killed runs and an uninstall")
    }

    /// An install killed after it kept the entry and before it saved the record leaves the copy
    /// alone: the next uninstall puts it back (the same bytes) and leaves nothing of choosy's.
    @Test func aCopyWithoutARecordIsPutBack() {
        sandbox.write(backupPath, Self.before)
        let output = sandbox.choosy("uninstall")
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout == "Put back the previous \(entryPath) and restored the previous link handlers.\n")
        expectRestored("after an uninstall of a copy without a record")
        #expect(sandbox.choosy("uninstall").stdout == "choosy was not installed.\n")
    }

    /// A FIFO in place of the lock stops install and uninstall at once, with status 7.
    @Test func aLockThatIsNoRegularFileStopsInstallAndUninstall() throws {
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/choosy", withIntermediateDirectories: true)
        #expect(mkfifo(recordPath + ".lock", 0o600) == 0)
        for command in [["install"], ["uninstall"]] {
            let output = sandbox.choosy(command)
            #expect(output.status == 7, "\(command): \(output.stderr)")
            #expect(output.stderrLines.count == 1 && output.stderr.contains("not a regular file"), "\(output.stderr)")
        }
        #expect(sandbox.read(mimeappsPath) == LinkHandlerInstallTests.mimeapps)
        #expect(sandbox.read(entryPath) == Self.before)
    }
}
