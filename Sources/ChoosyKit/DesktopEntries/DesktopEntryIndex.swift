import Glibc
import Synchronization

/// The installed desktop entries (Desktop Entry spec, "Desktop File ID"): found in
/// `$XDG_DATA_HOME/applications`, then each `$XDG_DATA_DIRS/*/applications`, recursively;
/// `applications/kde/foo.desktop` has the ID `kde-foo.desktop`; the first directory holding an
/// ID wins, and `Hidden=true` there hides the ID entirely. A file that cannot be parsed is
/// skipped as if absent.
///
/// Looking up an ID probes its few possible paths instead of reading every entry. Looking up
/// the handlers of a URL scheme uses a map kept in `$XDG_CACHE_HOME/choosy/`, rebuilt whenever
/// an applications directory (or any subdirectory) changed. The index can exclude choosy's
/// own entry, so that a URL is never handed back to choosy.
public final class DesktopEntryIndex: Sendable {
    /// The `applications` directories, in precedence order.
    public let directories: [String]
    public let cachePath: String
    private let searchPath: [String]
    private let fileSystem: FileSystem
    private let clock: Clock
    /// The canonical path of the choosy executable, whose entries are never handlers.
    private let excludedExecutable: String?
    private let schemeMap = Mutex<[String: [String]]?>(nil)

    /// Subdirectory depth limit: real trees are one or two deep, and a symlink loop must end.
    private static let maxDepth = 8
    /// A directory changed this recently (seconds) may change again within the same
    /// timestamp tick, unseen; a map built from it is not saved.
    private static let racyInterval = 2.0

    public init(
        environment: Environment, excludingExecutable executable: String? = nil,
        fileSystem: FileSystem = LocalFileSystem(), clock: Clock = SystemClock()
    ) {
        var directories: [String] = []
        for base in [environment.dataHome] + environment.dataDirs {
            let directory = joinPath(base, "applications")
            if !directories.contains(directory) { directories.append(directory) }
        }
        self.directories = directories
        self.cachePath = joinPath(environment.cacheHome, "choosy", "desktop-entries.cache")
        self.searchPath = environment.searchPath
        self.fileSystem = fileSystem
        self.clock = clock
        self.excludedExecutable = executable.flatMap(canonicalPath)
    }

    // MARK: Lookup by ID

    /// The entry that has this ID, usable or not; nil when no directory has a readable file
    /// for it or when it is hidden.
    public func entry(id: String) -> DesktopEntry? {
        guard DesktopEntryIndex.isValidID(id) else { return nil }
        let name = id[...]
        for directory in directories {
            if let entry = firstEntry(named: name, id: id, in: directory, depth: 0) {
                return entry.isHidden ? nil : entry
            }
        }
        return nil
    }

    /// The entry with this ID when it is usable (and not choosy itself).
    public func usableEntry(id: String) -> DesktopEntry? {
        guard let entry = entry(id: id), unusableReason(entry) == nil else { return nil }
        return entry
    }

    /// Why the entry cannot be launched, or nil when it is usable: `Type=Application`, an
    /// `Exec` that parses with valid field codes and an absolute or bare program name, a
    /// `TryExec` (if any) naming an installed executable, and not choosy itself.
    /// `NoDisplay=true` does not matter: it only hides the entry from menus.
    public func unusableReason(_ entry: DesktopEntry) -> String? {
        guard entry.type == "Application" else { return "Type is not Application" }
        guard let exec = entry.exec else { return "it has no Exec" }
        let commandLine: ExecCommandLine
        do {
            commandLine = try ExecCommandLine(parsing: exec)
        } catch {
            return "invalid Exec: \(error)"
        }
        if let tryExec = entry.tryExec, !tryExec.isEmpty, !isInstalledExecutable(tryExec) {
            return "TryExec '\(tryExec)' is not an installed executable"
        }
        if entry.id == "choosy.desktop" || runsExcludedExecutable(commandLine.program) {
            return "it is choosy itself"
        }
        return nil
    }

    /// IDs name files below `applications/`; anything that could climb out is refused (IDs
    /// come from catalogs and `mimeapps.list`, which choosy does not control).
    static func isValidID(_ id: String) -> Bool {
        id.hasSuffix(".desktop") && id.utf8.count > 8 && !id.hasPrefix(".")
            && !id.contains("/") && !id.utf8.contains(0)
    }

    /// The first parseable file for `name` below `directory`: `a-b-c.desktop` may be
    /// `a-b-c.desktop`, `a/b-c.desktop`, `a-b/c.desktop` or `a/b/c.desktop`. Only prefixes
    /// that are directories are followed, so a lookup costs a few `stat`s.
    private func firstEntry(named name: Substring, id: String, in directory: String, depth: Int) -> DesktopEntry? {
        if let entry = DesktopEntryParser.read(joinPath(directory, String(name)), id: id, fileSystem: fileSystem) {
            return entry
        }
        guard depth < DesktopEntryIndex.maxDepth else { return nil }
        var searchStart = name.startIndex
        while let dash = name[searchStart...].firstIndex(of: "-") {
            let component = name[..<dash]
            if component != "." && component != "..", !component.isEmpty {
                let subdirectory = joinPath(directory, String(component))
                if fileSystem.info(subdirectory)?.kind == .directory,
                   let entry = firstEntry(named: name[name.index(after: dash)...], id: id, in: subdirectory, depth: depth + 1) {
                    return entry
                }
            }
            searchStart = name.index(after: dash)
        }
        return nil
    }

    private func isInstalledExecutable(_ program: String) -> Bool {
        // A relative path with a slash would depend on choosy's own working directory.
        if !program.hasPrefix("/") && program.contains("/") { return false }
        return resolveExecutable(program, searchPath: searchPath, fileSystem: fileSystem) != nil
    }

    private func runsExcludedExecutable(_ program: String) -> Bool {
        guard let excludedExecutable, program.hasPrefix("/") || !program.contains("/"),
              let resolved = resolveExecutable(program, searchPath: searchPath, fileSystem: fileSystem)
        else { return false }
        return canonicalPath(resolved) == excludedExecutable
    }

    // MARK: Lookup by URL scheme

    /// The usable entries whose `MimeType` lists `x-scheme-handler/<scheme>`, in precedence
    /// order (directory, then path). Each is re-read, so an entry edited in place or made
    /// unusable since the map was saved is never returned.
    public func handlers(forScheme scheme: String) -> [DesktopEntry] {
        let scheme = scheme.lowercased()
        let mimeType = "x-scheme-handler/" + scheme
        let ids = schemeMap.withLock { map in
            if map == nil { map = loadOrBuildSchemeMap() }
            return map?[scheme] ?? []
        }
        return ids.compactMap { id in
            guard let entry = usableEntry(id: id), entry.handles(mimeType) else { return nil }
            return entry
        }
    }

    private func loadOrBuildSchemeMap() -> [String: [String]] {
        if let bytes = try? fileSystem.read(cachePath, limit: 16 << 20),
           let cache = SchemeCache(decoding: bytes),
           cache.roots == directories,
           cache.directories.allSatisfy({ modificationTime(of: $0.path) == $0.modified }) {
            return cache.handlers
        }
        let cache = scan()
        let racy = Int64((clock.now() - DesktopEntryIndex.racyInterval) * 1e9)
        if !cache.directories.contains(where: { $0.modified >= racy }) {
            // A cache that cannot be written is only slower next time.
            try? fileSystem.writeAtomically(cache.encoded(), to: cachePath, permissions: 0o600)
        }
        return cache.handlers
    }

    /// Nanoseconds, or -1 when the path is not a directory (a directory created later then
    /// invalidates the cache too).
    private func modificationTime(of directory: String) -> Int64 {
        guard let info = fileSystem.info(directory), info.kind == .directory else { return -1 }
        return info.modified
    }

    /// Reads every entry once and maps schemes to the IDs of winning, non-hidden applications.
    private func scan() -> SchemeCache {
        var seen: [(path: String, modified: Int64)] = []
        var pathsByID: [String: [(root: Int, path: String)]] = [:]
        var order: [String] = []

        func walk(_ directory: String, prefix: String, root: Int, depth: Int) {
            seen.append((directory, modificationTime(of: directory)))
            guard let names = fileSystem.list(directory) else { return }
            for name in names.sorted() {
                let path = joinPath(directory, name)
                if name.hasSuffix(".desktop") {
                    let id = prefix + name
                    guard DesktopEntryIndex.isValidID(id) else { continue }
                    if pathsByID[id] == nil { order.append(id) }
                    pathsByID[id, default: []].append((root, path))
                } else if depth < DesktopEntryIndex.maxDepth, name != ".", name != "..",
                          fileSystem.info(path)?.kind == .directory {
                    walk(path, prefix: prefix + name + "-", root: root, depth: depth + 1)
                }
            }
        }
        for (root, directory) in directories.enumerated() {
            walk(directory, prefix: "", root: root, depth: 0)
        }

        var handlers: [String: [String]] = [:]
        for id in order {
            let paths = pathsByID[id] ?? []
            let entry: DesktopEntry?
            if Set(paths.map(\.root)).count < paths.count {
                // Two files with one ID in the same directory: let the probe pick, as lookups do.
                entry = self.entry(id: id)
            } else {
                let winner = paths.lazy.compactMap { DesktopEntryParser.read($0.path, id: id, fileSystem: self.fileSystem) }.first
                entry = winner?.isHidden == true ? nil : winner
            }
            guard let entry, entry.type == "Application" else { continue }
            var schemes: [String] = []
            for mimeType in entry.mimeTypes {
                let lowered = mimeType.lowercased()
                guard lowered.hasPrefix("x-scheme-handler/") else { continue }
                let scheme = String(lowered.dropFirst("x-scheme-handler/".count))
                if !scheme.isEmpty && !schemes.contains(scheme) { schemes.append(scheme) }
            }
            for scheme in schemes { handlers[scheme, default: []].append(id) }
        }
        return SchemeCache(roots: directories, directories: seen, handlers: handlers)
    }
}

/// The saved scheme map and what it was built from. A line-based text file: a header, `R`
/// lines (the applications roots, in order), `D` lines (every directory with its mtime) and
/// `S` lines (a scheme and its IDs); fields are tab-separated and percent-escaped.
struct SchemeCache {
    static let header = "choosy-desktop-index 1"

    var roots: [String]
    var directories: [(path: String, modified: Int64)]
    var handlers: [String: [String]]

    init(roots: [String], directories: [(path: String, modified: Int64)], handlers: [String: [String]]) {
        self.roots = roots
        self.directories = directories
        self.handlers = handlers
    }

    /// Nil for anything but a well-formed cache of this version.
    init?(decoding bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(SchemeCache.header), lines.last == "" else { return nil }
        lines.removeFirst()
        lines.removeLast()
        var roots: [String] = []
        var directories: [(path: String, modified: Int64)] = []
        var handlers: [String: [String]] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let values = fields.dropFirst().compactMap(SchemeCache.unescape)
            guard values.count == fields.count - 1 else { return nil }
            switch fields.first {
            case "R" where values.count == 1:
                roots.append(values[0])
            case "D" where values.count == 2:
                guard let modified = Int64(values[0]) else { return nil }
                directories.append((values[1], modified))
            case "S" where values.count >= 2:
                guard handlers[values[0]] == nil else { return nil }
                handlers[values[0]] = Array(values.dropFirst())
            default:
                return nil
            }
        }
        self.init(roots: roots, directories: directories, handlers: handlers)
    }

    func encoded() -> [UInt8] {
        var text = SchemeCache.header + "\n"
        for root in roots { text += "R\t\(SchemeCache.escape(root))\n" }
        for directory in directories { text += "D\t\(directory.modified)\t\(SchemeCache.escape(directory.path))\n" }
        for scheme in handlers.keys.sorted() {
            text += (["S", SchemeCache.escape(scheme)] + handlers[scheme]!.map(SchemeCache.escape)).joined(separator: "\t") + "\n"
        }
        return Array(text.utf8)
    }

    /// File names may hold tabs and newlines; they must not break the line format.
    private static func escape(_ field: String) -> String {
        var result = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\t": result += "%09"
            case "\n": result += "%0A"
            case "\r": result += "%0D"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func unescape(_ field: Substring) -> String? {
        var result = ""
        var rest = field[...]
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let code = rest[rest.index(after: percent)...].prefix(2)
            switch code {
            case "25": result += "%"
            case "09": result += "\t"
            case "0A": result += "\n"
            case "0D": result += "\r"
            default: return nil
            }
            rest = rest[rest.index(percent, offsetBy: 3)...]
        }
        return result + rest
    }
}

/// The path with every symlink resolved, or nil when it does not exist.
func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
