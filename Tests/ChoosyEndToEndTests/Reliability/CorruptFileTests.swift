import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// A corrupt file never stops a link (doc/configuration.md, "Corrupt and newer files"): the
/// real binary with broken `config.json`, `preferences.json` and `rules.json`, a clicked link,
/// the read-only commands that must move nothing, and a config directory choosy cannot write.
@Suite struct CorruptFileTests {
    let sandbox = Sandbox()
    var choosyDirectory: String { sandbox.configHome + "/choosy" }
    static let corruptRules = #"{"version": 1, "rules": [{"site": "https://example.org", "app": "chromium"}]}"#
    static let corruptPreferences = #"{"types": ["#

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    /// The bytes of every file in choosy's config directory, names included.
    func configFiles() -> [String: String] {
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: choosyDirectory)) ?? [] {
            files[name] = sandbox.read(choosyDirectory + "/" + name)
        }
        return files
    }

    @Test(arguments: ["{not json", "", "{\"picker\": \"fzf\",}"])
    func aClickedLinkOpensWhateverIsCorruptAndReadingMovesNothing(config: String) {
        sandbox.write(choosyDirectory + "/config.json", config)
        sandbox.write(choosyDirectory + "/rules.json", Self.corruptRules)
        sandbox.write(choosyDirectory + "/preferences.json", Self.corruptPreferences)
        let before = configFiles()

        let handled = sandbox.choosy("handle", "https://example.org/")
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
        let warned = handled.stderrLines
        #expect(
            warned.count == 3 && warned.allSatisfy { $0.hasPrefix("choosy: warning: \(choosyDirectory)/") }, "one line per file: \(warned)")
        #expect(configFiles() == before)

        for command in [
            ["rule", "list"], ["list"], ["list", "browser"], ["default", "browser"], ["describe", "browser"],
            ["rule", "test", "https://example.org/"], ["url", "browser", "browse", "url=https://example.org/"],
        ] {
            let output = sandbox.choosy(command)
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(configFiles() == before, "\(command) moved or changed a file")
        }
    }

    /// Members this choosy does not know get one warning naming them, a near miss with what it
    /// may have meant, and the file is left as it is, so nothing is lost (SPEC §7).
    @Test func unknownConfigMembersGetOneWarningAndAreKept() {
        let config = #"{"pickr": "fzf", "clean_links": false, "colour": "never"}"#
        sandbox.write(choosyDirectory + "/config.json", config)
        let listed = sandbox.choosy("list")
        #expect(listed.status == 0)
        #expect(
            listed.stderrLines == [
                "choosy: warning: \(choosyDirectory)/config.json: unknown members 'pickr' (did you mean 'picker'?), 'colour', ignored"
            ], "\(listed.stderr)")
        #expect(sandbox.read(choosyDirectory + "/config.json") == config)
    }

    /// With a display and `notify-send`, the user of a clicked link learns of a broken config
    /// as of the fallback: stderr is nowhere to be seen.
    @Test func aBrokenConfigIsShownInANotificationWhenALinkIsClicked() {
        sandbox.recorder("notify-send")
        sandbox.write(choosyDirectory + "/config.json", "{\"schemes\": [\"a\",]}")
        let handled = sandbox.choosy(["handle", "https://example.org/"], environment: ["DISPLAY": ":97"])
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
        let notices = sandbox.waitForRuns("notify-send")
        #expect(notices.count == 1 && notices[0].last?.hasPrefix("\(choosyDirectory)/config.json is not valid (") == true, "\(notices)")
        // A dry run shows nothing on the desktop.
        _ = sandbox.choosy(["handle", "https://example.org/", "--dry-run"], environment: ["DISPLAY": ":97"])
        usleep(300_000)
        #expect(sandbox.recordedRuns("notify-send").count == 1)
    }

    /// A command that only reads goes on; one that must change a corrupt file it cannot move
    /// aside stops with exit 7 and one line that says why, naming the file once.
    @Test func aCorruptFileInAConfigDirectoryChoosyCannotWriteStopsOnlyItsChanges() throws {
        sandbox.write(choosyDirectory + "/rules.json", Self.corruptRules)
        sandbox.write(choosyDirectory + "/preferences.json", Self.corruptPreferences)
        let unwritable = UnwritableDirectory(sandbox: sandbox, directory: choosyDirectory)

        let handled = unwritable.choosy(["handle", "https://example.org/"])
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])

        for (command, file) in [
            (["rule", "add", "example.org", "--app", "firefox"], "rules.json"), (["rule", "remove", "example.org"], "rules.json"),
            (["default", "browser", "firefox"], "preferences.json"), (["reset", "--all"], "preferences.json"),
        ] {
            let output = unwritable.choosy(command)
            #expect(output.status == 7, "\(command): \(output.stderr)")
            #expect(output.stderrLines.count == 1 && output.stderr.contains("cannot be moved aside"), "\(command): \(output.stderr)")
            #expect(output.stderr.components(separatedBy: "\(choosyDirectory)/\(file)").count == 2, "the path once: \(output.stderr)")
        }
        #expect(sandbox.read(choosyDirectory + "/rules.json") == Self.corruptRules)
        #expect(sandbox.read(choosyDirectory + "/preferences.json") == Self.corruptPreferences)
    }

    /// A picked app whose choice cannot be kept still opens.
    @Test func aChoiceThatCannotBeRememberedStillOpensTheLink() {
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        sandbox.write(choosyDirectory + "/preferences.json", Self.corruptPreferences)
        let unwritable = UnwritableDirectory(sandbox: sandbox, directory: choosyDirectory)
        let picked = unwritable.choosy(
            ["handle", "https://example.org/"], environment: ["CHOOSY_PICKER": sandbox.pickerScript(), "PICK": "Chromium (always)"])
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(sandbox.launched("chromium") == [["https://example.org/"]])
        #expect(picked.stderr.contains("was not remembered") && picked.stderr.contains("cannot be moved aside"), "\(picked.stderr)")
    }
}

/// A config directory choosy cannot write: as root (who may write anywhere) choosy runs as
/// `nobody`, for whom the directory is a foreign one; otherwise the directory is made
/// read-only.
struct UnwritableDirectory {
    let sandbox: Sandbox
    private let asNobody = !Sandbox.asNobody.isEmpty
    private let binary: String

    init(sandbox: Sandbox, directory: String) {
        self.sandbox = sandbox
        binary = asNobody ? sandbox.choosyBinaryForNobody() : Sandbox.choosyBinary
        if asNobody {
            // nobody must reach the sandbox, read its files and leave records.
            chmod(sandbox.root, 0o755)
            chmod(sandbox.records, 0o777)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                chmod(directory + "/" + file, 0o644)
            }
        } else {
            chmod(directory, 0o555)
        }
    }

    func choosy(_ arguments: [String], environment extra: [String: String] = [:]) -> Sandbox.Output {
        var variables = sandbox.environment
        for (name, value) in extra { variables[name] = value }
        let request = ProcessRequest(
            argv: Sandbox.asNobody + ["/usr/bin/setsid", "-w", binary] + arguments, environment: variables,
            workingDirectory: sandbox.root, timeout: 60
        )
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)
        return Sandbox.Output(
            status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
            rawStderr: String(decoding: result.stderr, as: UTF8.self))
    }
}

/// A FIFO in the place of a file choosy reads is a file that cannot be read, never a wait: a
/// clicked link still opens, and the command ends in its usual time.
@Suite struct FIFOInPlaceTests {
    @Test(arguments: ["config.json", "preferences.json", "rules.json", "catalog/mine.json"])
    func aFIFOInPlaceOfAFileDoesNotHangALink(_ file: String) {
        let sandbox = Sandbox()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        let path = sandbox.configHome + "/choosy/" + file
        try? FileManager.default.createDirectory(atPath: parentDirectory(of: path), withIntermediateDirectories: true)
        #expect(mkfifo(path, 0o600) == 0)
        let output = sandbox.choosy(["handle", "https://example.org/"], timeout: 20)
        #expect(output.status == 0, "\(file): \(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
    }
}

/// choosy's own JSON files are read up to 16 MiB (doc/configuration.md, "Corrupt and newer
/// files"): a larger one is corrupt, refused before it is read, whatever it holds.
@Suite struct OversizedFileTests {
    let sandbox = Sandbox()
    var choosyDirectory: String { sandbox.configHome + "/choosy" }

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    /// Valid JSON followed by spaces up to `size` bytes.
    func writePadded(_ path: String, _ json: String, size: Int) {
        sandbox.write(path, json)
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0x20, count: size - json.utf8.count))
        handle.closeFile()
    }

    static let sixteenMiB = 16 << 20

    @Test(arguments: [
        ("config.json", #"{"picker": "fzf"}"#), ("preferences.json", #"{"version": 1, "types": {}}"#),
        ("rules.json", #"{"version": 1, "rules": []}"#),
    ])
    func aFileOfSixteenMiBIsReadAndALargerOneIsCorrupt(file: String, json: String) {
        let path = choosyDirectory + "/" + file
        writePadded(path, json, size: Self.sixteenMiB)
        let read = sandbox.choosy("handle", "https://example.org/")
        #expect(read.status == 0 && read.stderrLines.isEmpty, "\(file): \(read.stderr)")

        writePadded(path, json, size: Self.sixteenMiB + 1)
        let handled = sandbox.choosy("handle", "https://example.org/")
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(
            handled.stderrLines == handled.stderrLines.filter { $0.contains(path) && $0.contains("larger than 16 MiB") },
            "\(handled.stderr)")
        #expect(handled.stderrLines.count == 1, "\(handled.stderr)")
        #expect(sandbox.launched("firefox", count: 2).count == 2)
        #expect(sandbox.exists(path), "a link moves nothing aside")
    }

    /// A sparse file of a gigabyte: refused at once, and a change moves it aside.
    @Test(arguments: [
        (["default", "browser", "firefox"], "preferences.json", Int32(0)),
        (["rule", "add", "example.org", "--app", "firefox"], "rules.json", Int32(7)),
    ])
    func aChangeMovesAGigabyteFileAside(command: [String], file: String, status: Int32) throws {
        let path = choosyDirectory + "/" + file
        sandbox.write(path, "{}")
        #expect(truncate(path, 1 << 30) == 0)
        let output = sandbox.choosy(command)
        #expect(output.status == status, "\(output.stderr)")
        #expect(output.stderr.contains("larger than 16 MiB"), "\(output.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: choosyDirectory)
        #expect(names.contains { $0.hasPrefix(file + ".corrupt-") }, "\(names)")
    }

    /// The installer's record: a link still opens, and `uninstall` still takes choosy out.
    @Test func anOversizedInstallRecordStopsNoLinkAndNoUninstall() throws {
        let installed = sandbox.choosy("install", "--default-handler")
        #expect(installed.status == 0, "\(installed.stderr)")
        let record = choosyDirectory + "/previous-handlers.json"
        #expect(truncate(record, Self.sixteenMiB + 1) == 0)
        #expect(sandbox.choosy("handle", "https://example.org/").status == 0)
        #expect(sandbox.launched("firefox").count == 1)
        let uninstalled = sandbox.choosy("uninstall")
        #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
        #expect(uninstalled.stderr.contains("larger than 16 MiB"), "\(uninstalled.stderr)")
        #expect(!(sandbox.read(sandbox.configHome + "/mimeapps.list") ?? "").contains("choosy.desktop"))
    }
}
