import Synchronization

/// What the `mimeapps.list` files and the desktop entries say about one MIME type (a URL
/// scheme's `x-scheme-handler/<scheme>`, a local file's type), resolved as the MIME
/// Applications Associations spec 1.0.1 says (its rules are summed up in
/// doc/spec-choices.md, "Associations").
package struct MimeAssociations: Sendable {
    /// The usable entries associated with the type, most preferred first.
    package var entries: [DesktopEntry]
    /// The default a `[Default Applications]` list names: the first usable entry of the first
    /// list that names one (it is then one of `entries`, associated or not before).
    package var namedDefault: DesktopEntry?
    /// The default application: the named default, else the most preferred association.
    package var defaultEntry: DesktopEntry? { namedDefault ?? entries.first }
    /// Whether the most preferred association is there by an `[Added Associations]` line.
    package var firstIsAdded = false
    /// The default when a `mimeapps.list` chose it: named, or added as the most preferred
    /// association; nil when it is only the first entry whose `MimeType` lists the type.
    package var listedDefault: DesktopEntry? { namedDefault ?? (firstIsAdded ? entries.first : nil) }
    /// Whether the first installed entry a `[Default Applications]` list names is choosy's own
    /// (`choosy install --default-handler`): then the handler it replaced is the user's choice.
    package var defaultIsChoosy: Bool
    /// The usable entries whose own `MimeType` lists the scheme and that a `[Removed
    /// Associations]` line took away (`choosy why` names them).
    package var removed: [DesktopEntry] = []

    /// `entries` with the default first.
    package var defaultFirst: [DesktopEntry] {
        guard let defaultEntry else { return entries }
        return [defaultEntry] + entries.filter { $0.id != defaultEntry.id }
    }
}

/// The system's default applications (MIME Applications Associations spec 1.0.1): the
/// `mimeapps.list` files in their lookup order, read once per instance (one command).
package struct MimeAppsList: Sendable {
    package struct Location: Equatable, Sendable {
        package var path: String
        /// `<desktop>-mimeapps.list` files may only set defaults.
        package var isDesktopSpecific: Bool
        /// For a file in an applications directory, that directory's rank in the index: the
        /// file's additions and removals apply to entries of that directory and later ones.
        /// Nil for the config directories, whose changes apply to every entry.
        package var directoryRank: Int?
    }

    /// Every file that may exist, most important first.
    package let locations: [Location]
    private let index: DesktopEntryIndex
    private let fileSystem: FileSystem
    /// One command asks about the same types several times (probing, apps the catalog does
    /// not name, picker order).
    private let known = Memo()

    private final class Memo: Sendable {
        let files = Mutex<[(Location, KeyFile)]?>(nil)
        let associations = Mutex<[String: MimeAssociations]>([:])
    }

    package init(environment: Environment, index: DesktopEntryIndex, fileSystem: FileSystem) {
        self.locations = ListFile.locations(of: "mimeapps.list", in: environment).map { file in
            Location(
                path: file.path, isDesktopSpecific: file.isDesktopSpecific,
                directoryRank: file.applicationsDirectory.flatMap { index.directories.firstIndex(of: $0) })
        }
        self.index = index
        self.fileSystem = fileSystem
    }

    /// The associations of `x-scheme-handler/<scheme>`.
    package func associations(forScheme scheme: String) -> MimeAssociations {
        associations(forMimeType: "x-scheme-handler/" + scheme)
    }

    /// The associations of a MIME type (matched case-insensitively), by the spec's algorithm:
    /// walking the files in order, each plain `mimeapps.list` adds its `[Added Associations]`
    /// (except IDs removed so far, and IDs whose entry lies in a directory before the file's
    /// own) and then removes its `[Removed Associations]`; after the file of an applications
    /// directory, the entries of that directory whose `MimeType` lists the type follow, except
    /// removed ones. The default is the first ID of the first `[Default Applications]` list
    /// (any file, desktop-specific ones included) that is one of these associations. Hidden,
    /// unusable and choosy's own entries are never associations.
    package func associations(forMimeType mimeType: String) -> MimeAssociations {
        let mimeType = mimeType.lowercased()
        if let found = known.associations.withLock({ $0[mimeType] }) { return found }
        let found = resolve(mimeType)
        known.associations.withLock { $0[mimeType] = found }
        return found
    }

    /// The handlers of a local file: those of its type and of the types it is a kind of
    /// (`types`, nearest first, as `MimeDatabase.typeAndAncestors` lists them), each entry once.
    /// The default is the one of the nearest type that has one, as GIO finds it: a type's own
    /// associations come before a parent's default.
    package func associations(forTypes types: [String]) -> MimeAssociations {
        var nearest: MimeAssociations?
        var entries: [DesktopEntry] = []
        for type in types {
            let found = associations(forMimeType: type)
            if nearest == nil && found.defaultEntry != nil { nearest = found }
            for entry in found.entries where !entries.contains(where: { $0.id == entry.id }) { entries.append(entry) }
        }
        var combined = nearest ?? MimeAssociations(entries: [], namedDefault: nil, defaultIsChoosy: false)
        combined.entries = entries
        return combined
    }

    /// The files that exist and parse, in lookup order.
    private func files() -> [(Location, KeyFile)] {
        known.files.withLock { files in
            if let files { return files }
            let read = locations.compactMap { location -> (Location, KeyFile)? in
                guard let info = fileSystem.info(location.path), info.kind == .regular,
                    let bytes = try? fileSystem.read(location.path, limit: KeyFile.sizeLimit),
                    let file = KeyFile(parsing: bytes)
                else { return nil }
                return (location, file)
            }
            files = read
            return read
        }
    }

    private func resolve(_ mimeType: String) -> MimeAssociations {
        let files = files()
        // Within one directory the spec gives no order; this is the order of its
        // `mimeinfo.cache` (update-desktop-database sorts by ID), which GIO follows.
        var declared: [Int: [DesktopEntry]] = [:]
        for (entry, rank) in index.declaredHandlers(forMimeType: mimeType) { declared[rank, default: []].append(entry) }
        for rank in declared.keys { declared[rank]!.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) } }

        var entries: [DesktopEntry] = []
        var associated: Set<String> = []
        var removed: Set<String> = []
        var added: Set<String> = []
        func associate(_ entry: DesktopEntry) {
            guard !removed.contains(entry.id), associated.insert(entry.id).inserted else { return }
            entries.append(entry)
        }
        var visitedRanks: Set<Int> = []
        for location in locations where !location.isDesktopSpecific {
            if let file = files.first(where: { $0.0 == location })?.1 {
                for id in MimeAppsList.ids(in: file, group: "Added Associations", for: mimeType) where !removed.contains(id) {
                    guard let found = index.locate(id: id), index.unusableReason(found.entry) == nil else { continue }
                    // An addition only reaches entries of its own directory or a later one.
                    if let rank = location.directoryRank, found.rank < rank { continue }
                    associate(found.entry)
                    added.insert(id)
                }
                removed.formUnion(MimeAppsList.ids(in: file, group: "Removed Associations", for: mimeType))
            }
            if let rank = location.directoryRank, visitedRanks.insert(rank).inserted {
                declared[rank]?.forEach(associate)
            }
        }

        // The first installed entry a `[Default Applications]` list names is the default, and
        // counts as associated even when nothing else associates it (or a removal did): how
        // GIO, xdg-mime and KDE read the lists, and how `xdg-mime default` sets one
        // (doc/spec-choices.md). Choosy's own entry is passed over: it is never a handler.
        let removedEntries = declared.keys.sorted().flatMap { declared[$0]! }.filter {
            removed.contains($0.id) && !associated.contains($0.id)
        }
        var defaultIsChoosy = false
        var sawInstalledDefault = false
        for (_, file) in files {
            for id in MimeAppsList.ids(in: file, group: "Default Applications", for: mimeType) {
                guard let entry = index.entry(id: id) else { continue }
                if !sawInstalledDefault {
                    sawInstalledDefault = true
                    defaultIsChoosy = index.isChoosy(entry)
                }
                guard index.unusableReason(entry) == nil else { continue }
                if !associated.contains(id) { entries.append(entry) }
                return MimeAssociations(
                    entries: entries, namedDefault: entry, defaultIsChoosy: defaultIsChoosy, removed: removedEntries.filter { $0.id != id })
            }
        }
        let firstIsAdded = entries.first.map { added.contains($0.id) } ?? false
        return MimeAssociations(
            entries: entries, namedDefault: nil, firstIsAdded: firstIsAdded, defaultIsChoosy: defaultIsChoosy, removed: removedEntries)
    }

    /// The IDs a group lists for a MIME type, matched case-insensitively.
    static func ids(in file: KeyFile, group: String, for mimeType: String) -> [String] {
        guard let keys = file.groups[group] else { return [] }
        if let raw = keys[mimeType] { return KeyFile.list(raw) }
        let wanted = mimeType.lowercased()
        return keys.first { $0.key.lowercased() == wanted }.map { KeyFile.list($0.value) } ?? []
    }
}

/// Changes `[Default Applications]` in the user's `$XDG_CONFIG_HOME/mimeapps.list` (what
/// `choosy install` needs) and leaves every other byte of the file as it was: other lines,
/// comments, line endings, even invalid text.
package struct MimeAppsEditor: Sendable {
    package let path: String
    private let fileSystem: FileSystem

    package init(environment: Environment, fileSystem: FileSystem) {
        self.path = joinPath(environment.configHome, "mimeapps.list")
        self.fileSystem = fileSystem
    }

    /// Makes the desktop IDs the defaults for their MIME type (`x-scheme-handler/https` →
    /// `[choosy.desktop]`; an empty list removes the line) and returns, per MIME type, the IDs
    /// this file listed before (absent when it listed none). The file is replaced atomically;
    /// a symlinked file is written through its link.
    @discardableResult
    package func setDefaults(_ defaults: [String: [String]]) throws(ChoosyError) -> [String: [String]] {
        try replaceDefaults(defaults).listed
    }

    /// What a MIME type's line in `[Default Applications]` was before an edit.
    package struct Previous: Equatable, Sendable {
        /// Per MIME type, the IDs listed (absent when the file listed none).
        package var listed: [String: [String]] = [:]
        /// Per MIME type, its line exactly as written (without the line end), so that putting
        /// it back leaves the file as it was.
        package var lines: [String: String] = [:]
    }

    /// `setDefaults`, also returning the lines replaced exactly as written; without `writing`,
    /// only what they are (what `install` records before it changes anything).
    @discardableResult
    package func replaceDefaults(_ defaults: [String: [String]], writing: Bool = true) throws(ChoosyError) -> Previous {
        for (mimeType, ids) in defaults {
            for id in ids {
                guard MimeAppsEditor.isValidMimeType(mimeType), DesktopEntryIndex.isValidID(id), !id.contains(";") else {
                    throw ChoosyError.internal("cannot set '\(id)' as the default for '\(mimeType)'")
                }
            }
        }
        func value(_ mimeType: String) -> String { "\(mimeType)=" + defaults[mimeType]!.map { $0 + ";" }.joined() }
        var file = try readLines()
        var lines = file.lines
        func line(_ text: String) -> [UInt8] { file.line(text) }

        var previous = Previous()
        var replaced: Set<String> = []
        // Lines to drop: a removed default, and repeats of a key already replaced.
        var removed: Set<Int> = []
        var group: String?
        // New keys go after the last key of the first [Default Applications] group.
        var insertionPoint: Int?
        var inFirstDefaultsGroup = false
        for (number, bytes) in lines.enumerated() {
            let key: String
            let listed: String
            switch MimeAppsEditor.reading(bytes) {
            case .group(let name):
                group = name
                inFirstDefaultsGroup = group == "Default Applications" && insertionPoint == nil
                if inFirstDefaultsGroup { insertionPoint = number }
                continue
            case .malformedGroup:
                group = nil
                inFirstDefaultsGroup = false
                continue
            case .ignored:
                continue
            case .other:
                if inFirstDefaultsGroup { insertionPoint = number }
                continue
            case .entry(let entryKey, let value):
                guard group == "Default Applications" else { continue }
                if inFirstDefaultsGroup { insertionPoint = number }
                key = entryKey.lowercased()
                listed = value
            }
            guard let mimeType = defaults.keys.first(where: { $0.lowercased() == key }) else { continue }
            if !replaced.contains(mimeType) {
                previous.listed[mimeType] = KeyFile.list(listed)
                var line = bytes
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                previous.lines[mimeType] = String(decoding: line, as: UTF8.self)
            }
            removed.insert(number)
            if !defaults[mimeType]!.isEmpty && !replaced.contains(mimeType) {
                lines[number] = line(value(mimeType))
                removed.remove(number)
            }
            replaced.insert(mimeType)
        }
        lines = lines.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        if let point = insertionPoint { insertionPoint = point - removed.filter { $0 <= point }.count }

        let missing = defaults.keys.filter { !replaced.contains($0) && !defaults[$0]!.isEmpty }.sorted().map { line(value($0)) }
        var appendedAtEnd = false
        if let insertionPoint {
            lines.insert(contentsOf: missing, at: insertionPoint + 1)
            appendedAtEnd = !missing.isEmpty && insertionPoint == lines.count - missing.count - 1
        } else if !missing.isEmpty {
            if let last = lines.last, !MimeAppsEditor.trimmed(last).isEmpty { lines.append(line("")) }
            lines.append(line("[Default Applications]"))
            lines += missing
            appendedAtEnd = true
        }
        if appendedAtEnd { file.endsWithNewline = true }
        file.lines = lines
        if writing { try write(file) }
        return previous
    }

    /// Takes `id` out of every `[Default Applications]` and `[Added Associations]` line (a line
    /// left empty goes). Where `id` is still the default (first) for a MIME type that
    /// `restoring` names, that line becomes the restored one instead: its recorded line
    /// verbatim when there is one, else its IDs (none: no line). Every other byte stays.
    /// Returns whether the file named `id` (and so changed).
    @discardableResult
    package func withdraw(_ id: String, restoring: [String: (ids: [String], line: String?)]) throws(ChoosyError) -> Bool {
        guard fileSystem.info(path) != nil else { return false }
        var file = try readLines()
        var restored: Set<String> = []
        var changed = false
        var group: String?
        var kept: [[UInt8]] = []
        for bytes in file.lines {
            let reading = MimeAppsEditor.reading(bytes)
            switch reading {
            case .group(let name): group = name
            case .malformedGroup: group = nil
            case .entry, .ignored, .other: break
            }
            guard group == "Default Applications" || group == "Added Associations", case .entry(let key, let value) = reading,
                case let ids = KeyFile.list(value), ids.contains(id)
            else {
                kept.append(bytes)
                continue
            }
            changed = true
            if group == "Default Applications", ids.first == id,
                let mimeType = restoring.keys.first(where: { $0.lowercased() == key.lowercased() }), !restored.contains(mimeType)
            {
                restored.insert(mimeType)
                let restoration = restoring[mimeType]!
                // IDs that could not be written as one line (an old record's) are left out.
                let ids = restoration.ids.filter { DesktopEntryIndex.isValidID($0) && !$0.contains(";") }
                if let line = restoration.line, MimeAppsEditor.isLine(line, for: mimeType) {
                    kept.append(file.line(line))
                } else if !ids.isEmpty {
                    kept.append(file.line("\(key)=" + ids.map { $0 + ";" }.joined()))
                }
                continue
            }
            if let rest = MimeAppsEditor.removing(id, from: bytes) { kept.append(rest) }
        }
        guard changed else { return false }
        file.lines = kept
        try write(file)
        return true
    }

    /// The line's bytes without the list elements that are `id`, every other byte as it was;
    /// nil when no element is left.
    private static func removing(_ id: String, from line: [UInt8]) -> [UInt8]? {
        let semicolon = UInt8(ascii: ";")
        let equals = line.firstIndex(of: UInt8(ascii: "="))!
        var value = Array(line[(equals + 1)...])
        let lineEnd: [UInt8] = value.last == UInt8(ascii: "\r") ? [value.removeLast()] : []
        let elements = value.split(separator: semicolon, omittingEmptySubsequences: false)
            .filter { trimmed(Array($0)) != id }
        guard elements.contains(where: { !trimmed(Array($0)).isEmpty }) else { return nil }
        return Array(line[...equals]) + Array(elements.joined(separator: [semicolon])) + lineEnd
    }

    /// The user's file as lines of bytes, each without its line end.
    private struct Lines {
        var lines: [[UInt8]]
        var endsWithNewline: Bool
        var crlf: Bool
        var existing: FileInfo?

        /// A new line, with the file's own line end.
        func line(_ text: String) -> [UInt8] { Array(text.utf8) + (crlf ? [UInt8(ascii: "\r")] : []) }
    }

    private func readLines() throws(ChoosyError) -> Lines {
        let info = fileSystem.info(path)
        var original: [UInt8] = []
        if info != nil {
            do {
                original = try fileSystem.read(path, limit: KeyFile.sizeLimit)
            } catch {
                throw ChoosyError.internal("cannot read \(error)")
            }
        }
        let newline = UInt8(ascii: "\n")
        var lines = original.split(separator: newline, omittingEmptySubsequences: false).map(Array.init)
        let endedWithNewline = original.last == newline
        if endedWithNewline || original.isEmpty { lines.removeLast() }
        return Lines(
            lines: lines, endsWithNewline: endedWithNewline || original.isEmpty,
            crlf: lines.first?.last == UInt8(ascii: "\r"), existing: info)
    }

    private func write(_ file: Lines) throws(ChoosyError) {
        var bytes = Array(file.lines.joined(separator: [UInt8(ascii: "\n")]))
        if file.endsWithNewline && !file.lines.isEmpty { bytes.append(UInt8(ascii: "\n")) }
        // Write through a symlink (dotfile managers link this file) instead of replacing it.
        let target = file.existing == nil ? path : (fileSystem.canonicalPath(path) ?? path)
        do {
            try fileSystem.writeAtomically(bytes, to: target, permissions: file.existing?.permissions ?? 0o644)
        } catch {
            throw ChoosyError.internal("cannot write \(error)")
        }
    }

    /// Whether `line` is one line that sets `mimeType` (matched case-insensitively), safe to write back.
    private static func isLine(_ line: String, for mimeType: String) -> Bool {
        guard !line.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }),
            case .entry(let key, _) = reading(Array(line.utf8))
        else { return false }
        return key.lowercased() == mimeType.lowercased()
    }

    /// A line without its leading and trailing blanks (and `\r`).
    private static func trimmed(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 || last == 0x0D { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// A line of the file (its CR, if any, still at its end) as a key file reads it.
    private enum Reading {
        case group(String)
        case malformedGroup
        /// The key, and the value without the blanks around it.
        case entry(key: String, value: String)
        /// Blank, or a comment.
        case ignored
        /// Text that is no key and no group.
        case other
    }

    private static func reading(_ line: [UInt8]) -> Reading {
        line.withUnsafeBufferPointer { bytes in
            switch KeyFileLine(bytes, 0..<(bytes.last == 0x0D ? bytes.count - 1 : bytes.count)) {
            case .group(let name): .group(KeyFileLine.text(bytes, name))
            case .malformedGroup: .malformedGroup
            case .entry(let key, let value):
                .entry(key: KeyFileLine.text(bytes, key), value: KeyFileLine.text(bytes, KeyFileLine.trimmingEnd(value, of: bytes)))
            case .blank, .comment: .ignored
            case .other: .other
            }
        }
    }

    /// `type/subtype` with nothing that could break the line it is written into.
    private static func isValidMimeType(_ mimeType: String) -> Bool {
        let parts = mimeType.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && mimeType.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"=[];".unicodeScalars.contains($0) }
    }
}
