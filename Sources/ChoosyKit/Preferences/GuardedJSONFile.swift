/// A JSON file of choosy's own in `$XDG_CONFIG_HOME/choosy/` (preferences, site rules) or
/// `$XDG_STATE_HOME/choosy/` (counts of picks). Every change is a read-modify-write under an
/// exclusive lock with an atomic replace, so concurrent choosy processes never lose a completed
/// write and a crash never tears the file.
///
/// A file that cannot be read never stops a command that only reads it: it is reported once
/// and read as empty, and left where it is. Only a change moves it aside
/// (`<name>.corrupt-<time>`), so it is never silently lost; when it cannot be moved (a
/// read-only or foreign directory) the change fails with exit 7. A file of a newer `version`
/// than `understoodVersion` is read as far as its decoder understands it and is never
/// changed or moved (doc/configuration.md, "Corrupt and newer files").
package struct GuardedJSONFile<Contents: GuardedJSONContents> {
    /// What a change does after a corrupt file was moved aside.
    package enum WhenCorrupt {
        /// Go on with empty contents; the warning says what was lost (`no remembered apps`).
        case startEmpty
        /// Fail with exit 7: the command was about to build on what the file said.
        case refuse
    }

    package let path: String
    private let fileSystem: FileSystem
    private let warnings: CorruptFileWarnings
    private let clock: Clock

    package init(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock) {
        path = joinPath(Contents.directory(in: environment), "choosy", Contents.fileName)
        self.fileSystem = fileSystem
        self.warnings = warnings
        self.clock = clock
    }

    private var empty: Contents { Contents() }
    private var lost: String { Contents.lost }
    private var understoodVersion: Int { Contents.understoodVersion }

    /// What is stored, as far as this choosy can tell.
    private enum Stored {
        case missing
        /// `newer`: the file's version, when it is newer than this choosy understands.
        case read(Contents, newer: Int?)
        case corrupt(reason: String, newer: Int?)
    }

    private var lockPath: String { path + ".lock" }

    /// Applies `change` to the latest stored contents and saves them.
    package func modify(whenCorrupt: WhenCorrupt, _ change: (inout Contents) throws(ChoosyError) -> Void) throws(ChoosyError) {
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(lockPath, timeout: 30)
        } catch let error as FileSystemError where error.isNotRegularFile {
            throw .corrupt("\(lockPath) is not a regular file (a FIFO, socket, device or link); remove it: nothing was changed")
        } catch {
            // A read-only or foreign directory: a corrupt file there cannot be moved aside either.
            if case .corrupt(let reason, _) = stored() {
                throw .corrupt("\(path) is corrupt (\(reason)) and cannot be moved aside (\(Self.reason(of: error))); fix or remove it")
            }
            throw .internal("cannot lock \(path): \(Self.reason(of: error))")
        }
        defer { lock.unlock() }
        // A process killed mid-write leaves its temporary file; under the lock it is garbage.
        fileSystem.removeAbandonedTemporaryFiles(of: path)
        var contents: Contents
        switch stored() {
        case .missing:
            contents = empty
        case .read(_, let newer?), .corrupt(_, let newer?):
            throw .corrupt(
                "\(path) was written by a newer choosy (version \(newer); this one knows version \(understoodVersion)): it is left as it is and nothing was changed"
            )
        case .read(let stored, nil):
            contents = stored
        case .corrupt(let reason, nil):
            let aside = try moveAside(reason: reason)
            switch whenCorrupt {
            case .startEmpty:
                if let aside { warnings.report(aside, "\(path) was corrupt: moved it to \(aside) and started with \(lost) (\(reason))") }
                contents = empty
            case .refuse:
                throw .corrupt("\(path) was corrupt: moved it to \(aside ?? "a file beside it") (\(reason)); nothing was changed")
            }
        }
        try change(&contents)
        do {
            try fileSystem.writeAtomically(Array((contents.json.rendered(indented: true) + "\n").utf8), to: path, permissions: 0o600)
        } catch {
            throw .internal("cannot save \(path): \(Self.reason(of: error))")
        }
    }

    /// The stored contents; empty when there is no file. A corrupt file is reported once and
    /// read as empty, and stays where it is.
    package func load() -> Contents {
        reported(stored()).contents
    }

    /// The file's bytes, or nil when it is missing or cannot be read: for a cache of what
    /// they hold, which `load(_:)` reads when the cache does not stand for them.
    package func bytes() -> [UInt8]? {
        try? fileSystem.read(path, limit: JSONReader.ownFileLimit)
    }

    /// `load()` of the file that holds `bytes`, and whether they read cleanly as this choosy's
    /// version (only then may a cache stand for what they hold).
    package func load(_ bytes: [UInt8]) -> (contents: Contents, isCurrent: Bool) {
        reported(stored(bytes))
    }

    private func reported(_ stored: Stored) -> (contents: Contents, isCurrent: Bool) {
        switch stored {
        case .missing:
            return (empty, false)
        case .read(let contents, nil):
            return (contents, true)
        case .read(let contents, let newer?):
            warnings.report(
                path,
                "\(path) was written by a newer choosy (version \(newer); this one knows version \(understoodVersion)): using what it understands, and changing nothing in it"
            )
            return (contents, false)
        case .corrupt(let reason, _):
            warnings.report(path, "\(path) is corrupt (\(reason)): going on with \(lost); the next command that changes it moves it aside")
            return (empty, false)
        }
    }

    /// The stored contents, or nil when the file is missing or cannot be read; nothing is
    /// reported.
    package func readable() -> Contents? {
        guard case .read(let contents, _) = stored() else { return nil }
        return contents
    }

    private func stored() -> Stored {
        guard fileSystem.info(path) != nil else { return .missing }
        do {
            return stored(try fileSystem.read(path, limit: JSONReader.ownFileLimit))
        } catch {
            return .corrupt(reason: Self.reason(of: error), newer: nil)
        }
    }

    private func stored(_ bytes: [UInt8]) -> Stored {
        let json: JSONValue
        do throws(JSONError) {
            json = try JSONReader.parse(bytes)
        } catch {
            return .corrupt(reason: Self.reason(of: error), newer: nil)
        }
        let version = json["version"]?.int
        let newer = version.flatMap { $0 > understoodVersion ? $0 : nil }
        do {
            return .read(try Contents(json: json), newer: newer)
        } catch {
            return .corrupt(reason: "\(error)", newer: newer)
        }
    }

    /// Where the file went; nil when another process moved it first.
    private func moveAside(reason: String) throws(ChoosyError) -> String? {
        do {
            return try fileSystem.moveAside(path, now: clock.now())
        } catch {
            throw .corrupt("\(path) is corrupt (\(reason)) and cannot be moved aside (\(Self.reason(of: error))); fix or remove it")
        }
    }

    /// A file system error without the path the message already names.
    private static func reason(of error: any Error) -> String {
        (error as? FileSystemError)?.reason ?? "\(error)"
    }
}

/// What a `GuardedJSONFile` holds: one of choosy's own files, a `version`, what this choosy
/// reads of it, and the members a newer choosy wrote, kept as they were.
package protocol GuardedJSONContents {
    /// Its name in `choosy/` of `directory`.
    static var fileName: String { get }
    /// `$XDG_CONFIG_HOME` for what the user decided; `$XDG_STATE_HOME` for what choosy counts.
    static func directory(in environment: Environment) -> String
    /// What reading the file as empty loses, in words (`no remembered apps`).
    static var lost: String { get }
    /// The version this choosy writes; a newer file is never changed.
    static var understoodVersion: Int { get }
    /// The members this choosy reads, besides `version`.
    static var members: Set<String> { get }
    var version: Int { get set }
    var unknownMembers: UnknownJSONMembers { get set }
    /// The contents of a missing file.
    init()
    /// Reads `members`; entries that cannot be read are skipped when `skippingFailures` (a
    /// newer choosy wrote them) and fail the file otherwise.
    mutating func read(_ fields: JSONFields, skippingFailures: Bool) throws(JSONError)
    var json: JSONValue { get }
}

extension GuardedJSONContents {
    package static func directory(in environment: Environment) -> String { environment.configHome }

    init(json: JSONValue) throws(JSONError) {
        self.init()
        let fields = try JSONFields(json)
        version = try fields.required("version", .int)
        try read(fields, skippingFailures: version > Self.understoodVersion)
        unknownMembers = fields.unknownMembers(known: Array(Self.members) + ["version"])
    }
}
