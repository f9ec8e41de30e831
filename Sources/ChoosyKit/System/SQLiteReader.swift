import Glibc

/// Reads a SQLite database that another program writes (Firefox's profile group store),
/// read-only. A protocol: the composition root makes the one that loads libsqlite3, and
/// tests of what is read from the rows hand in others.
package protocol SQLiteReader: Sendable {
    /// The database's `PRAGMA user_version` and the rows `query` gives, each column as text
    /// (nil for NULL and for text that is not UTF-8).
    func read(_ path: String, query: String) throws(SQLiteError) -> (version: Int64, rows: [[String?]])
}

package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    package var description: String
}

/// Through libsqlite3 (Debian's libsqlite3-0), loaded with dlopen by the first read
/// (SharedLibrary): a command that reads no store never loads it.
package struct SQLiteLibraryReader: SQLiteReader {
    /// How long a store that another process holds locked is waited for: Firefox keeps its
    /// store in WAL mode, where readers are not blocked, so a lock this long is no brief one.
    private static let lockWait: Int32 = 200

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
    private typealias TimeoutFunction = @convention(c) (OpaquePointer?, Int32) -> Int32

    /// From sqlite3.h, part of libsqlite3.so.0's stable ABI.
    private static let ok: Int32 = 0, row: Int32 = 100, done: Int32 = 101, openReadOnly: Int32 = 0x1

    private struct Library: Sendable {
        let open: OpenFunction, close: CloseFunction, prepare: PrepareFunction
        let step: StatementFunction, finalize: StatementFunction, columnCount: StatementFunction
        let text: ColumnTextFunction, bytes: ColumnFunction
        let message: MessageFunction, busyTimeout: TimeoutFunction
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libsqlite3", sonames: ["libsqlite3.so.0"], package: "libsqlite3-0", neededFor: "for Firefox's profile groups")
        return Library(
            open: try library.function("sqlite3_open_v2"), close: try library.function("sqlite3_close_v2"),
            prepare: try library.function("sqlite3_prepare_v2"), step: try library.function("sqlite3_step"),
            finalize: try library.function("sqlite3_finalize"), columnCount: try library.function("sqlite3_column_count"),
            text: try library.function("sqlite3_column_text"), bytes: try library.function("sqlite3_column_bytes"),
            message: try library.function("sqlite3_errmsg"),
            busyTimeout: try library.function("sqlite3_busy_timeout")
        )
    }.mapError { SQLiteError(description: $0.description) }

    package init() {}

    package func read(_ path: String, query: String) throws(SQLiteError) -> (version: Int64, rows: [[String?]]) {
        let sqlite = try Self.library.get()
        var database: OpaquePointer?
        defer { _ = sqlite.close(database) }
        guard sqlite.open(path, &database, Self.openReadOnly, nil) == Self.ok else { throw failure(sqlite, database) }
        _ = sqlite.busyTimeout(database, Self.lockWait)
        let version = try rows(sqlite, database, "PRAGMA user_version").first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
        return (version, try rows(sqlite, database, query))
    }

    private func rows(_ sqlite: Library, _ database: OpaquePointer?, _ query: String) throws(SQLiteError) -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite.prepare(database, query, -1, &statement, nil) == Self.ok else { throw failure(sqlite, database) }
        defer { _ = sqlite.finalize(statement) }
        var rows: [[String?]] = []
        while true {
            let status = sqlite.step(statement)
            if status == Self.done { return rows }
            guard status == Self.row else { throw failure(sqlite, database) }
            rows.append(
                (0..<sqlite.columnCount(statement)).map { column in
                    guard let text = sqlite.text(statement, column) else { return nil }
                    return String(validating: UnsafeBufferPointer(start: text, count: Int(sqlite.bytes(statement, column))), as: UTF8.self)
                })
        }
    }

    private func failure(_ sqlite: Library, _ database: OpaquePointer?) -> SQLiteError {
        SQLiteError(description: sqlite.message(database).map { String(cString: $0) } ?? "cannot be opened")
    }
}
