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

    /// A store that is too large, of another schema (no `name` column), locked or corrupt
    /// costs only its group, with one line under `-v`: the profiles.ini profiles stay.
    @Test(arguments: ["schema", "corrupt", "large", "locked", "missing"])
    func aStoreThatCannotBeReadCostsOnlyItsGroup(_ fault: String) throws {
        try installProfileGroup()
        var holder: Int32?
        switch fault {
        case "schema":
            try FileManager.default.removeItem(atPath: storePath)
            #expect(try sqlite(storePath, "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, title TEXT);") == 0)
        case "corrupt":
            sandbox.writeBytes(storePath, Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xA5, count: 4096))
        case "large":
            #expect(truncate(storePath, off_t(FirefoxProfileGroup.limits.fileSize + 1)) == 0)
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

    /// The version number says nothing of the table read: a store of a later version with the
    /// same `Profiles` table is read (issue 40: Firefox 153 writes version 7).
    @Test func aStoreOfALaterVersionIsReadByItsTable() throws {
        try installProfileGroup(version: 99)
        let output = sandbox.choosy(["-v", "open", "browser", "browse", "url=\(Self.url)", "--app", "firefox@Work"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched(Self.variants[0].recorder) == [["--profile", groupDirectory("k2.Work"), Self.url]])
        #expect(!output.stderr.contains("skipping"), "\(output.stderr)")
    }

    // MARK: Stores as Firefox wrote them

    /// A store a real Firefox wrote (`Tests/Fixtures/firefox-profile-groups/README.md`), with
    /// its `profiles.ini`, where that version keeps them.
    struct RealStore: CustomTestStringConvertible, Sendable {
        var fixture: String
        var storeID: String
        /// Below the home: where this version keeps its profiles for a new user.
        var profilesDirectory: String
        /// The group's profiles' directories, below that one.
        var original: String, sideProject: String, banking: String
        var testDescription: String { fixture }
    }

    static let realStores = [
        RealStore(
            fixture: "firefox-esr-140", storeID: "cb5d264d", profilesDirectory: ".mozilla/firefox", original: "f6gdp5d1.Work",
            sideProject: "azP3xakT.Profile 1", banking: "40ZsLTop.Profile 2"),
        RealStore(
            fixture: "firefox-esr-153", storeID: "162a42a4", profilesDirectory: ".config/mozilla/firefox", original: "ugdk87d9.Work",
            sideProject: "u9qpA5qx.Profile 1", banking: "GjbDe9CG.Profile 2"),
    ]

    @Test(arguments: realStores)
    func aStoreAsFirefoxWroteItIsRead(_ store: RealStore) throws {
        install(Self.variants[0])
        try FileManager.default.removeItem(atPath: sandbox.home + "/.mozilla")
        let root = sandbox.home + "/" + store.profilesDirectory
        let fixture = Self.fixtures + "/firefox-profile-groups/" + store.fixture
        try FileManager.default.createDirectory(atPath: root + "/Profile Groups", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture + "/profiles.ini", toPath: root + "/profiles.ini")
        let storeFile = "/Profile Groups/\(store.storeID).sqlite"
        try FileManager.default.copyItem(atPath: fixture + storeFile, toPath: root + storeFile)

        let output = sandbox.choosy(
            ["-v", "open", "browser", "browse", "url=\(Self.url)"], environment: ["PICK": "Firefox — Side Project (always)"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("skipping"), "\(output.stderr)")
        // The profiles.ini profile that began the group is the group's "Original profile".
        #expect(
            sandbox.pickerInvocations.last?.lines
                == Sandbox.choiceLines(
                    "Firefox — Personal", "Firefox — Original profile", "Firefox — Side Project", "Firefox — Banking", site: "example.org"
                ))
        let firefox = Self.variants[0].recorder
        #expect(sandbox.launched(firefox) == [["--profile", root + "/" + store.sideProject, Self.url]])
        #expect(open().status == 0)
        #expect(sandbox.launched(firefox, count: 2).last == ["--profile", root + "/" + store.sideProject, Self.url])
        #expect(open("--app", "firefox@Banking").status == 0)
        #expect(sandbox.launched(firefox, count: 3).last == ["--profile", root + "/" + store.banking, Self.url])
        #expect(open("--app", "firefox@Original profile").status == 0)
        #expect(sandbox.launched(firefox, count: 4).last == ["--profile", root + "/" + store.original, Self.url])
        #expect(open("--app", "firefox@Personal").status == 0)
        #expect(sandbox.launched(firefox, count: 5).last == ["-P", "Personal", Self.url])
    }

    // MARK: Hostile stores

    /// A store made to hang, fill the disk or exhaust memory (issue 39) is skipped with one
    /// line under `-v`, and the default opens: within 5 s, under 64 MiB, writing no file over
    /// 1 MiB (a larger write would end choosy with SIGXFSZ). A FIFO where a journal would be
    /// is never looked at: that store is read.
    @Test(arguments: ["view", "recursive view", "FIFO journal", "zero-blob", "locked", "1 GB sparse"])
    func aHostileStoreIsSkippedInBoundedTimeAndMemory(_ fault: String) async throws {
        try installProfileGroup()
        let readable = fault == "FIFO journal"
        // The default chosen among what will be offered, so that nothing new makes choosy ask.
        if !readable { try FileManager.default.moveItem(atPath: storePath, toPath: storePath + ".aside") }
        #expect(sandbox.choosy("default", "browser", "firefox@Old standalone").status == 0)
        if !readable { try FileManager.default.moveItem(atPath: storePath + ".aside", toPath: storePath) }
        var holder: Int32?
        func replaceStore(_ script: String) throws {
            try FileManager.default.removeItem(atPath: storePath)
            try #require(try sqlite(storePath, script) == 0)
        }
        switch fault {
        case "view":
            try replaceStore("CREATE VIEW Profiles AS SELECT 1 AS id, 'Profiles/v' AS path, 'View' AS name;")
        case "recursive view":
            // Endless rows, which Firefox's own query would sort (in a temporary file).
            try replaceStore(
                "CREATE VIEW Profiles AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 'Profiles/' || x AS path, 'n' || x AS name FROM c;"
            )
        case "FIFO journal":
            // A rollback journal in the store's mode, and a FIFO where its journal would be.
            #expect(try sqlite(storePath, "PRAGMA journal_mode = DELETE;") == 0)
            #expect(mkfifo(storePath + "-journal", 0o600) == 0)
        case "zero-blob":
            try replaceStore("CREATE VIEW Profiles AS SELECT 1 AS id, 'Profiles/z' AS path, zeroblob(900000000) AS name;")
        case "locked":
            #expect(try sqlite(storePath, "PRAGMA journal_mode = DELETE;") == 0)
            holder = try lockHolder(storePath)
        case "1 GB sparse":
            #expect(truncate(storePath, 1 << 30) == 0)
        default:
            Issue.record("unknown fault \(fault)")
        }
        defer { if let holder { kill(holder, SIGKILL) } }
        let run = await boundedRun(["-v", "handle", Self.url])
        #expect(run.output.status == 0, "\(run.output.stderr)")
        #expect(sandbox.launched(Self.variants[0].recorder) == [["-P", "Old standalone", Self.url]])
        #expect(run.seconds < 5, "took \(run.seconds) s")
        #expect(run.maximumMiB < 64, "\(run.maximumMiB) MiB")
        let skipped = run.output.stderrLines.filter { $0.contains("skipping the profile group store") }
        #expect(skipped.count == (readable ? 0 : 1), "\(run.output.stderr)")
    }

    /// `choosy ARGUMENTS` with no file it writes allowed past 1 MiB (RLIMIT_FSIZE: a larger
    /// write, a temporary file's too, ends it with SIGXFSZ), timed, with its peak resident set
    /// in MiB as the kernel counted it.
    func boundedRun(_ arguments: [String]) async -> (output: Sandbox.Output, seconds: Double, maximumMiB: Double) {
        let record = sandbox.root + "/bounded.\(UUID().uuidString)"
        let wrapper = [
            "/usr/bin/python3", "-c",
            """
            import resource, subprocess, sys, time
            def limit(): resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
            start = time.monotonic()
            code = subprocess.call(sys.argv[2:], preexec_fn=limit)
            seconds = time.monotonic() - start
            open(sys.argv[1], "w").write("%d %f" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, seconds))
            sys.exit(code if code >= 0 else 128 - code)
            """, record,
        ]
        // A temporary file would go to the sandbox, not the machine's /tmp.
        let environment = ["TMPDIR": sandbox.root, "SQLITE_TMPDIR": sandbox.root]
        let output = await offPool { self.sandbox.choosy(arguments, environment: environment, timeout: 20, wrapper: wrapper) }
        let measured = ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Double($0) }
        return (output, measured.count == 2 ? measured[1] : .infinity, measured.count == 2 ? measured[0] / 1024 : .infinity)
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
