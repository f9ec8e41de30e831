/// One link given to `handle`, `route` or `again`, and what became of it (SPEC §6.1): one line
/// of the history file, a JSON object.
package struct HistoryEntry: Equatable, Sendable {
    package enum Command: String, Sendable {
        case handle, route
    }

    package enum Outcome: String, Sendable {
        /// An app was started with it (by the user's choice, a default, a rule or the fallback).
        case opened
        /// The picker was shown and the user backed out.
        case cancelled
        /// A choice was needed and no picker could be shown.
        case noPicker = "no_picker"
        /// A site rule's `--none`: nothing opens.
        case openedNothing = "none"
        /// Refused or failed (not a link, nothing installed, a launch that failed).
        case failed
    }

    /// Seconds since the Unix epoch.
    package var time: Int
    /// How `again` opens it: `route` for an x-callback-url, else `handle`.
    package var command: Command
    package var link: String
    /// The app type it was opened through, when one was found.
    package var type: String?
    /// The choice that opened it (`firefox@Work`), when one did.
    package var choice: String?
    package var outcome: Outcome
    /// Where it came from (a desktop ID, SPEC §9.4), when that was found.
    package var source: String?
    /// What a newer choosy stored for the entry, kept as it was.
    var unknownMembers = UnknownJSONMembers()

    package init(
        time: Int, command: Command, link: String, type: String? = nil, choice: String? = nil, outcome: Outcome, source: String? = nil
    ) {
        self.time = time
        self.command = command
        self.link = link
        self.type = type
        self.choice = choice
        self.outcome = outcome
        self.source = source
    }

    private static let members = ["time", "command", "link", "type", "choice", "outcome", "source"]

    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        guard let command = Command(rawValue: try fields.required("command", .string)) else {
            throw JSONError(shape: "is neither handle nor route").inside("command")
        }
        guard let outcome = Outcome(rawValue: try fields.required("outcome", .string)) else {
            throw JSONError(shape: "is no outcome choosy knows").inside("outcome")
        }
        self.init(
            time: try fields.required("time", .int), command: command, link: try fields.required("link", .string),
            type: try fields.optional("type", .string), choice: try fields.optional("choice", .string), outcome: outcome,
            source: try fields.optional("source", .string))
        unknownMembers = fields.unknownMembers(known: Self.members)
    }

    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("time", .int(time)), ("command", .string(command.rawValue)), ("link", .string(link))]
        if let type { members.append(("type", .string(type))) }
        if let choice { members.append(("choice", .string(choice))) }
        members.append(("outcome", .string(outcome.rawValue)))
        if let source { members.append(("source", .string(source))) }
        return unknownMembers.object(after: members)
    }
}

/// `$XDG_STATE_HOME/choosy/history`: the links given to choosy, oldest first, one JSON object
/// a line, the newest `capacity` kept (doc/configuration.md, "History").
///
/// Every writer holds the exclusive lock of `history.lock` beside it (`FileSystem.lock`, as
/// every file of choosy's that several processes change) while it reads the file and then
/// either appends its one line (`FileSystem.append`, a single `O_APPEND` write) or, when the
/// file already holds `capacity` lines, replaces it atomically with the newest `capacity - 1`
/// and its own (`writeAtomically`). Writers are thus one after another: no line is lost but
/// those the cap drops, and none is torn. A reader takes no lock: it sees the file before or
/// after a replace, and may see an append in progress, whose line has no newline yet and is
/// left out; so is a line that cannot be read (a killed writer's, a foreign one), and a writer
/// that finds a line without its newline at the end replaces the file without it.
///
/// A file that cannot be read at all (not a regular file, a link, someone else's, too large)
/// never stops a link: a writer moves it aside (`history.corrupt-<time>`) and starts again, a
/// reader warns once and reads it as empty.
package struct LinkHistory {
    package static let capacity = 100
    /// The longest line kept: a link as long as an argument can be (128 KiB), in JSON. So
    /// `capacity` lines stay below the 16 MiB every file of choosy's is read up to.
    static let longestLine = 160 << 10

    package let path: String
    private let fileSystem: FileSystem
    private let warnings: CorruptFileWarnings
    private let clock: Clock
    /// This user: a file someone else owns is not read.
    private let userID: UInt32

    package init(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock, userID: UInt32) {
        path = joinPath(environment.stateHome, "choosy", "history")
        self.fileSystem = fileSystem
        self.warnings = warnings
        self.clock = clock
        self.userID = userID
    }

    private static let newline = UInt8(ascii: "\n")
    private var lockPath: String { path + ".lock" }

    /// Keeps `entry` as the newest. Fails (said under `-v`: the link has been opened) only when
    /// the state directory cannot be written, or the link is longer than any line kept.
    package func keep(_ entry: HistoryEntry) throws(ChoosyError) {
        let line = Array((entry.json.rendered() + "\n").utf8)
        guard line.count <= Self.longestLine else { throw .usage("a link this long is not kept in the history") }
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(lockPath, timeout: 30)
        } catch {
            throw .internal("cannot lock \(lockPath): \(Self.reason(of: error))")
        }
        defer { lock.unlock() }
        do {
            var bytes: [UInt8] = []
            switch stored() {
            case .missing: break
            case .readable(let stored): bytes = stored
            case .unreadable(let reason):
                if let aside = try fileSystem.moveAside(path, now: clock.now()) {
                    warnings.report(path, "\(path) could not be read (\(reason)): moved it to \(aside) and started a new history")
                }
            }
            let kept = Self.newest(Self.capacity - 1, in: bytes)
            if kept.start == 0 && kept.end == bytes.count {
                try fileSystem.append(line, to: path, permissions: 0o600)
            } else {
                // A killed writer's temporary file is garbage under the lock; looked for only here,
                // where a temporary file is made.
                fileSystem.removeAbandonedTemporaryFiles(of: path)
                var replaced: [UInt8] = []
                replaced.reserveCapacity(kept.end - kept.start + line.count)
                replaced += bytes[kept.start..<kept.end]
                replaced += line
                try fileSystem.writeAtomically(replaced, to: path, permissions: 0o600)
            }
        } catch {
            throw .internal("cannot keep the link in \(path): \(Self.reason(of: error))")
        }
    }

    /// The entries, newest first; a file that cannot be read is reported once and read as
    /// empty, and lines that cannot be read are left out with one warning.
    package func entries() -> [HistoryEntry] {
        let bytes: [UInt8]
        switch stored() {
        case .missing: return []
        case .readable(let stored): bytes = stored
        case .unreadable(let reason):
            warnings.report(path, "\(path) could not be read (\(reason)): no history until the next link moves it aside")
            return []
        }
        let lines = Self.newest(Self.capacity, in: bytes)
        var entries: [HistoryEntry] = []
        var unreadable = 0
        var end = lines.end
        while end > lines.start {
            let start = bytes.lastIndex(of: Self.newline, in: lines.start..<(end - 1)).map { $0 + 1 } ?? lines.start
            if let entry = try? HistoryEntry(json: JSONReader.parse(bytes[start..<(end - 1)])) {
                entries.append(entry)
            } else if end - 1 > start {
                unreadable += 1
            }
            end = start
        }
        if unreadable > 0 {
            warnings.report(path, "\(unreadable) line\(unreadable == 1 ? "" : "s") of \(path) could not be read: left out")
        }
        return entries
    }

    /// Empties the history: the file is removed.
    package func clear() throws(ChoosyError) {
        guard fileSystem.info(path) != nil || fileSystem.linkTarget(path) != nil else { return }
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(lockPath, timeout: 30)
        } catch {
            throw .internal("cannot lock \(lockPath): \(Self.reason(of: error))")
        }
        defer { lock.unlock() }
        fileSystem.remove(path)
        if fileSystem.info(path) != nil || fileSystem.linkTarget(path) != nil {
            throw .internal("cannot remove \(path)")
        }
    }

    private enum Stored {
        case missing
        case readable([UInt8])
        case unreadable(reason: String)
    }

    private func stored() -> Stored {
        // A link in its place is never followed: it could name any file.
        if fileSystem.linkTarget(path) != nil { return .unreadable(reason: "it is a symbolic link") }
        guard let info = fileSystem.info(path) else { return .missing }
        guard info.owner == userID else { return .unreadable(reason: "it belongs to another user") }
        do {
            return .readable(try fileSystem.read(path, limit: JSONReader.ownFileLimit))
        } catch {
            return .unreadable(reason: Self.reason(of: error))
        }
    }

    /// Where the newest `count` whole lines of `bytes` start and end: each ends with a newline,
    /// and what follows the last newline (a line still being written, or torn) is not one.
    static func newest(_ count: Int, in bytes: [UInt8]) -> (start: Int, end: Int) {
        let end = bytes.lastIndex(of: newline, in: 0..<bytes.count).map { $0 + 1 } ?? 0
        var start = end
        var found = 0
        while found < count && start > 0 {
            start = bytes.lastIndex(of: newline, in: 0..<(start - 1)).map { $0 + 1 } ?? 0
            found += 1
        }
        return (start, end)
    }

    private static func reason(of error: any Error) -> String {
        (error as? FileSystemError)?.reason ?? "\(error)"
    }
}
