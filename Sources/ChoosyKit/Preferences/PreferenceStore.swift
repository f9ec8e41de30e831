import FoundationEssentials

/// What choosy remembers for one app type.
public struct TypePreference: Codable, Equatable, Sendable {
    /// The app picked *always*, if any.
    public var defaultApp: String?
    /// The installed apps of the type the last time the user was shown a choice, so a new app
    /// can make choosy ask again.
    public var seen: [String]

    public init(defaultApp: String? = nil, seen: [String] = []) {
        self.defaultApp = defaultApp
        self.seen = seen
    }

    enum CodingKeys: String, CodingKey {
        case defaultApp = "default", seen
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaultApp = try container.decodeIfPresent(String.self, forKey: .defaultApp)
        seen = try container.decodeIfPresent([String].self, forKey: .seen) ?? []
    }
}

/// `$XDG_CONFIG_HOME/choosy/preferences.json`. Every change is a read-modify-write under an
/// exclusive lock with an atomic replace, so concurrent choosy processes never lose a
/// completed write and a crash never tears the file. A file that cannot be read is moved
/// aside (`preferences.json.corrupt-<time>`) and reported, never silently dropped.
public final class PreferenceStore {
    private struct File: Codable {
        var version = 1
        var types: [String: TypePreference] = [:]

        init() {}

        /// The file read from `PlainJSON`, as `JSONDecoder` would read it; nil (decode with
        /// `JSONDecoder`) for anything but the plain shape choosy writes: `version` an integer,
        /// `types` an object of objects whose `default` is a string and `seen` an array of
        /// strings (each may be null or missing).
        init?(plain bytes: [UInt8]) {
            guard case .object(let members)? = PlainJSON.parse(bytes),
                  case .integer(let version)? = members["version"],
                  case .object(let types)? = members["types"]
            else { return nil }
            self.version = version
            for (key, value) in types {
                guard case .object(let fields) = value else { return nil }
                var preference = TypePreference()
                switch fields["default"] {
                case nil, .null?: break
                case .string(let app)?: preference.defaultApp = app
                default: return nil
                }
                switch fields["seen"] {
                case nil, .null?: break
                case .array(let items)?:
                    for item in items {
                        guard case .string(let app) = item else { return nil }
                        preference.seen.append(app)
                    }
                default: return nil
                }
                self.types[key] = preference
            }
        }
    }

    public let path: String
    private let fileSystem: FileSystem
    private let diagnostics: DiagnosticSink
    private let clock: Clock

    public init(environment: Environment, fileSystem: FileSystem, diagnostics: DiagnosticSink, clock: Clock) {
        path = joinPath(environment.configHome, "choosy", "preferences.json")
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
        self.clock = clock
    }

    private var lockPath: String { path + ".lock" }

    public func preference(for type: String) throws(ChoosyError) -> TypePreference {
        try load().types[type] ?? TypePreference()
    }

    public func all() throws(ChoosyError) -> [String: TypePreference] {
        try load().types
    }

    /// Applies `change` to the latest stored value of `type` and saves it.
    public func update(_ type: String, _ change: (inout TypePreference) -> Void) throws(ChoosyError) {
        try modify { file in
            var preference = file.types[type] ?? TypePreference()
            change(&preference)
            file.types[type] = preference == TypePreference() ? nil : preference
        }
    }

    /// Forgets the default of every type (the lists of seen apps go too).
    public func resetAll() throws(ChoosyError) {
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
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try fileSystem.writeAtomically(Array(try encoder.encode(file)) + [0x0A], to: path, permissions: 0o600)
        } catch {
            throw .internal("cannot save \(path): \(error)")
        }
    }

    private func load() throws(ChoosyError) -> File {
        guard fileSystem.info(path) != nil else { return File() }
        do {
            let bytes = try fileSystem.read(path, limit: 8 << 20)
            if let file = File(plain: bytes) { return file }
            return try JSONDecoder().decode(File.self, from: Data(bytes))
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
