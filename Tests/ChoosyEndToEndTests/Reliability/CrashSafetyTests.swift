import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// choosy killed with SIGKILL at random points, a hundred times each: the files it writes are
/// replaced atomically, so they are never torn, a completed write is never lost, and the next
/// run works (doc/configuration.md, doc/desktop.md).
@Suite struct CrashSafetyTests {
    static let kills = 100

    @Test func aKilledUpdateNeverTearsTheCache() async throws {
        let sandbox = Sandbox()
        let server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]
        // The body arrives over ~160 ms, so kills land before, during and after the write.
        server.inject(["/app-data/twitter.json": "trickle", "/app-data/email.json": "trickle"])
        let command = ["update", "twitter", "email"]
        let duration = await offPool { KillableRun.duration(sandbox, command) }
        let cache = CatalogCache(directory: sandbox.cacheHome + "/choosy/catalog", fileSystem: LocalFileSystem())
        for key in ["twitter", "email"] { try FileManager.default.removeItem(atPath: cache.path(for: key)) }

        var completed: Set<String> = []
        var ends: [KillableRun.End] = []
        for _ in 0..<Self.kills {
            // Half the kills anywhere, half near the end, where the files are written.
            let delay = Bool.random() ? Double.random(in: 0...(duration * 1.2)) : Double.random(in: (duration * 0.8)...(duration * 1.05))
            let end = await offPool { KillableRun.run(sandbox, command, killAfter: delay) }
            ends.append(end)
            for key in ["twitter", "email"] where sandbox.exists(cache.path(for: key)) {
                let diagnostics = RecordingDiagnostics()
                let entry = cache.entry(for: key, diagnostics: diagnostics)
                #expect(entry != nil, "\(key) torn after a kill at \(delay) s: \(diagnostics.warnings)")
                completed.insert(key)
            }
            // Once written, a type's file is replaced, never removed.
            for key in completed {
                #expect(sandbox.exists(cache.path(for: key)), "\(key) lost after a kill at \(delay) s")
            }
        }
        #expect(ends.contains(.killed) && ends.contains(.exited(0)), "kills landed on both sides: \(ends)")

        let next = await sandbox.run(["update", "twitter", "email"])
        #expect(next.status == 0, "\(next.stderr)")
        let describe = await sandbox.run("describe", "twitter")
        #expect(describe.status == 0 && describe.stdout.contains("tweetbot"))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory).sorted()
        #expect(files == ["email.cache", "email.lock", "twitter.cache", "twitter.lock"], "no temporary file is left behind")
    }

    @Test func aKilledPreferenceWriteNeverTearsOrLosesTheFile() async throws {
        let sandbox = Sandbox()
        for id in ["firefox.desktop", "chromium.desktop", "thunderbird.desktop", "org.gnome.Evolution.desktop"] {
            sandbox.desktopEntry(id, sandbox.application(name: id, exec: "/bin/true %u"))
        }
        let choices = [("browser", ["firefox", "chromium"]), ("email", ["thunderbird", "evolution"])]
        let path = sandbox.configHome + "/choosy/preferences.json"
        let duration = await offPool { KillableRun.duration(sandbox, ["default", "browser", "firefox"]) }
        try FileManager.default.removeItem(atPath: path)

        // What the file said after the previous run: each run may change only its own type,
        // and only to the value it was asked to write.
        var previous: [String: String] = [:]
        var ends: [KillableRun.End] = []
        for _ in 0..<Self.kills {
            let (type, apps) = choices.randomElement()!
            let app = apps.randomElement()!
            let delay = Double.random(in: 0...(duration * 1.2))
            let end = await offPool { KillableRun.run(sandbox, ["default", type, app], killAfter: delay) }
            ends.append(end)

            let stored = try #require(Self.defaults(at: path), "preferences.json torn after a kill at \(delay) s")
            for (otherType, _) in choices where otherType != type {
                #expect(stored[otherType] == previous[otherType], "\(otherType) changed by a run for \(type)")
            }
            #expect(stored[type] == previous[type] || stored[type] == app, "\(type): \(String(describing: stored[type]))")
            if end == .exited(0) {
                #expect(stored[type] == app, "a completed write of \(type)=\(app) was lost")
            }
            previous = stored
        }
        #expect(ends.contains(.killed) && ends.contains(.exited(0)), "kills landed on both sides: \(ends)")

        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy")
        #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
        let next = await sandbox.run("default", "browser", "chromium")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(await sandbox.run("default", "browser").stdout == "chromium\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy").sorted()
        #expect(left == ["preferences.json", "preferences.json.lock"], "no temporary file is left behind")
    }

    @Test func onlyTheAbandonedTemporaryFilesOfThatFileAreRemoved() throws {
        let sandbox = Sandbox()
        let directory = sandbox.configHome + "/choosy"
        let kept = [
            "preferences.json", "preferences.json.lock", "preferences.json.tmp-toolong", "other.json.tmp-Ab12Cd",
            "preferences.jsonXtmp-Ab12Cd",
        ]
        for name in kept + ["preferences.json.tmp-Ab12Cd", "preferences.json.tmp-zzzzzz"] {
            sandbox.write(directory + "/" + name, "x")
        }
        LocalFileSystem().removeAbandonedTemporaryFiles(of: directory + "/preferences.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == kept.sorted())
    }

    /// The default of each type in preferences.json; empty when the file is absent, nil when
    /// it is not valid JSON of the expected shape.
    static func defaults(at path: String) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let types = object["types"] as? [String: [String: Any]]
        else { return nil }
        return types.compactMapValues { $0["default"] as? String }
    }
}
