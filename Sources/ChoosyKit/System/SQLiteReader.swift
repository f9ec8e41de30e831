import Glibc

/// Reads one table of a SQLite database that another program writes (Firefox's profile group
/// store), read-only and as untrusted data (doc/security.md, "Profile group stores"). A
/// protocol: the composition root makes the one that loads libsqlite3, and tests of what is
/// read from the rows hand in others.
package protocol SQLiteReader: Sendable {
    /// The `columns` of each row of `table` in the database at `path`, in the table's order,
    /// each as text (nil for NULL and for text that is not UTF-8). Throws, reading nothing,
    /// when the file is not a regular file within `limits.fileSize` or another process holds
    /// a write lock on it; when `table` is not an ordinary table (a view, a virtual table) or
    /// lacks one of `columns` as a stored column; and when the read goes past `limits`.
    func rows(of table: String, columns: [String], in path: String, within limits: SQLiteReadLimits) throws(SQLiteError)
        -> [[String?]]
}

/// What reading a table may cost; past any of it the read fails.
package struct SQLiteReadLimits: Sendable {
    /// The database file's size in bytes.
    package var fileSize: Int
    package var rows: Int
    /// One value, in bytes: also SQLite's own limit on any string or blob it makes, so a
    /// default or an expression cannot build a larger one.
    package var valueBytes: Int
    /// All the values read, in bytes.
    package var totalBytes: Int
    /// Wall-clock time for the whole read, from opening the file to the last row.
    package var seconds: Double

    package init(fileSize: Int, rows: Int, valueBytes: Int, totalBytes: Int, seconds: Double) {
        (self.fileSize, self.rows, self.valueBytes, self.totalBytes, self.seconds) = (fileSize, rows, valueBytes, totalBytes, seconds)
    }
}

package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    package var description: String
}

/// Through libsqlite3 (Debian's libsqlite3-0), loaded with dlopen by the first read
/// (SharedLibrary): a command that reads no store never loads it. The database is opened as
/// an immutable read-only URI, so SQLite takes no lock and never looks at the `-journal`,
/// `-wal` or `-shm` beside it (a FIFO there cannot hang it); temporary tables stay in memory;
/// the schema is not trusted; a progress handler ends the read at its time limit; SQLite's
/// own limits and a heap limit bound what one statement can build.
package struct SQLiteLibraryReader: SQLiteReader {
    private typealias OpenFunction =
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) -> Int32
    private typealias CloseFunction = @convention(c) (OpaquePointer?) -> Int32
    private typealias PrepareFunction =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
            UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32
    private typealias StatementFunction = @convention(c) (OpaquePointer?) -> Int32
    private typealias ColumnTextFunction = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    private typealias ColumnFunction = @convention(c) (OpaquePointer?, Int32) -> Int32
    private typealias MessageFunction = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias LimitFunction = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    private typealias ProgressCallback = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private typealias ProgressFunction = @convention(c) (OpaquePointer?, Int32, ProgressCallback?, UnsafeMutableRawPointer?) -> Void
    private typealias HeapLimitFunction = @convention(c) (Int64) -> Int64

    /// From sqlite3.h, part of libsqlite3.so.0's stable ABI.
    private static let ok: Int32 = 0, row: Int32 = 100, done: Int32 = 101, interrupted: Int32 = 9
    private static let openReadOnly: Int32 = 0x1, openURI: Int32 = 0x40
    private static let nullType: Int32 = 5
    /// `SQLITE_LIMIT_*` and the values set: room for a store's schema and a query of a few
    /// columns, nothing more (doc/security.md); `SQLITE_LIMIT_LENGTH` (0) is the caller's `valueBytes`.
    private static let statementLimits: [(id: Int32, value: Int32)] = [
        (1, 100_000),  // SQL_LENGTH: one statement of the schema
        (2, 100),  // COLUMN
        (3, 20),  // EXPR_DEPTH
        (4, 3),  // COMPOUND_SELECT
        (5, 25_000),  // VDBE_OP
        (6, 8),  // FUNCTION_ARG
        (7, 0),  // ATTACHED
        (8, 50),  // LIKE_PATTERN_LENGTH
        (9, 10),  // VARIABLE_NUMBER
        (10, 10),  // TRIGGER_DEPTH
        (11, 0),  // WORKER_THREADS
    ]
    /// Set before the first statement: a temporary table in memory, never a file; a schema
    /// whose views and triggers may not call functions with side effects; no memory map of
    /// a file that could shrink under it; cells checked as they are read; nothing written.
    private static let pragmas = [
        "PRAGMA temp_store = MEMORY", "PRAGMA trusted_schema = OFF", "PRAGMA mmap_size = 0", "PRAGMA cell_size_check = ON",
        "PRAGMA query_only = ON",
    ]
    /// All the memory libsqlite3 may hold in this process: many times what a real store needs
    /// (its page cache is 2 MiB), well under what a command may use.
    private static let heapLimit: Int64 = 32 << 20
    /// How many virtual machine steps between two looks at the clock.
    private static let progressSteps: Int32 = 1000
    /// The bytes SQLite locks (its pending byte at 1 GiB, then the reserved and shared ones,
    /// whether or not the file is that long): a write lock there is a write in progress.
    private static let lockBytes = (start: off_t(0x4000_0000), count: off_t(512))

    private struct Library: Sendable {
        let open: OpenFunction, close: CloseFunction, prepare: PrepareFunction
        let step: StatementFunction, finalize: StatementFunction, columnCount: StatementFunction
        let text: ColumnTextFunction, bytes: ColumnFunction, type: ColumnFunction
        let message: MessageFunction, limit: LimitFunction, progress: ProgressFunction
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libsqlite3", sonames: ["libsqlite3.so.0"], package: "libsqlite3-0", neededFor: "for Firefox's profile groups")
        let heapLimit: HeapLimitFunction = try library.function("sqlite3_hard_heap_limit64")
        _ = heapLimit(SQLiteLibraryReader.heapLimit)
        return Library(
            open: try library.function("sqlite3_open_v2"), close: try library.function("sqlite3_close_v2"),
            prepare: try library.function("sqlite3_prepare_v2"), step: try library.function("sqlite3_step"),
            finalize: try library.function("sqlite3_finalize"), columnCount: try library.function("sqlite3_column_count"),
            text: try library.function("sqlite3_column_text"), bytes: try library.function("sqlite3_column_bytes"),
            type: try library.function("sqlite3_column_type"), message: try library.function("sqlite3_errmsg"),
            limit: try library.function("sqlite3_limit"), progress: try library.function("sqlite3_progress_handler")
        )
    }.mapError { SQLiteError(description: $0.description) }

    package init() {}

    package func rows(of table: String, columns: [String], in path: String, within limits: SQLiteReadLimits) throws(SQLiteError)
        -> [[String?]]
    {
        let sqlite = try Self.library.get()
        try Self.checkFile(path, limits: limits)
        // The deadline lives on the heap for the progress handler, a C function without context of its own.
        let deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        deadline.initialize(to: monotonicSeconds() + limits.seconds)
        defer { deadline.deallocate() }
        var database: OpaquePointer?
        defer { _ = sqlite.close(database) }
        guard sqlite.open(Self.immutableURI(path), &database, Self.openReadOnly | Self.openURI, nil) == Self.ok else {
            throw Self.failure(sqlite, database)
        }
        _ = sqlite.limit(database, 0, Int32(clamping: limits.valueBytes))
        for (id, value) in Self.statementLimits { _ = sqlite.limit(database, id, value) }
        sqlite.progress(
            database, Self.progressSteps,
            { deadline in
                guard let deadline else { return 1 }
                return monotonicSeconds() > deadline.assumingMemoryBound(to: Double.self).pointee ? 1 : 0
            }, UnsafeMutableRawPointer(deadline))
        var reader = Rows(sqlite: sqlite, database: database, limits: limits)
        for pragma in Self.pragmas { try reader.read(pragma) }
        try checkSchema(of: table, columns: columns, &reader)
        let quoted = columns.map { Self.quotedIdentifier($0) }.joined(separator: ", ")
        return try reader.read("SELECT \(quoted) FROM main.\(Self.quotedIdentifier(table))")
    }

    /// The file must be a regular file within the size limit that no process is writing:
    /// opened without waiting (a FIFO in its place), and asked whether a write lock is held
    /// where SQLite takes them, since an immutable read takes none of its own.
    private static func checkFile(_ path: String, limits: SQLiteReadLimits) throws(SQLiteError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw SQLiteError(description: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limits.fileSize else {
            throw SQLiteError(description: "not a regular file of at most \(limits.fileSize) bytes")
        }
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = lockBytes.start
        lock.l_len = lockBytes.count
        if fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) {
            throw SQLiteError(description: "locked: process \(lock.l_pid) is writing it")
        }
    }

    /// `file:` and the path percent-encoded, immutable and read-only (SQLite's URI filenames).
    private static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return uri + "?immutable=1&mode=ro"
    }

    /// `table` is one ordinary table of the file (a view or a virtual table could compute
    /// anything, endlessly), and each of `columns` one of its stored columns (a generated one
    /// is computed when read). Names compare as SQLite compares them, ASCII letters in any case.
    private func checkSchema(of table: String, columns: [String], _ reader: inout Rows) throws(SQLiteError) {
        let objects = try reader.read(
            "SELECT type, rootpage, sql FROM main.sqlite_master WHERE name = \(Self.quotedLiteral(table)) COLLATE NOCASE")
        guard objects.count == 1, let object = objects.first, object.count == 3 else {
            throw SQLiteError(description: "it has no table \(table)")
        }
        guard object[0] == "table" else { throw SQLiteError(description: "\(table) is a \(object[0] ?? "?"), not a table") }
        let created = (object[2] ?? "").uppercased().split(whereSeparator: \.isWhitespace)
        guard (Int(object[1] ?? "") ?? 0) > 0, created.starts(with: ["CREATE", "TABLE"]) else {
            throw SQLiteError(description: "\(table) is a virtual table")
        }
        let stored = try reader.read(
            "SELECT name, hidden FROM pragma_table_xinfo(\(Self.quotedLiteral(table)), 'main')")
        var storedNames: Set<String> = []
        for column in stored where column.count == 2 && column[1] == "0" {
            if let name = column[0] { storedNames.insert(name.lowercased()) }
        }
        if let missing = columns.first(where: { !storedNames.contains($0.lowercased()) }) {
            throw SQLiteError(description: "\(table) has no stored column \(missing)")
        }
    }

    private static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    private static func quotedLiteral(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    /// The statements of one read, which share its limits on rows and bytes.
    private struct Rows {
        let sqlite: Library
        let database: OpaquePointer?
        let limits: SQLiteReadLimits
        var totalBytes = 0

        init(sqlite: Library, database: OpaquePointer?, limits: SQLiteReadLimits) {
            self.sqlite = sqlite
            self.database = database
            self.limits = limits
        }

        /// The rows `query` gives, each value as text. SQLite makes no value over
        /// `valueBytes` (its length limit); the sizes are added up before the text is asked for.
        @discardableResult
        mutating func read(_ query: String) throws(SQLiteError) -> [[String?]] {
            var statement: OpaquePointer?
            guard sqlite.prepare(database, query, -1, &statement, nil) == SQLiteLibraryReader.ok else { throw failure() }
            defer { _ = sqlite.finalize(statement) }
            var rows: [[String?]] = []
            while true {
                let status = sqlite.step(statement)
                if status == SQLiteLibraryReader.done { return rows }
                guard status == SQLiteLibraryReader.row else { throw failure(status) }
                guard rows.count < limits.rows else { throw SQLiteError(description: "more than \(limits.rows) rows") }
                var row: [String?] = []
                for column in 0..<sqlite.columnCount(statement) {
                    guard sqlite.type(statement, column) != SQLiteLibraryReader.nullType else {
                        row.append(nil)
                        continue
                    }
                    totalBytes += Int(sqlite.bytes(statement, column))
                    guard totalBytes <= limits.totalBytes else {
                        throw SQLiteError(description: "over \(limits.totalBytes) bytes of values in all")
                    }
                    guard let text = sqlite.text(statement, column) else {
                        row.append(nil)
                        continue
                    }
                    let count = Int(sqlite.bytes(statement, column))
                    row.append(String(validating: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
                }
                rows.append(row)
            }
        }

        func failure(_ status: Int32 = 0) -> SQLiteError {
            if status == SQLiteLibraryReader.interrupted {
                return SQLiteError(description: "reading it took longer than \(limits.seconds) s")
            }
            return SQLiteLibraryReader.failure(sqlite, database)
        }
    }

    /// SQLite's message, which may quote the file's own names: cut to one short line.
    private static func failure(_ sqlite: Library, _ database: OpaquePointer?) -> SQLiteError {
        SQLiteError(description: String((sqlite.message(database).map { String(cString: $0) } ?? "cannot be opened").prefix(200)))
    }
}
