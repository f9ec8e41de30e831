import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// Firefox's profile groups (doc/profiles.md), end to end: a `profiles.ini` profile with a `StoreID`,
/// and its store `Profile Groups/<StoreID>.sqlite` made with the sqlite3 CLI from the schema
/// of Firefox's ProfilesDatastoreService, in the place a new user's Firefox keeps them.
extension ProfileTests {
    static let storeID = "3f0c9a1e"

    /// The tables as Firefox's `toolkit/profile/ProfilesDatastoreService.sys.mjs` creates them
    /// (schema version 3).
    static let profileGroupSchema = """
        CREATE TABLE IF NOT EXISTS "Profiles" (id INTEGER NOT NULL, path TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
          avatar TEXT NOT NULL, themeId TEXT NOT NULL, themeFg TEXT NOT NULL, themeBg TEXT NOT NULL, PRIMARY KEY(id));
        CREATE TABLE IF NOT EXISTS "SharedPrefs" (id INTEGER NOT NULL, name TEXT NOT NULL UNIQUE, value BLOB, isBoolean INTEGER, PRIMARY KEY(id));
        CREATE TABLE IF NOT EXISTS "NimbusEnrollments" (id INTEGER NOT NULL, profileId INTEGER NOT NULL, slug TEXT NOT NULL,
          branchSlug TEXT NOT NULL, recipe JSONB, active BOOLEAN NOT NULL, unenrollReason TEXT, lastSeen TEXT NOT NULL,
          setPrefs JSONB, prefFlips JSONB, source TEXT NOT NULL, PRIMARY KEY(id), UNIQUE (profileId, slug) ON CONFLICT FAIL);
        """

    var firefoxRoot: String { sandbox.configHome + "/mozilla/firefox" }
    var storePath: String { firefoxRoot + "/Profile Groups/\(Self.storeID).sqlite" }

    /// Runs the sqlite3 CLI on `database` with `script` on its stdin.
    @discardableResult
    func sqlite(_ database: String, _ script: String) throws -> Int32 {
        try FileManager.default.createDirectory(atPath: parentDirectory(of: database), withIntermediateDirectories: true)
        return try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/sqlite3", database], environment: ["PATH": "/usr/bin:/bin"], input: Array(script.utf8), timeout: 30
            )
        ).status
    }

    /// Firefox installed as Debian's package, a new user's profiles.ini naming the group by
    /// its original profile, and a store of three profiles (the original one among them).
    func installProfileGroup(version: Int = 3) throws {
        install(Self.variants[0])
        try FileManager.default.removeItem(atPath: sandbox.home + "/.mozilla")
        sandbox.write(
            firefoxRoot + "/profiles.ini",
            """
            [Profile1]
            Name=Old standalone
            IsRelative=1
            Path=Profiles/s1.Old

            [Profile0]
            Name=default-release
            IsRelative=1
            Path=Profiles/x9.default-release
            StoreID=\(Self.storeID)
            ShowSelector=0

            [General]
            StartWithLastProfile=1
            Version=2

            """)
        let status = try sqlite(
            storePath,
            Self.profileGroupSchema + """
                PRAGMA journal_mode = WAL;
                INSERT INTO Profiles VALUES (1, 'Profiles/x9.default-release', 'Original profile', 'book', 'default-theme@mozilla.org', '', '');
                INSERT INTO Profiles VALUES (2, 'Profiles/k2.Work', 'Work', 'briefcase', 'default-theme@mozilla.org', '', '');
                INSERT INTO Profiles VALUES (3, 'Profiles/m3.Shopping', 'Shopping; $(touch pwned)', 'shopping', 'default-theme@mozilla.org', '', '');
                INSERT INTO SharedPrefs (name, value, isBoolean) VALUES ('toolkit.telemetry.cachedProfileGroupID', 'x', 0);
                PRAGMA user_version = \(version);
                """)
        try #require(status == 0)
    }

    func groupDirectory(_ name: String) -> String { firefoxRoot + "/Profiles/" + name }

    @Test func aProfileGroupsProfilesAreChoicesLaunchedByTheirDirectories() throws {
        try installProfileGroup()
        let firefox = Self.variants[0]
        let output = open(environment: ["PICK": "Firefox — Work (always)"])
        #expect(output.status == 0, "\(output.stderr)")
        // The entry naming the store is one of the group's, once; the others stay.
        #expect(
            sandbox.pickerInvocations.last?.lines
                == Sandbox.choiceLines(
                    "Firefox — Old standalone", "Firefox — Original profile", "Firefox — Work", "Firefox — Shopping; $(touch pwned)",
                    site: "example.org"
                ))
        #expect(sandbox.launched(firefox.recorder) == [["--profile", groupDirectory("k2.Work"), Self.url]])
        // Remembered, and opened without asking.
        #expect(sandbox.choosy("default", "browser").stdout == "firefox@Work\n")
        #expect(open().status == 0)
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched(firefox.recorder, count: 2).last == ["--profile", groupDirectory("k2.Work"), Self.url])
        // --app, a profiles.ini profile beside the group, and a site rule.
        #expect(open("--app", "firefox@Shopping; $(touch pwned)").status == 0)
        #expect(sandbox.launched(firefox.recorder, count: 3).last == ["--profile", groupDirectory("m3.Shopping"), Self.url])
        #expect(!sandbox.exists("pwned"))
        #expect(open("--app", "firefox@Old standalone").status == 0)
        #expect(sandbox.launched(firefox.recorder, count: 4).last == ["-P", "Old standalone", Self.url])
        #expect(sandbox.choosy("rule", "add", "example.org", "--app", "firefox", "--profile", "Original profile").status == 0)
        #expect(sandbox.choosy("handle", Self.url).status == 0)
        #expect(sandbox.launched(firefox.recorder, count: 5).last == ["--profile", groupDirectory("x9.default-release"), Self.url])
        // Listed and completed.
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(sandbox.choosy("list", "browser", "--json").stdout.utf8)) as? [[String: Any]])
        let apps = try #require(listed.first?["apps"] as? [[String: Any]])
        #expect(
            apps.first { $0["key"] as? String == "firefox" }?["profiles"] as? [String] == [
                "Old standalone", "Original profile", "Work", "Shopping; $(touch pwned)",
            ])
        #expect(sandbox.choosy("__complete", "open", "browser", "browse", "--app", "firefox@W").stdout.hasPrefix("firefox@Work\t"))

        // A profile removed from the group is forgotten like a removed profile.
        #expect(sandbox.choosy("rule", "remove", "example.org").status == 0)
        #expect(try sqlite(storePath, "DELETE FROM Profiles WHERE id = 2;") == 0)
        #expect(open(environment: ["PICK": "Firefox — Original profile"]).status == 0)
        #expect(sandbox.pickerInvocations.count == 2)
        #expect(sandbox.choosy("default", "browser").stdout == "")
    }

    /// A store that is too large, of another schema version, locked or corrupt costs only its
    /// group, with one line under `-v`: the profiles.ini profiles stay.
    @Test(arguments: ["version", "corrupt", "large", "locked", "missing"])
    func aStoreThatCannotBeReadCostsOnlyItsGroup(_ fault: String) throws {
        try installProfileGroup(version: fault == "version" ? 9 : 3)
        var holder: Int32?
        switch fault {
        case "corrupt":
            sandbox.writeBytes(storePath, Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xA5, count: 4096))
        case "large":
            #expect(truncate(storePath, off_t(FirefoxProfileGroup.sizeLimit + 1)) == 0)
        case "missing":
            try FileManager.default.removeItem(atPath: storePath)
        case "locked":
            // Another process holds the store locked in a rollback journal, as no Firefox does.
            #expect(try sqlite(storePath, "PRAGMA journal_mode = DELETE;") == 0)
            holder = try lockHolder(storePath)
        default:
            break
        }
        defer { if let holder { kill(holder, SIGKILL) } }
        let output = sandbox.choosy(
            ["-v", "open", "browser", "browse", "url=\(Self.url)"], environment: ["PICK": "Firefox — default-release"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            sandbox.pickerInvocations.last?.lines
                == Sandbox.choiceLines("Firefox — Old standalone", "Firefox — default-release", site: "example.org"))
        #expect(sandbox.launched(Self.variants[0].recorder) == [["-P", "default-release", Self.url]])
        let skipped = output.stderrLines.filter { $0.contains("skipping the profile group store") }
        #expect(skipped.count == 1, "\(output.stderr)")
        #expect(!output.stderr.contains("warning"))
    }

    /// A sqlite3 CLI that holds an exclusive lock on `database` until it is killed (its
    /// `-init` script sleeps inside the transaction); returns once the lock is held.
    func lockHolder(_ database: String) throws -> pid_t {
        let ready = sandbox.root + "/locked"
        let script = sandbox.write(
            sandbox.root + "/lock.sql",
            "BEGIN EXCLUSIVE;\nINSERT INTO SharedPrefs (name) VALUES ('lock');\n.shell touch \(ready)\n.shell sleep 60\n")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = ["-init", script, database]
        holder.standardInput = Pipe()
        try holder.run()
        let deadline = Date().addingTimeInterval(20)
        while !sandbox.exists(ready) && Date() < deadline { usleep(20_000) }
        try #require(sandbox.exists(ready), "the lock was never taken")
        return holder.processIdentifier
    }

    /// libsqlite3 is loaded only for a profile group: the loader's own record of what a real
    /// `choosy` process loaded (`LD_DEBUG=files`) says so.
    @Test func libsqlite3IsLoadedOnlyWhenAProfileGroupIsRead() throws {
        try installProfileGroup()
        func loadsSQLite(_ arguments: [String]) -> Bool {
            // The loader writes its record to LOG.<pid>, one file per process.
            let log = "ld-" + UUID().uuidString
            let output = sandbox.choosy(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": sandbox.root + "/" + log])
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            let records = ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.root)) ?? []).filter { $0.hasPrefix(log) }
            #expect(!records.isEmpty, "no record of the loader")
            return records.contains { sandbox.read(sandbox.root + "/" + $0)?.contains("libsqlite3.so") == true }
        }
        #expect(!loadsSQLite(["url", "email", "compose", "to=ada@example.org"]))
        #expect(!loadsSQLite(["list"]))
        #expect(!loadsSQLite(["open", "browser", "browse", "url=\(Self.url)", "--app", "firefox", "--dry-run"]))
        #expect(loadsSQLite(["open", "browser", "browse", "url=\(Self.url)", "--app", "firefox@Work", "--dry-run"]))
    }
}
