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
    private let schemeMap = Mutex<SchemeCache?>(nil)
    /// Entries already found by ID: one command asks for the same few many times (probing,
    /// associations, picker order), and a real entry with its translations is long to parse.
    private let located = Mutex<[String: Located?]>([:])
    private typealias Located = (entry: DesktopEntry, rank: Int)

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
        locate(id: id)?.entry
    }

    /// The entry that has this ID and the rank of the applications directory that holds it
    /// (0 for `$XDG_DATA_HOME/applications`, then each data dir in order); nil as for `entry`.
    public func locate(id: String) -> (entry: DesktopEntry, rank: Int)? {
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
    public func usableEntry(id: String) -> DesktopEntry? {
        guard let entry = entry(id: id), unusableReason(entry) == nil else { return nil }
        return entry
    }

    /// Whether the entry is choosy's own (its ID, or an `Exec` that runs this choosy).
    public func isChoosy(_ entry: DesktopEntry) -> Bool {
        guard let exec = entry.exec, let commandLine = try? ExecCommandLine(parsing: exec) else {
            return entry.id == "choosy.desktop"
        }
        return entry.id == "choosy.desktop" || runsExcludedExecutable(commandLine.program)
    }

    /// Why the entry cannot be launched, or nil when it is usable: `Type=Application`, an
    /// `Exec` that parses with valid field codes and an absolute or bare program name, a
    /// `TryExec` (if any) naming an installed executable, and not choosy itself.
    /// `NoDisplay=true` does not matter: it only hides the entry from menus.
    public func unusableReason(_ entry: DesktopEntry) -> String? {
        guard entry.type == "Application" else { return "Type is not Application" }
        guard let exec = entry.exec else { return "it has no Exec" }
        do {
            _ = try ExecCommandLine(parsing: exec)
        } catch {
            return "invalid Exec: \(error)"
        }
        if let tryExec = entry.tryExec, !tryExec.isEmpty, !isInstalledExecutable(tryExec) {
            return "TryExec '\(tryExec)' is not an installed executable"
        }
        if isChoosy(entry) { return "it is choosy itself" }
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

    /// The usable entries whose own `MimeType` lists `x-scheme-handler/<scheme>`, in
    /// precedence order (directory, then path), each with the rank of its directory. This is
    /// only what the entries declare: `MimeAppsList.associations(forScheme:)` applies the
    /// user's and the system's `mimeapps.list` to it. Each is re-read, so an entry edited in
    /// place or made unusable since the map was saved is never returned.
    public func declaredHandlers(forScheme scheme: String) -> [(entry: DesktopEntry, rank: Int)] {
        let scheme = scheme.lowercased()
        let mimeType = "x-scheme-handler/" + scheme
        let ids = schemeMap.withLock { map in
            if map == nil { map = loadOrBuildSchemeMap() }
            return map?.ids(forScheme: scheme) ?? []
        }
        return ids.compactMap { id in
            guard let found = locate(id: id), unusableReason(found.entry) == nil, found.entry.handles(mimeType) else { return nil }
            return found
        }
    }

    private func loadOrBuildSchemeMap() -> SchemeCache {
        if let bytes = try? fileSystem.read(cachePath, limit: 16 << 20),
           let cache = SchemeCache(decoding: bytes),
           cache.roots == directories,
           cache.directories.allSatisfy({ modificationTime(of: $0.path) == $0.modified }) {
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
///
/// Reading one is on the path of every command that looks up a scheme, and with thousands of
/// entries the file holds thousands of IDs: it is checked whole (a malformed file is never
/// used), but bytewise, and the IDs of a scheme are only decoded when that scheme is asked for.
struct SchemeCache: Sendable {
    static let header = "choosy-desktop-index 1"

    var roots: [String]
    var directories: [(path: String, modified: Int64)]
    /// The map of a scan.
    private var decoded: [String: [String]]
    /// The map of a file read back: the file, and per scheme where its escaped IDs are.
    private var bytes: [UInt8] = []
    private var encodedIDs: [String: Range<Int>] = [:]

    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")
    private static let percent = UInt8(ascii: "%")

    init(roots: [String], directories: [(path: String, modified: Int64)], handlers: [String: [String]]) {
        self.roots = roots
        self.directories = directories
        self.decoded = handlers
    }

    /// Nil for anything but a well-formed cache of this version: valid UTF-8, the header line,
    /// then only `R` lines with one field, `D` lines with an integer and a path, and `S` lines
    /// with a scheme (once) and at least one ID, every field validly escaped, each line ended.
    init?(decoding bytes: [UInt8]) {
        let header = Array((SchemeCache.header + "\n").utf8)
        guard bytes.count >= header.count, bytes[..<header.count].elementsEqual(header),
              bytes.last == SchemeCache.newline, String(validating: bytes, as: UTF8.self) != nil
        else { return nil }
        var roots: [String] = []
        var directories: [(path: String, modified: Int64)] = []
        var encodedIDs: [String: Range<Int>] = [:]
        var start = header.count
        while start < bytes.count {
            // The last byte is a newline, so every line has one.
            let end = SchemeCache.find(SchemeCache.newline, in: bytes, start..<bytes.count)!
            defer { start = end + 1 }
            // A one-letter kind, a tab, then the fields.
            guard end - start >= 2, bytes[start + 1] == SchemeCache.tab,
                  SchemeCache.isValidlyEscaped(bytes, (start + 2)..<end)
            else { return nil }
            let fields = (start + 2)..<end
            let firstTab = SchemeCache.find(SchemeCache.tab, in: bytes, fields)
            switch bytes[start] {
            case UInt8(ascii: "R") where firstTab == nil:
                roots.append(SchemeCache.unescape(bytes[fields]))
            case UInt8(ascii: "D"):
                guard let firstTab, SchemeCache.find(SchemeCache.tab, in: bytes, (firstTab + 1)..<end) == nil,
                      let modified = Int64(String(decoding: bytes[fields.lowerBound..<firstTab], as: UTF8.self))
                else { return nil }
                directories.append((SchemeCache.unescape(bytes[(firstTab + 1)..<end]), modified))
            case UInt8(ascii: "S"):
                guard let firstTab else { return nil }
                let scheme = SchemeCache.unescape(bytes[fields.lowerBound..<firstTab])
                guard encodedIDs[scheme] == nil else { return nil }
                encodedIDs[scheme] = (firstTab + 1)..<end
            default:
                return nil
            }
        }
        self.init(roots: roots, directories: directories, handlers: [:])
        self.bytes = bytes
        self.encodedIDs = encodedIDs
    }

    /// The IDs that handle `scheme`, in precedence order.
    func ids(forScheme scheme: String) -> [String] {
        if let ids = decoded[scheme] { return ids }
        guard let range = encodedIDs[scheme] else { return [] }
        return bytes[range].split(separator: SchemeCache.tab, omittingEmptySubsequences: false).map(SchemeCache.unescape)
    }

    /// Every scheme and its IDs.
    var handlers: [String: [String]] {
        var all = decoded
        for scheme in encodedIDs.keys { all[scheme] = ids(forScheme: scheme) }
        return all
    }

    func encoded() -> [UInt8] {
        let handlers = handlers
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

    /// The escapes `escape` writes are the only ones allowed: `%25`, `%09`, `%0A`, `%0D`.
    private static func isValidlyEscaped(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while let percent = find(SchemeCache.percent, in: bytes, index..<range.upperBound) {
            guard percent + 2 < range.upperBound, unescaped(bytes[percent + 1], bytes[percent + 2]) != nil else { return false }
            index = percent + 3
        }
        return true
    }

    /// The first index of `byte` in `range` (memchr: the file is scanned once per byte, and
    /// with thousands of entries it is tens of KiB on every command that looks up a scheme).
    private static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    private static func unescaped(_ high: UInt8, _ low: UInt8) -> UInt8? {
        switch (high, low) {
        case (UInt8(ascii: "2"), UInt8(ascii: "5")): return SchemeCache.percent
        case (UInt8(ascii: "0"), UInt8(ascii: "9")): return SchemeCache.tab
        case (UInt8(ascii: "0"), UInt8(ascii: "A")): return SchemeCache.newline
        case (UInt8(ascii: "0"), UInt8(ascii: "D")): return UInt8(ascii: "\r")
        default: return nil
        }
    }

    /// A field checked by `isValidlyEscaped`, unescaped.
    private static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(SchemeCache.percent) else { return String(decoding: field, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            if field[index] == SchemeCache.percent, index + 2 < field.endIndex,
               let byte = unescaped(field[index + 1], field[index + 2]) {
                result.append(byte)
                index += 3
            } else {
                result.append(field[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// The path with every symlink resolved, or nil when it does not exist.
func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
