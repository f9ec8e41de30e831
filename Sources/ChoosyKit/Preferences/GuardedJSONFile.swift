/// A JSON file of choosy's own in `$XDG_CONFIG_HOME/choosy/` (preferences, site rules). Every
/// change is a read-modify-write under an exclusive lock with an atomic replace, so concurrent
/// choosy processes never lose a completed write and a crash never tears the file. A file that
/// cannot be read is moved aside (`<name>.corrupt-<time>`) and reported, never silently dropped.
package struct GuardedJSONFile<Contents> {
    /// What to do after a corrupt file was moved aside.
    package enum WhenCorrupt {
        /// Go on with empty contents; the warning says what was lost (`no remembered apps`).
        case startEmpty(String)
        /// Fail with exit 7: the command was about to build on what the file said.
        case refuse
    }

    package let path: String
    private let fileSystem: FileSystem
    private let diagnostics: DiagnosticSink
    private let clock: Clock
    private let empty: Contents
    private let decode: (JSONValue) throws(JSONError) -> Contents
    private let encode: (Contents) -> JSONValue

    package init(
        path: String, fileSystem: FileSystem, diagnostics: DiagnosticSink, clock: Clock, empty: Contents,
        decode: @escaping (JSONValue) throws(JSONError) -> Contents, encode: @escaping (Contents) -> JSONValue
    ) {
        self.path = path
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
        self.clock = clock
        self.empty = empty
        self.decode = decode
        self.encode = encode
    }

    private var lockPath: String { path + ".lock" }

    /// Applies `change` to the latest stored contents and saves them.
    package func modify(whenCorrupt: WhenCorrupt, _ change: (inout Contents) throws(ChoosyError) -> Void) throws(ChoosyError) {
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(lockPath, timeout: 30)
        } catch {
            throw .internal("cannot lock \(path): \(error)")
        }
        defer { lock.unlock() }
        // A process killed mid-write leaves its temporary file; under the lock it is garbage.
        fileSystem.removeAbandonedTemporaryFiles(of: path)
        var contents = try load(whenCorrupt: whenCorrupt)
        try change(&contents)
        do {
            try fileSystem.writeAtomically(Array((encode(contents).rendered(indented: true) + "\n").utf8), to: path, permissions: 0o600)
        } catch {
            throw .internal("cannot save \(path): \(error)")
        }
    }

    /// The stored contents; empty when there is no file.
    package func load(whenCorrupt: WhenCorrupt) throws(ChoosyError) -> Contents {
        guard fileSystem.info(path) != nil else { return empty }
        let reason: String
        do {
            return try decode(JSONReader.parse(fileSystem.read(path, limit: 8 << 20)))
        } catch {
            reason = "\(error)"
        }
        let aside = try moveAside()
        switch whenCorrupt {
        case .startEmpty(let lost):
            if let aside { diagnostics.warning("\(path) was corrupt: moved it to \(aside) and started with \(lost) (\(reason))") }
            return empty
        case .refuse:
            throw .corrupt("\(path) was corrupt: moved it to \(aside ?? "a file beside it") (\(reason)); nothing was changed")
        }
    }

    /// The stored contents, or nil when the file is missing or cannot be read; nothing is moved
    /// or reported.
    package func readable() -> Contents? {
        guard let bytes = try? fileSystem.read(path, limit: 8 << 20) else { return nil }
        return try? decode(JSONReader.parse(bytes))
    }

    /// Where the file went; nil when another process moved it first.
    private func moveAside() throws(ChoosyError) -> String? {
        // A second corrupt file in the same second must not replace the first one moved aside.
        let stamp = "\(path).corrupt-\(Int(clock.now()))"
        var aside = stamp
        var copy = 1
        while fileSystem.info(aside) != nil {
            copy += 1
            aside = "\(stamp)-\(copy)"
        }
        do {
            try fileSystem.rename(path, to: aside)
        } catch {
            // Another process may have moved it already; only a file still there is a problem.
            guard fileSystem.info(path) == nil else {
                throw .corrupt("\(path) is corrupt and cannot be moved aside: \(error)")
            }
            return nil
        }
        return aside
    }
}
