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
/// only the entries whose bytes may name a scheme. The handlers of every other MIME type (a
/// local file's) are in a second map, the entries that run a program in a third and those
/// that implement an interface in a fourth, each built and checked the same way when first
/// asked for: a link reads none of them. The index can exclude
/// choosy's own entry, so that a URL is never handed back to choosy.
package final class DesktopEntryIndex: Sendable {
    /// The `applications` directories, in precedence order.
    package let directories: [String]
    package let cachePath: String
    /// The MIME map: the handlers of the MIME types that are no URL scheme.
    package let mimeTypesCachePath: String
    /// The program map: what finding where a link came from reads (doc/links-and-rules.md).
    package let programsCachePath: String
    /// The interface map: the entries that implement an intent (the desktop's terminal).
    package let interfacesCachePath: String
    private let searchPath: [String]
    private let fileSystem: FileSystem
    private let clock: Clock
    /// The canonical path of the choosy executable, whose entries are never handlers.
    private let excludedExecutable: String?
    private let schemeMap = Mutex<SchemeCache?>(nil)
    private let mimeTypeMap = Mutex<SchemeCache?>(nil)
    private let programMap = Mutex<SchemeCache?>(nil)
    private let interfaceMap = Mutex<SchemeCache?>(nil)
    /// Entries already found by ID: one command asks for the same few many times (probing,
    /// associations, picker order), and a real entry with its translations is long to parse.
    private let located = Mutex<[String: Located?]>([:])
    private typealias Located = (entry: DesktopEntry, rank: Int)
    /// Per entry file, why it is unusable (nil: usable) and the MIME types its `MimeType`
    /// lists (lowercased), worked out once per command for the same reason.
    private let unusable = Mutex<[String: String?]>([:])
    private let typesByPath = Mutex<[String: Set<String>]>([:])

    /// Subdirectory depth limit: real trees are one or two deep, and a symlink loop must end.
    private static let maxDepth = 8
    /// The longest file name a directory can hold (`NAME_MAX`): a longer part of an ID is
    /// neither a file nor a subdirectory there.
    private static let nameLimit = 255
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
        self.mimeTypesCachePath = joinPath(environment.cacheHome, "choosy", "desktop-mimetypes.cache")
        self.programsCachePath = joinPath(environment.cacheHome, "choosy", "desktop-programs.cache")
        self.interfacesCachePath = joinPath(environment.cacheHome, "choosy", "desktop-interfaces.cache")
        self.searchPath = environment.searchPath
        self.fileSystem = fileSystem
        self.clock = clock
        self.excludedExecutable = executable.flatMap(fileSystem.canonicalPath)
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
            var tried: Set<Probe> = []
            if let entry = firstEntry(named: name, id: id, in: directory, depth: 0, tried: &tried) {
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
        let reason = self.unusable(entry)?.description
        unusable.withLock { $0[entry.path] = .some(reason) }
        return reason
    }

    /// Why the entry cannot be launched, as a value (`choosy why` tells the kinds apart; worked
    /// out anew each time, as only it asks).
    package func unusable(_ entry: DesktopEntry) -> EntryUnusable? {
        guard entry.type == "Application" else { return .notApplication }
        guard let exec = entry.exec else { return .noExec }
        let commandLine: ExecCommandLine
        do {
            commandLine = try ExecCommandLine(parsing: exec)
        } catch {
            return .invalidExec("\(error)")
        }
        if let tryExec = entry.tryExec, !tryExec.isEmpty, !isInstalledExecutable(tryExec) {
            return .tryExec(tryExec)
        }
        if isChoosy(entry, commandLine: commandLine) { return .choosy }
        return nil
    }

    /// Every copy of the ID, one per applications directory that has one, in precedence order,
    /// `Hidden=true` ones included: the first is the one that counts (`choosy why` says which
    /// copy hides which).
    package func copies(id: String) -> [(entry: DesktopEntry, rank: Int)] {
        guard DesktopEntryIndex.isValidID(id) else { return [] }
        return directories.enumerated().compactMap { rank, directory in
            var tried: Set<Probe> = []
            return firstEntry(named: id[...], id: id, in: directory, depth: 0, tried: &tried).map { ($0, rank) }
        }
    }

    /// IDs name files below `applications/`; anything that could climb out is refused (IDs
    /// come from catalogs and `mimeapps.list`, which choosy does not control).
    static func isValidID(_ id: String) -> Bool { isValidID(id, ascii: isASCII(id)) }

    /// `isValidID` for an ID known to be ASCII or not. By byte: a `/` that a combining mark
    /// follows is no `/` Character, and a search by Character cost a rebuild more than listing
    /// the directories; the suffix and the leading `.` by byte only in ASCII, where every byte
    /// is a Character (a `.` with a combining mark after it is no `.`).
    private static func isValidID(_ id: String, ascii: Bool) -> Bool {
        guard id.utf8.count > 8, hasDesktopSuffix(id, ascii: ascii), !holds(id, UInt8(ascii: "/")), !holds(id, 0) else { return false }
        return ascii ? id.utf8.first != UInt8(ascii: ".") : !id.hasPrefix(".")
    }

    /// `name.hasSuffix(".desktop")`, by byte when `name` is ASCII.
    private static func hasDesktopSuffix(_ name: String, ascii: Bool) -> Bool {
        guard ascii else { return name.hasSuffix(".desktop") }
        return name.utf8.withContiguousStorageIfAvailable(hasDesktopSuffix) ?? name.hasSuffix(".desktop")
    }

    /// Whether the bytes of a name end in `.desktop`.
    private static func hasDesktopSuffix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix: StaticString = ".desktop"
        return bytes.count >= suffix.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + bytes.count - suffix.utf8CodeUnitCount, suffix.utf8Start, suffix.utf8CodeUnitCount) == 0
    }

    /// The first parseable file for `name` below `directory`: `a-b-c.desktop` may be
    /// `a-b-c.desktop`, `a/b-c.desktop`, `a-b/c.desktop` or `a/b/c.desktop`. Only prefixes
    /// that are directories are followed, so a lookup costs a few `stat`s; only prefixes a
    /// directory can hold (`nameLimit`), and each directory once for each rest of the name
    /// (`tried`, by device and inode), so that an ID of thousands of dashes or a symlink loop
    /// costs a bounded number (doc/security.md).
    private func firstEntry(named name: Substring, id: String, in directory: String, depth: Int, tried: inout Set<Probe>)
        -> DesktopEntry?
    {
        let length = name.utf8.count
        if length <= DesktopEntryIndex.nameLimit,
            let entry = DesktopEntryParser.read(joinPath(directory, String(name)), id: id, fileSystem: fileSystem)
        {
            return entry
        }
        guard depth < DesktopEntryIndex.maxDepth else { return nil }
        // By byte: `-` is ASCII, and a search by Character cost more than the `stat`s.
        var searchStart = name.startIndex
        while let dash = name.utf8[searchStart...].firstIndex(of: UInt8(ascii: "-")),
            name.utf8.distance(from: name.startIndex, to: dash) <= DesktopEntryIndex.nameLimit
        {
            let component = name[..<dash]
            let afterDash = name.utf8.index(after: dash)
            if component != "." && component != "..", !component.isEmpty {
                let subdirectory = joinPath(directory, String(component))
                if let info = fileSystem.info(subdirectory), info.kind == .directory,
                    case let rest = length - name.utf8.distance(from: name.startIndex, to: afterDash),
                    tried.insert(Probe(directory: info.identity, rest: rest)).inserted,
                    let entry = firstEntry(named: name[afterDash...], id: id, in: subdirectory, depth: depth + 1, tried: &tried)
                {
                    return entry
                }
            }
            searchStart = afterDash
        }
        return nil
    }

    /// A directory looked in for the last `rest` bytes of an ID.
    private struct Probe: Hashable {
        var directory: FileIdentity
        var rest: Int
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
        return fileSystem.canonicalPath(resolved) == excludedExecutable
    }

    // MARK: Lookup by MIME type

    /// The usable entries whose own `MimeType` lists `x-scheme-handler/<scheme>`.
    package func declaredHandlers(forScheme scheme: String) -> [(entry: DesktopEntry, rank: Int)] {
        declaredHandlers(forMimeType: DesktopEntryIndex.schemeHandlerPrefix + scheme)
    }

    /// The usable entries whose own `MimeType` lists the type (matched case-insensitively), in
    /// precedence order (directory, then path), each with the rank of its directory. This is
    /// only what the entries declare: `MimeAppsList.associations(forMimeType:)` applies the
    /// user's and the system's `mimeapps.list` to it. Each is re-read, so an entry edited in
    /// place or made unusable since the map was saved is never returned.
    package func declaredHandlers(forMimeType mimeType: String) -> [(entry: DesktopEntry, rank: Int)] {
        let type = mimeType.lowercased()
        let ids: [String]
        if let scheme = DesktopEntryIndex.scheme(handledBy: type) {
            ids = schemeMap.withLock { map in
                if map == nil { map = loadOrBuild(cachePath, decode: { SchemeCache(decoding: $0) }, scan: { scan(.schemes) }) }
                return map?.ids(forScheme: scheme) ?? []
            }
        } else {
            ids = lookUp(type, in: mimeTypeMap, at: mimeTypesCachePath) { scan(.otherTypes) }
        }
        return ids.compactMap { id in
            guard let found = locate(id: id), unusableReason(found.entry) == nil, declaredTypes(of: found.entry).contains(type) else {
                return nil
            }
            return found
        }
    }

    /// The MIME types the entry's `MimeType` lists, lowercased.
    private func declaredTypes(of entry: DesktopEntry) -> Set<String> {
        if let known = typesByPath.withLock({ $0[entry.path] }) { return known }
        let types = Set(entry.mimeTypes.map { $0.lowercased() })
        typesByPath.withLock { $0[entry.path] = types }
        return types
    }

    /// The IDs a map beside the scheme map (the MIME map, the program map) gives for `key`:
    /// loaded the first time (its stamps taken from the scheme map when this command checked
    /// those), built again when it or the line read is malformed.
    private func lookUp(_ key: String, in map: borrowing Mutex<SchemeCache?>, at path: String, scan: () -> SchemeCache) -> [String] {
        map.withLock { map in
            if map == nil {
                // The scheme map's stamps, when this command checked them, need no checking again.
                let schemes = schemeMap.withLock { $0 }
                map = loadOrBuild(path, decode: { SchemeCache(decodingStampsOf: $0, sameAs: schemes) }, scan: scan)
            }
            if let ids = map?.ids(forScheme: key) { return ids }
            // A malformed line: built again, as for a malformed file.
            map = build(path, scan: scan)
            return map?.ids(forScheme: key) ?? []
        }
    }

    /// The map saved at `path` when it was built from the directories as they are now (or it
    /// has the stamps of a map checked in this command), else a new one, saved there.
    private func loadOrBuild(_ path: String, decode: ([UInt8]) -> SchemeCache?, scan: () -> SchemeCache) -> SchemeCache {
        if let bytes = try? fileSystem.read(path, limit: JSONReader.ownFileLimit),
            let cache = decode(bytes),
            cache.hasCheckedStamps
                || cache.roots == directories && cache.directories.allSatisfy({ modificationTime(of: $0.path) == $0.modified })
        {
            return cache
        }
        return build(path, scan: scan)
    }

    /// A new map, saved at `path` unless a directory changed too recently.
    private func build(_ path: String, scan: () -> SchemeCache) -> SchemeCache {
        let cache = scan()
        let racy = Int64((clock.now() - DesktopEntryIndex.racyInterval) * 1e9)
        if !cache.directories.contains(where: { $0.modified >= racy }) {
            // A cache that cannot be written is only slower next time.
            try? fileSystem.writeAtomically(cache.encoded(), to: path, permissions: 0o600)
        }
        return cache
    }

    /// Nanoseconds, or -1 when the path is not a directory (a directory created later then
    /// invalidates the cache too).
    private func modificationTime(of directory: String) -> Int64 {
        guard let info = fileSystem.info(directory), info.kind == .directory else { return -1 }
        return info.modified
    }

    /// Which MIME types a map holds: the schemes of the `x-scheme-handler/*` types (by their
    /// scheme), or every other type.
    private enum TypeSelection {
        case schemes, otherTypes

        /// The key of a `MimeType` value in this map, or nil when the map does not hold it.
        func key(of mimeType: String) -> String? {
            let scheme = DesktopEntryIndex.scheme(handledBy: mimeType)
            switch self {
            case .schemes: return scheme
            case .otherTypes: return scheme == nil && !mimeType.isEmpty ? mimeType.lowercased() : nil
            }
        }

        /// Whether a key of `mimeinfo.cache` may be one this map holds (`key(of:)` decides).
        func keeps(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
            self == .otherTypes || DesktopEntryIndex.namesSchemeHandler(key)
        }

        /// Whether an entry file's bytes may list a type this map holds: most entries name no
        /// scheme handler, and are not parsed for the scheme map.
        func mayName(_ bytes: [UInt8]) -> Bool {
            self == .otherTypes || DesktopEntryIndex.mayNameSchemeHandler(bytes)
        }
    }

    /// Lists every applications directory and maps the selected types to the IDs that may handle them.
    private func scan(_ selection: TypeSelection) -> SchemeCache {
        // The listings first: the files that no listing names are then skipped by their bytes,
        // before a String is made of them (most of listing was making them). A root whose
        // listing turns out older than its directories is walked again, whole.
        let listings = directories.map { typesListed(in: $0, selection) }
        let filter = IDFilter(listings)
        var files: [EntryFile] = []
        var seen: [(path: String, modified: Int64)] = []
        var trusted = Array(repeating: false, count: directories.count)
        var visited: Set<FileIdentity> = []
        for root in directories.indices {
            let before = visited
            var walked = walk(root: root, visited: &visited, skipping: listings[root] == nil ? nil : filter)
            if let listing = listings[root], listing.modified >= walked.newest {
                trusted[root] = true
            } else if listings[root] != nil {
                visited = before
                walked = walk(root: root, visited: &visited, skipping: nil)
            }
            files += walked.files
            seen += walked.seen
        }

        // The map holds, per type, every ID with a file that names it, whichever file wins:
        // `declaredHandlers` keeps those whose winning entry does, so no entry needs to be
        // parsed to know which one wins. A file names the types its directory's
        // `mimeinfo.cache` lists it for, when that file can be trusted (most of a rebuild was
        // parsing entries); otherwise its own, read only when its bytes may name one.
        // Only IDs that some file names a scheme for are looked at twice: each of the thousands
        // of files costs one dictionary lookup, and each scheme named for an ID one element of
        // `named` (40,000 entries name tens of thousands: an array each cost more than the rest).
        var slots: [String: Int] = [:]
        var candidates: [Candidate] = []
        var named: [(slot: Int, root: Int, key: String)] = []
        func value(_ slot: inout Int) -> Int { slot }
        func name(_ id: String, for key: String, in root: Int) {
            // One lookup, in place: it gives the next slot to an ID that has none.
            let next = candidates.count
            let slot = value(&slots[id, default: next])
            if slot == next { candidates.append(Candidate()) }
            named.append((slot, root, key))
        }
        for (root, listing) in listings.enumerated() where trusted[root] {
            guard let listed = listing?.listed else { continue }
            slots.reserveCapacity(slots.count + listed.count)
            named.reserveCapacity(named.count + listed.count)
            for (id, key) in listed { name(id, for: key, in: root) }
        }
        for file in files where !trusted[file.root] {
            for key in typesNamed(byEntryAt: file.path, id: file.id, selection) { name(file.id, for: key, in: file.root) }
        }
        // A name counts for a root that has a file of the ID, as `slot * roots + root`.
        var hasFile: Set<Int> = []
        for (position, file) in files.enumerated() {
            guard let slot = slots[file.id] else { continue }
            candidates[slot].found(file, at: position)
            hasFile.insert(slot * directories.count + file.root)
        }
        // In the order of the IDs' first files; all the names of one ID are then together.
        let ordered = named.compactMap { slot, root, key in
            hasFile.contains(slot * directories.count + root) ? (position: candidates[slot].position, slot: slot, key: key) : nil
        }.sorted { $0.position < $1.position }
        // In place, so that a key is looked up once (reading, then appending, cost two).
        func add(_ id: String, to ids: inout [String]) { if ids.last != id { ids.append(id) } }
        var handlers: [String: [String]] = [:]
        for (_, slot, key) in ordered { add(candidates[slot].id, to: &handlers[key, default: []]) }
        return SchemeCache(roots: directories, directories: seen, handlers: handlers)
    }

    /// A filter of IDs by a cheap hash of their bytes (FNV-1a, one bit in at least 2^16 and
    /// about 32 per ID), so that most of the thousands of files that no listing names are
    /// skipped before a String is made of them. Exact for ASCII: an ASCII ID equals another
    /// String only if their bytes are equal; with any other ID among those it holds, or to
    /// check, it holds everything.
    private struct IDFilter {
        private var bits: [UInt64]
        private let mask: UInt64
        private var holdsEverything = false

        /// Holding the IDs of every listing.
        init(_ listings: [(listed: [(id: String, key: String)], modified: Int64)?]) {
            // Sized by the IDs, so that a file of 40,000 passes as rarely as one of 4,000.
            let count = listings.reduce(0) { $0 + ($1?.listed.count ?? 0) }
            var size = 1 << 16
            while size < count * 32 && size < 1 << 24 { size <<= 1 }
            bits = Array(repeating: 0, count: size >> 6)
            mask = UInt64(size - 1)
            for case let listing? in listings {
                for (id, _) in listing.listed {
                    guard let hash = IDFilter.start(id) else {
                        holdsEverything = true
                        return
                    }
                    let position = bit(hash)
                    bits[position >> 6] |= 1 << (position & 63)
                }
            }
        }

        /// The hash of `prefix`, to go on with a name's bytes; nil when it is not ASCII.
        static func start(_ prefix: String) -> UInt64? {
            prefix.utf8.withContiguousStorageIfAvailable { hash($0, from: 0xcbf2_9ce4_8422_2325) } ?? nil
        }

        /// Whether it may hold the ID made of the prefix whose hash is `start` and `name`.
        func mayHold(from start: UInt64?, name: UnsafeBufferPointer<UInt8>) -> Bool {
            guard !holdsEverything, let start, let hash = IDFilter.hash(name, from: start) else { return true }
            let position = bit(hash)
            return bits[position >> 6] & (1 << (position & 63)) != 0
        }

        private func bit(_ hash: UInt64) -> Int { Int((hash ^ hash >> 32 ^ hash >> 16) & mask) }

        /// The FNV-1a hash of ASCII bytes, continued from `hash`; nil for others.
        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from hash: UInt64) -> UInt64? {
            var hash = hash
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return hash
        }
    }

    /// An ID that a trusted `mimeinfo.cache` lists, or an entry of another directory names, for
    /// the map's types (the `named` of `scan`).
    private struct Candidate {
        /// As its first file spells it (IDs equal as Strings may differ in bytes, and the file's
        /// bytes are what finds it again), and where that file is in the walk.
        var id = ""
        var position = Int.max

        mutating func found(_ file: EntryFile, at position: Int) {
            if position < self.position { (id, self.position) = (file.id, position) }
        }
    }

    // MARK: Lookup by program

    /// The usable entries whose `Exec` runs a program of this file name (`slack` for
    /// `Exec=/usr/bin/slack %U`), in precedence order. The map of every entry file's program is
    /// built the first time one is asked for, apart from the scheme map: only finding where a
    /// link came from asks, and every other command keeps a rebuild that reads no entry. Each
    /// entry is re-read, as for `declaredHandlers`.
    package func usableEntries(running program: String) -> [DesktopEntry] {
        let ids = lookUp(program, in: programMap, at: programsCachePath, scan: scanPrograms)
        return ids.compactMap { id in
            guard let entry = usableEntry(id: id), DesktopEntryIndex.programName(of: entry) == program else { return nil }
            return entry
        }
    }

    /// The file name of the program an entry's `Exec` runs: what a process's programs are
    /// matched against (`ProcessPrograms`).
    package static func programName(of entry: DesktopEntry) -> String? {
        guard let exec = entry.exec, let line = try? ExecCommandLine(parsing: exec) else { return nil }
        return line.program.split(separator: "/").last.map(String.init)
    }

    /// Lists and parses every entry file (only the keys `keeping` names beside `Type` and
    /// `Hidden`): per key `keys` gives an entry, the IDs with a file (winning or not) of
    /// `Type=Application`, not hidden, that gives it.
    private func scanEveryEntry(keeping: [String], _ keys: (DesktopEntry) -> [String]) -> SchemeCache {
        var handlers: [String: [String]] = [:]
        var seen: [(path: String, modified: Int64)] = []
        var visited: Set<FileIdentity> = []
        for root in directories.indices {
            let walked = walk(root: root, visited: &visited, skipping: nil)
            seen += walked.seen
            for file in walked.files {
                // `read` refuses what `DesktopEntryParser.read` refuses: not regular, too large.
                guard let bytes = try? fileSystem.read(file.path, limit: KeyFile.sizeLimit),
                    let entry = DesktopEntryParser.parse(bytes, id: file.id, path: file.path, keeping: ["Type", "Hidden"] + keeping),
                    !entry.isHidden, entry.type == "Application"
                else { continue }
                for key in keys(entry) { handlers[key, default: []].append(file.id) }
            }
        }
        // An ID with files in several directories is listed once (one program may run thousands).
        return SchemeCache(roots: directories, directories: seen, handlers: handlers.mapValues(uniqued))
    }

    /// Per program, the IDs of the entries that run it.
    private func scanPrograms() -> SchemeCache {
        scanEveryEntry(keeping: ["Exec"]) { DesktopEntryIndex.programName(of: $0).map { [$0] } ?? [] }
    }

    // MARK: Lookup by interface

    /// The usable entries whose `Implements` lists `interface` (an intent, such as
    /// `org.freedesktop.Terminal1`), in precedence order (directory, then path). The map of
    /// every entry file's interfaces is built the first time one is asked for, as the program
    /// map is; each entry is re-read.
    package func usableEntries(implementing interface: String) -> [DesktopEntry] {
        let ids = lookUp(interface, in: interfaceMap, at: interfacesCachePath) {
            scanEveryEntry(keeping: ["Implements"]) { $0.list("Implements") }
        }
        return ids.compactMap { id in
            guard let entry = usableEntry(id: id), entry.list("Implements").contains(interface) else { return nil }
            return entry
        }
    }

    /// The IDs of every file below the applications directories, each once, in precedence
    /// order, whatever the file holds (for completion: nothing is read).
    package func ids() -> [String] {
        var ids: [String] = []
        var known: Set<String> = []
        var visited: Set<FileIdentity> = []
        for root in directories.indices {
            for file in walk(root: root, visited: &visited, skipping: nil).files where known.insert(file.id).inserted {
                ids.append(file.id)
            }
        }
        return ids
    }

    /// A `.desktop` file below an applications directory: its ID, the rank of that directory,
    /// and where it is (its path is built only for the few files that are read).
    private struct EntryFile {
        var id: String
        var root: Int
        var directory: String
        var name: String

        var path: String { joinPath(directory, name) }
    }

    /// Every `.desktop` file below the applications directory of rank `root`, but those of ASCII
    /// IDs that `skipping` surely does not hold; every directory it saw with its mtime, and the
    /// newest of those mtimes. `visited` holds the directories walked before, by device and
    /// inode, so that each is walked once and symlink loops cost nothing (doc/security.md).
    private func walk(root: Int, visited: inout Set<FileIdentity>, skipping: IDFilter?) -> (
        files: [EntryFile], seen: [(path: String, modified: Int64)], newest: Int64
    ) {
        var files: [EntryFile] = []
        var seen: [(path: String, modified: Int64)] = []
        var newest = Int64.min

        func walk(_ directory: String, prefix: String, depth: Int) {
            let info = fileSystem.info(directory).flatMap { $0.kind == .directory ? $0 : nil }
            seen.append((directory, info?.modified ?? -1))
            newest = max(newest, info?.modified ?? -1)
            if let info, !visited.insert(info.identity).inserted { return }
            guard let names = fileSystem.listNames(directory) else { return }
            func consider(_ name: String, ascii: Bool) {
                if DesktopEntryIndex.hasDesktopSuffix(name, ascii: ascii) {
                    let id = prefix + name
                    guard DesktopEntryIndex.isValidID(id, ascii: ascii) else { return }
                    files.append(EntryFile(id: id, root: root, directory: directory, name: name))
                } else if depth < DesktopEntryIndex.maxDepth, name != ".", name != "..",
                    case let path = joinPath(directory, name), fileSystem.info(path)?.kind == .directory
                {
                    walk(path, prefix: prefix + name + "-", depth: depth + 1)
                }
            }
            guard names.isASCII && isASCII(prefix) else {
                for name in names.strings.sorted() { consider(name, ascii: false) }
                return
            }
            let start = skipping == nil ? nil : IDFilter.start(prefix)
            let order = names.byteOrder { index in
                // A name ending in `.desktop` is a file's or nothing's, never a directory's.
                guard let skipping else { return true }
                return names.withName(at: index) { !DesktopEntryIndex.hasDesktopSuffix($0) || skipping.mayHold(from: start, name: $0) }
            }
            for index in order { consider(names.string(at: index), ascii: true) }
        }
        walk(directories[root], prefix: "", depth: 0)
        return (files, seen, newest)
    }
}

extension DesktopEntryIndex {
    /// Each ID and key of the selected types that the `mimeinfo.cache` of an applications
    /// directory (written by update-desktop-database, read by GIO) lists it for, and that file's
    /// mtime; nil when it is missing or malformed. It is trusted when no older than the newest
    /// mtime of the directory and its subdirectories: written last, by a rename into the
    /// directory, it is never older while no entry was added, removed or renamed since.
    private func typesListed(in directory: String, _ selection: TypeSelection) -> (listed: [(id: String, key: String)], modified: Int64)? {
        let path = joinPath(directory, "mimeinfo.cache")
        // `read` refuses what is not a regular file, before a byte is read.
        guard let info = fileSystem.info(path), let bytes = try? fileSystem.read(path, limit: KeyFile.listingLimit),
            let types = KeyFile(
                parsing: bytes, keeping: ("MIME Cache", selection.keeps),
                sizeLimit: KeyFile.listingLimit, lineLimit: KeyFile.listingLimit
            )?.groups["MIME Cache"]
        else { return nil }
        var listed: [(id: String, key: String)] = []
        for (type, value) in types {
            guard let key = selection.key(of: type) else { continue }
            for id in KeyFile.list(value) { listed.append((id, key)) }
        }
        return (listed, info.modified)
    }

    /// The keys of the selected types the usable-looking (parseable, not hidden,
    /// `Type=Application`) entry file at `path` names in its `MimeType`; none for any other file.
    private func typesNamed(byEntryAt path: String, id: String, _ selection: TypeSelection) -> [String] {
        // `read` refuses what `DesktopEntryParser.read` refuses: not regular, too large.
        guard let bytes = try? fileSystem.read(path, limit: KeyFile.sizeLimit), selection.mayName(bytes),
            let entry = DesktopEntryParser.parse(bytes, id: id, path: path, keeping: ["Type", "Hidden", "MimeType"]),
            !entry.isHidden, entry.type == "Application"
        else { return [] }
        return uniqued(entry.mimeTypes.compactMap(selection.key(of:)))
    }

    /// `https` for `x-scheme-handler/HTTPS`; nil for another MIME type or an empty scheme.
    private static func scheme(handledBy mimeType: String) -> String? {
        let lowered = mimeType.lowercased()
        guard lowered.hasPrefix(schemeHandlerPrefix), lowered.utf8.count > schemeHandlerPrefix.utf8.count else { return nil }
        return String(lowered.dropFirst(schemeHandlerPrefix.count))
    }

    private static let schemeHandlerPrefix = "x-scheme-handler/"

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

    /// Whether a key of `mimeinfo.cache` may be an `x-scheme-handler/` type (`scheme(handledBy:)`
    /// decides): it starts so in any ASCII case. The cache lists every MIME type, and storing
    /// them all was most of reading it.
    private static func namesSchemeHandler(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count > schemeHandlerMarker.count && key[schemeHandlerMarker.count] == UInt8(ascii: "/")
            && (0..<schemeHandlerMarker.count).allSatisfy { key[$0] | 0x20 == schemeHandlerMarker[$0] }
    }
}
