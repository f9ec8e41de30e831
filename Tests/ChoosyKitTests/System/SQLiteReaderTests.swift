import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// The real reader (libsqlite3) on databases made with the sqlite3 CLI: what it reads of an
/// ordinary table, and each thing about a database that makes it refuse to read
/// (doc/security.md, "Profile group stores").
@Suite struct SQLiteReaderTests {
    let sandbox = Sandbox()
    let reader = SQLiteLibraryReader()
    static let limits = SQLiteReadLimits(fileSize: 64 << 20, rows: 100, valueBytes: 1024, totalBytes: 8192, seconds: 1)

    /// A database at a fresh path made by `script`.
    func database(_ script: String) throws -> String {
        let path = sandbox.root + "/db-\(UUID().uuidString).sqlite"
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/sqlite3", path], environment: ["PATH": "/usr/bin:/bin"], input: Array(script.utf8), timeout: 30))
        try #require(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        return path
    }

    func read(_ path: String, limits: SQLiteReadLimits = limits) throws(SQLiteError) -> [[String?]] {
        try reader.rows(of: "Profiles", columns: ["id", "path", "name"], in: path, within: limits)
    }

    func refusal(_ path: String, limits: SQLiteReadLimits = limits) -> String? {
        do {
            _ = try read(path, limits: limits)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anOrdinaryTableIsReadInItsOrderAsText() throws {
        let path = try database(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE "Profiles" (id INTEGER NOT NULL, path TEXT NOT NULL UNIQUE, name TEXT NOT NULL, avatar TEXT NOT NULL, PRIMARY KEY(id));
            INSERT INTO Profiles VALUES (2, 'b', 'Two', 'x'), (1, 'a', 'One', 'x'), (3, 'c', CAST(X'FF' AS TEXT), 'x');
            INSERT INTO Profiles (id, path, name, avatar) VALUES (4, 'd', 'Four', 'x');
            PRAGMA user_version = 42;
            """)
        #expect(try read(path) == [["1", "a", "One"], ["2", "b", "Two"], ["3", "c", nil], ["4", "d", "Four"]])
        // Columns compare as SQLite compares names; NULL is nil.
        let lower = try database(
            "CREATE TABLE profiles (ID INTEGER PRIMARY KEY, Path TEXT, NAME TEXT); INSERT INTO profiles VALUES (1, NULL, 'x');")
        #expect(try read(lower) == [["1", nil, "x"]])
    }

    /// The real stores of the fixtures, as Firefox 140 and 153 wrote them (user_version 3 and 7).
    @Test(arguments: ["firefox-esr-140/Profile Groups/cb5d264d.sqlite", "firefox-esr-153/Profile Groups/162a42a4.sqlite"])
    func realStoresAreRead(_ store: String) throws {
        let rows = try read(Sandbox.packageRoot + "/Tests/Fixtures/firefox-profile-groups/" + store)
        #expect(rows.map { $0[2] } == ["Original profile", "Side Project", "Banking"])
        #expect(rows.map { $0[0] } == ["1", "2", "3"])
    }

    /// What is not an ordinary table with the stored columns is refused before a row is read.
    @Test func viewsVirtualTablesAndGeneratedColumnsAreRefused() throws {
        let cases: [(script: String, reason: String)] = [
            ("CREATE VIEW Profiles AS SELECT 1 AS id, 'p' AS path, 'n' AS name;", "Profiles is a view, not a table"),
            (
                "CREATE VIEW PROFILES AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 'p' || x AS path, 'n' AS name FROM c;",
                "Profiles is a view, not a table"
            ),
            ("CREATE VIRTUAL TABLE Profiles USING fts5(id, path, name);", "Profiles is a virtual table"),
            (
                "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT GENERATED ALWAYS AS (zeroblob(900000000)) VIRTUAL);",
                "Profiles has no stored column name"
            ),
            ("CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT);", "Profiles has no stored column name"),
            ("CREATE TABLE Other (id INTEGER);", "it has no table Profiles"),
        ]
        for (script, reason) in cases {
            #expect(refusal(try database(script)) == reason, "\(script)")
        }
    }

    @Test func rowsValuesAndBytesAreBounded() throws {
        let many = try database(
            "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 101) INSERT INTO Profiles SELECT x, 'p' || x, 'n' FROM c;"
        )
        #expect(refusal(many) == "more than 100 rows")
        var roomy = Self.limits
        roomy.rows = 101
        #expect(try read(many, limits: roomy).count == 101)
        // A large stored value: SQLite refuses to load it, before any copy is made.
        let large = try database(
            "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); INSERT INTO Profiles VALUES (1, 'a', zeroblob(10000000));"
        )
        #expect(refusal(large) == "string or blob too big")
        let justOver = try database(
            "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); INSERT INTO Profiles VALUES (1, 'a', zeroblob(1025));")
        var lenient = Self.limits
        lenient.valueBytes = 4096
        #expect(try read(justOver, limits: lenient).count == 1)
        lenient.totalBytes = 1024
        #expect(refusal(justOver, limits: lenient) == "over 1024 bytes of values in all")
        #expect(refusal(justOver) == "string or blob too big")
    }

    /// The progress handler looks at the clock every thousand steps of SQLite's machine: with
    /// no time at all, the scan of ten thousand rows stops at its first look.
    @Test func aReadPastItsTimeIsStopped() throws {
        let rows = try database(
            "CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) INSERT INTO Profiles SELECT x, NULL, NULL FROM c;"
        )
        var none = Self.limits
        none.rows = 20_000
        none.totalBytes = 1 << 20
        none.seconds = 0
        #expect(refusal(rows, limits: none) == "reading it took longer than 0.0 s")
        none.seconds = 1
        #expect(try read(rows, limits: none).count == 10_000)
    }

    /// The file itself: a FIFO, a file over the size limit, and one another process is writing
    /// are refused without waiting; a FIFO or garbage beside it (journal, WAL) is never read.
    @Test func oddFilesAndWritersAreRefusedWithoutWaiting() throws {
        let fifo = sandbox.root + "/fifo.sqlite"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo) == "not a regular file of at most 67108864 bytes")
        let store = try database(
            "PRAGMA journal_mode = DELETE; CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); INSERT INTO Profiles VALUES (1, 'a', 'A');"
        )
        #expect(mkfifo(store + "-journal", 0o600) == 0)
        #expect(mkfifo(store + "-wal", 0o600) == 0)
        #expect(try read(store) == [["1", "a", "A"]])
        var small = Self.limits
        small.fileSize = 1024
        #expect(refusal(store, limits: small) == "not a regular file of at most 1024 bytes")
    }

    /// Another process holds the write lock of a transaction (sqlite3's own locks): refused
    /// at once, where an immutable read would take no lock of its own and read a half-written file.
    @Test func aStoreBeingWrittenIsRefused() throws {
        let store = try database(
            "PRAGMA journal_mode = DELETE; CREATE TABLE Profiles (id INTEGER PRIMARY KEY, path TEXT, name TEXT); INSERT INTO Profiles VALUES (1, 'a', 'A');"
        )
        #expect(try read(store) == [["1", "a", "A"]])
        let ready = sandbox.root + "/locked"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = ["-cmd", "BEGIN EXCLUSIVE; INSERT INTO Profiles VALUES (2, 'b', 'B');", "-cmd", ".shell touch \(ready)", store]
        holder.standardInput = Pipe()
        try holder.run()
        defer { holder.terminate() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready) && Date() < deadline { usleep(20_000) }
        #expect(
            refusal(store)?.hasPrefix("locked: process \(holder.processIdentifier) is writing it") == true, "\(refusal(store) ?? "read")")
    }
}
