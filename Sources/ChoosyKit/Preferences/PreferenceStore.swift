/// What choosy remembers for one app type.
package struct TypePreference: Equatable, Sendable {
    /// The app picked *always*, if any.
    package var defaultApp: String?
    /// The installed apps of the type the last time the user was shown a choice, so a new app
    /// can make choosy ask again.
    package var seen: [String]

    package init(defaultApp: String? = nil, seen: [String] = []) {
        self.defaultApp = defaultApp
        self.seen = seen
    }

    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        self.init(defaultApp: try fields.optional("default", .string), seen: try fields.optional("seen", .array(of: .string)) ?? [])
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let defaultApp { members.append(("default", .string(defaultApp))) }
        members.append(("seen", .strings(seen)))
        return .object(members)
    }
}

/// `$XDG_CONFIG_HOME/choosy/preferences.json`. Every change is a read-modify-write under an
/// exclusive lock with an atomic replace, so concurrent choosy processes never lose a
/// completed write and a crash never tears the file. A file that cannot be read is moved
/// aside (`preferences.json.corrupt-<time>`) and reported, never silently dropped.
package final class PreferenceStore {
    private struct File {
        var version = 1
        var types: [String: TypePreference] = [:]

        init() {}

        init(json: JSONValue) throws(JSONError) {
            let fields = try JSONFields(json)
            version = try fields.required("version", .int)
            types = try fields.required("types", .dictionary(of: JSONShape(TypePreference.init(json:))))
        }

        /// Indented, with names in order (the layout `JSONEncoder` gave it).
        var json: JSONValue {
            .object([("types", .object(sortedByName: types.mapValues(\.json))), ("version", .int(version))])
        }
    }

    package let path: String
    private let fileSystem: FileSystem
    private let diagnostics: DiagnosticSink
    private let clock: Clock

    package init(environment: Environment, fileSystem: FileSystem, diagnostics: DiagnosticSink, clock: Clock) {
        path = joinPath(environment.configHome, "choosy", "preferences.json")
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
        self.clock = clock
    }

    private var lockPath: String { path + ".lock" }

    package func preference(for type: String) throws(ChoosyError) -> TypePreference {
        try load().types[type] ?? TypePreference()
    }

    package func all() throws(ChoosyError) -> [String: TypePreference] {
        try load().types
    }

    /// Applies `change` to the latest stored value of `type` and saves it.
    package func update(_ type: String, _ change: (inout TypePreference) -> Void) throws(ChoosyError) {
        try modify { file in
            var preference = file.types[type] ?? TypePreference()
            change(&preference)
            file.types[type] = preference == TypePreference() ? nil : preference
        }
    }

    /// Forgets the default of every type (the lists of seen apps go too).
    package func resetAll() throws(ChoosyError) {
        try modify { $0.types = [:] }
    }

    private func modify(_ change: (inout File) -> Void) throws(ChoosyError) {
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(lockPath, timeout: 30)
        } catch {
            throw .internal("cannot lock \(path): \(error)")
        }
        defer { lock.unlock() }
        // A process killed mid-write leaves its temporary file; under the lock it is garbage.
        fileSystem.removeAbandonedTemporaryFiles(of: path)
        var file = try load()
        change(&file)
        do {
            try fileSystem.writeAtomically(Array((file.json.rendered(indented: true) + "\n").utf8), to: path, permissions: 0o600)
        } catch {
            throw .internal("cannot save \(path): \(error)")
        }
    }

    private func load() throws(ChoosyError) -> File {
        guard fileSystem.info(path) != nil else { return File() }
        do {
            return try File(json: JSONReader.parse(fileSystem.read(path, limit: 8 << 20)))
        } catch {
            try moveAside()
            return File()
        }
    }

    private func moveAside() throws(ChoosyError) {
        let aside = "\(path).corrupt-\(Int(clock.now()))"
        do {
            try fileSystem.rename(path, to: aside)
        } catch {
            // Another process may have moved it already; only a file still there is a problem.
            guard fileSystem.info(path) == nil else {
                throw .corrupt("\(path) is corrupt and cannot be moved aside: \(error)")
            }
            return
        }
        diagnostics.warning("\(path) was corrupt: moved it to \(aside) and started with no remembered apps")
    }
}
