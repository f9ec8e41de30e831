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
/// an applications directory (or any subdirectory) changed; a rebuild takes what a directory's
/// `mimeinfo.cache` lists when it is no older than the directory (as GIO reads it), else parses
/// only the entries whose bytes may name a scheme. The index can exclude choosy's own entry,
/// so that a URL is never handed back to choosy.
package final class DesktopEntryIndex: Sendable {
    /// The `applications` directories, in precedence order.
    package let directories: [String]
    package let cachePath: String
    private let searchPath: [String]
    private let fileSystem: FileSystem
    private let clock: Clock
    /// The canonical path of the choosy executable, whose entries are never handlers.
    private let excludedExecutable: String?
    private let schemeMap = Mutex<SchemeCache?>(nil)
    /// Entries already found by ID: one command asks for the same few many times (probing,
    /// associations, picker order), and a real entry with its translations is long to parse.
    private let located = Mutex<[String: Located?]>([:])
    private typealias Located = (entry: DesktopEntry, rank: Int)
    /// Per entry file, why it is unusable (nil: usable) and the schemes its `MimeType` lists,
    /// worked out once per command for the same reason.
    private let unusable = Mutex<[String: String?]>([:])
    private let schemesByPath = Mutex<[String: Set<String>]>([:])

    /// Subdirectory depth limit: real trees are one or two deep, and a symlink loop must end.
    private static let maxDepth = 8
    /// A directory changed this recently (seconds) may change again within the same
    /// timestamp tick, unseen; a map built from it is not saved.
    private static let racyInterval = 2.0

    package init(
        environment: Environment, excludingExecutable executable: String? = nil,
        fileSystem: FileSystem, clock: Clock
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
    package func entry(id: String) -> DesktopEntry? {
        locate(id: id)?.entry
    }

    /// The entry that has this ID and the rank of the applications directory that holds it
    /// (0 for `$XDG_DATA_HOME/applications`, then each data dir in order); nil as for `entry`.
    package func locate(id: String) -> (entry: DesktopEntry, rank: Int)? {
        if let known = located.withLock({ $0[id] }) { return known }
        let found = search(id: id)
        located.withLock { $0[id] = .some(found) }
        return found
    }

    private func search(id: String) -> Located? {
        guard DesktopEntryIndex.isValidID(id) else { return nil }
        let name = id[...]
        for (rank, directory) in directories.enumerated() {
            if let entry = firstEntry(named: name, id: id, in: directory, depth: 0) {
                return entry.isHidden ? nil : (entry, rank)
            }
        }
        return nil
    }

    /// The entry with this ID when it is usable (and not choosy itself).
    package func usableEntry(id: String) -> DesktopEntry? {
        guard let entry = entry(id: id), unusableReason(entry) == nil else { return nil }
        return entry
    }

    /// Whether the entry is choosy's own (its ID, or an `Exec` that runs this choosy).
    package func isChoosy(_ entry: DesktopEntry) -> Bool {
        isChoosy(entry, commandLine: entry.exec.flatMap { try? ExecCommandLine(parsing: $0) })
    }

    private func isChoosy(_ entry: DesktopEntry, commandLine: ExecCommandLine?) -> Bool {
        entry.id == "choosy.desktop" || commandLine.map { runsExcludedExecutable($0.program) } == true
    }

    /// Why the entry cannot be launched, or nil when it is usable: `Type=Application`, an
    /// `Exec` that parses with valid field codes and an absolute or bare program name, a
    /// `TryExec` (if any) naming an installed executable, and not choosy itself.
    /// `NoDisplay=true` does not matter: it only hides the entry from menus.
    package func unusableReason(_ entry: DesktopEntry) -> String? {
        if let known = unusable.withLock({ $0[entry.path] }) { return known }
        let reason = findUnusableReason(entry)
        unusable.withLock { $0[entry.path] = .some(reason) }
        return reason
    }

    private func findUnusableReason(_ entry: DesktopEntry) -> String? {
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
        if isChoosy(entry, commandLine: commandLine) { return "it is choosy itself" }
        return nil
    }

    /// IDs name files below `applications/`; anything that could climb out is refused (IDs
    /// come from catalogs and `mimeapps.list`, which choosy does not control). By byte: a `/`
    /// that a combining mark follows is no `/` Character, and a search by Character cost a
    /// rebuild more than listing the directories.
    static func isValidID(_ id: String) -> Bool {
        id.hasSuffix(".desktop") && id.utf8.count > 8 && !id.hasPrefix(".")
            && !id.utf8.contains(UInt8(ascii: "/")) && !id.utf8.contains(0)
    }

    /// The first parseable file for `name` below `directory`: `a-b-c.desktop` may be
    /// `a-b-c.desktop`, `a/b-c.desktop`, `a-b/c.desktop` or `a/b/c.desktop`. Only prefixes
    /// that are directories are followed, so a lookup costs a few `stat`s.
    private func firstEntry(named name: Substring, id: String, in directory: String, depth: Int) -> DesktopEntry? {
        if let entry = DesktopEntryParser.read(joinPath(directory, String(name)), id: id, fileSystem: fileSystem) {
            return entry
        }
        guard depth < DesktopEntryIndex.maxDepth else { return nil }
        // By byte: `-` is ASCII, and a search by Character cost more than the `stat`s.
        var searchStart = name.startIndex
        while let dash = name.utf8[searchStart...].firstIndex(of: UInt8(ascii: "-")) {
            let component = name[..<dash]
            let afterDash = name.utf8.index(after: dash)
            if component != "." && component != "..", !component.isEmpty {
                let subdirectory = joinPath(directory, String(component))
                if fileSystem.info(subdirectory)?.kind == .directory,
                    let entry = firstEntry(named: name[afterDash...], id: id, in: subdirectory, depth: depth + 1)
                {
                    return entry
                }
            }
            searchStart = afterDash
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

    /// The usable entries whose own `MimeType` lists `x-scheme-handler/<scheme>`, in
    /// precedence order (directory, then path), each with the rank of its directory. This is
    /// only what the entries declare: `MimeAppsList.associations(forScheme:)` applies the
    /// user's and the system's `mimeapps.list` to it. Each is re-read, so an entry edited in
    /// place or made unusable since the map was saved is never returned.
    package func declaredHandlers(forScheme scheme: String) -> [(entry: DesktopEntry, rank: Int)] {
        let scheme = scheme.lowercased()
        let ids = schemeMap.withLock { map in
            if map == nil { map = loadOrBuildSchemeMap() }
            return map?.ids(forScheme: scheme) ?? []
        }
        return ids.compactMap { id in
            guard let found = locate(id: id), unusableReason(found.entry) == nil, declaredSchemes(of: found.entry).contains(scheme) else {
                return nil
            }
            return found
        }
    }

    /// The schemes of the `x-scheme-handler/*` types the entry's `MimeType` lists, lowercased.
    private func declaredSchemes(of entry: DesktopEntry) -> Set<String> {
        if let known = schemesByPath.withLock({ $0[entry.path] }) { return known }
        let schemes = Set(entry.mimeTypes.compactMap(DesktopEntryIndex.scheme(handledBy:)))
        schemesByPath.withLock { $0[entry.path] = schemes }
        return schemes
    }

    private func loadOrBuildSchemeMap() -> SchemeCache {
        if let bytes = try? fileSystem.read(cachePath, limit: JSONReader.ownFileLimit),
            let cache = SchemeCache(decoding: bytes),
            cache.roots == directories,
            cache.directories.allSatisfy({ modificationTime(of: $0.path) == $0.modified })
        {
            return cache
        }
        let cache = scan()
        let racy = Int64((clock.now() - DesktopEntryIndex.racyInterval) * 1e9)
        if !cache.directories.contains(where: { $0.modified >= racy }) {
            // A cache that cannot be written is only slower next time.
            try? fileSystem.writeAtomically(cache.encoded(), to: cachePath, permissions: 0o600)
        }
        return cache
    }

    /// Nanoseconds, or -1 when the path is not a directory (a directory created later then
    /// invalidates the cache too).
    private func modificationTime(of directory: String) -> Int64 {
        guard let info = fileSystem.info(directory), info.kind == .directory else { return -1 }
        return info.modified
    }

    /// Lists every applications directory and maps schemes to the IDs that may handle them.
    private func scan() -> SchemeCache {
        var pathsByID: [String: [(root: Int, path: String)]] = [:]
        var order: [String] = []
        let (seen, newest) = walk { id, root, path in
            if pathsByID[id] == nil { order.append(id) }
            pathsByID[id, default: []].append((root, path))
        }

        // The map holds, per scheme, every ID with a file that names it, whichever file wins:
        // `declaredHandlers` keeps those whose winning entry does, so no entry needs to be
        // parsed to know which one wins. A file names the schemes its directory's
        // `mimeinfo.cache` lists it for, when that file can be trusted (most of a rebuild was
        // parsing entries); otherwise its own, read only when its bytes may name one.
        let listed = directories.enumerated().map { root, directory in schemesListed(in: directory, notOlderThan: newest[root]) }
        var handlers: [String: [String]] = [:]
        for id in order {
            var schemes: [String] = []
            for file in pathsByID[id] ?? [] {
                let named = listed[file.root].map { $0[id] ?? [] } ?? schemesNamed(byEntryAt: file.path, id: id)
                for scheme in named where !schemes.contains(scheme) { schemes.append(scheme) }
            }
            for scheme in schemes { handlers[scheme, default: []].append(id) }
        }
        return SchemeCache(roots: directories, directories: seen, handlers: handlers)
    }

    /// The IDs of every file below the applications directories, each once, in precedence
    /// order, whatever the file holds (for completion: nothing is read).
    package func ids() -> [String] {
        var ids: [String] = []
        var known: Set<String> = []
        _ = walk { id, _, _ in if known.insert(id).inserted { ids.append(id) } }
        return ids
    }

    /// Visits every `.desktop` file below the applications directories (ID, root, path), and
    /// gives every directory it saw with its mtime, and per root the newest of those mtimes.
    private func walk(_ visit: (String, Int, String) -> Void) -> (seen: [(path: String, modified: Int64)], newest: [Int64]) {
        var seen: [(path: String, modified: Int64)] = []
        var newest = Array(repeating: Int64.min, count: directories.count)
        // Each directory once, by device and inode, so symlink loops cost nothing (doc/security.md).
        var visited: Set<FileIdentity> = []

        func walk(_ directory: String, prefix: String, root: Int, depth: Int) {
            let info = fileSystem.info(directory).flatMap { $0.kind == .directory ? $0 : nil }
            seen.append((directory, info?.modified ?? -1))
            newest[root] = max(newest[root], info?.modified ?? -1)
            if let info, !visited.insert(info.identity).inserted { return }
            guard let names = fileSystem.list(directory) else { return }
            for name in names.sorted() {
                let path = joinPath(directory, name)
                if name.hasSuffix(".desktop") {
                    let id = prefix + name
                    guard DesktopEntryIndex.isValidID(id) else { continue }
                    visit(id, root, path)
                } else if depth < DesktopEntryIndex.maxDepth, name != ".", name != "..",
                    fileSystem.info(path)?.kind == .directory
                {
                    walk(path, prefix: prefix + name + "-", root: root, depth: depth + 1)
                }
            }
        }
        for (root, directory) in directories.enumerated() {
            walk(directory, prefix: "", root: root, depth: 0)
        }
        return (seen, newest)
    }
}

extension DesktopEntryIndex {
    /// Per ID, the schemes of the `x-scheme-handler/*` types that the `mimeinfo.cache` of an
    /// applications directory (written by update-desktop-database, read by GIO) lists it for;
    /// nil when that file is missing, malformed, or older than `newest`, the newest mtime of the
    /// directory and its subdirectories: written last, by a rename into the directory, it is
    /// never older while no entry was added, removed or renamed since.
    private func schemesListed(in directory: String, notOlderThan newest: Int64) -> [String: [String]]? {
        let path = joinPath(directory, "mimeinfo.cache")
        guard let info = fileSystem.info(path), info.kind == .regular, info.modified >= newest,
            let bytes = try? fileSystem.read(path, limit: KeyFile.sizeLimit),
            let types = KeyFile(parsing: bytes)?.groups["MIME Cache"]
        else { return nil }
        var schemes: [String: [String]] = [:]
        for (type, value) in types {
            guard let scheme = DesktopEntryIndex.scheme(handledBy: type) else { continue }
            for id in KeyFile.list(value) where schemes[id]?.contains(scheme) != true { schemes[id, default: []].append(scheme) }
        }
        return schemes
    }

    /// The schemes the usable-looking (parseable, not hidden, `Type=Application`) entry file
    /// at `path` names in its `MimeType`; none for any other file.
    private func schemesNamed(byEntryAt path: String, id: String) -> [String] {
        // `read` refuses what `DesktopEntryParser.read` refuses: not regular, too large.
        guard let bytes = try? fileSystem.read(path, limit: KeyFile.sizeLimit), DesktopEntryIndex.mayNameSchemeHandler(bytes),
            let entry = DesktopEntryParser.parse(bytes, id: id, path: path, keeping: ["Type", "Hidden", "MimeType"]),
            !entry.isHidden, entry.type == "Application"
        else { return [] }
        var schemes: [String] = []
        for scheme in entry.mimeTypes.compactMap(DesktopEntryIndex.scheme(handledBy:)) where !schemes.contains(scheme) {
            schemes.append(scheme)
        }
        return schemes
    }

    /// `https` for `x-scheme-handler/HTTPS`; nil for another MIME type or an empty scheme.
    private static func scheme(handledBy mimeType: String) -> String? {
        let lowered = mimeType.lowercased()
        guard lowered.hasPrefix("x-scheme-handler/"), lowered.utf8.count > "x-scheme-handler/".utf8.count else { return nil }
        return String(lowered.dropFirst("x-scheme-handler/".count))
    }

    /// Whether an entry file's bytes hold `x-scheme-handler/` in any ASCII case, as a
    /// `MimeType` naming a scheme handler must: escapes only make blanks, line ends and `\\`,
    /// and no other character lowercases to these letters. False positives only cost a parse.
    static func mayNameSchemeHandler(_ bytes: [UInt8]) -> Bool {
        let marker = schemeHandlerMarker
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var start = marker.count
            // At each `/` (memchr), the 16 bytes before it; `| 0x20` lowercases ASCII letters
            // and keeps `-` (the bytes it maps onto them only add false positives).
            while start < buffer.count,
                let found = memchr(base + start, Int32(UInt8(ascii: "/")), buffer.count - start)
            {
                let slash = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if (0..<marker.count).allSatisfy({ buffer[slash - marker.count + $0] | 0x20 == marker[$0] }) { return true }
                start = slash + 1
            }
            return false
        }
    }

    private static let schemeHandlerMarker = Array("x-scheme-handler".utf8)
}

/// The path with every symlink resolved, or nil when it does not exist.
func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
