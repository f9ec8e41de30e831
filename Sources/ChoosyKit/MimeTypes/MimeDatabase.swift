import Synchronization

/// The shared-mime-info database (shared-mime-info spec 0.21): the `globs2`, `magic`,
/// `aliases` and `subclasses` files of each `mime/` directory, `$XDG_DATA_HOME/mime` first,
/// then each of `$XDG_DATA_DIRS`. Each file is read at most once per instance (one command),
/// when a question first needs it; a link never asks one.
///
/// The type of a file is the one GLib gives (`gio info -a standard::content-type`), whose
/// reading of the spec is followed where the two differ (doc/spec-choices.md, "MIME types").
package final class MimeDatabase: Sendable {
    /// The `mime/` directories, most important first; found when first read (every `handle`
    /// makes a database, and only a local file reads it).
    package var directories: [String] {
        foundDirectories.withLock { found in
            if let found { return found }
            var directories: [String] = []
            for base in [environment.dataHome] + environment.dataDirs {
                let directory = joinPath(base, "mime")
                if !directories.contains(directory) { directories.append(directory) }
            }
            found = directories
            return directories
        }
    }
    private let foundDirectories = Mutex<[String]?>(nil)
    private let environment: Environment
    private let fileSystem: FileSystem
    private let files = Mutex(Files())

    private struct Files {
        var globs: [MimeGlobs]?
        var magic: [MimeMagic]?
        var aliases: [[UInt8]]?
        var subclasses: [[UInt8]]?
    }

    /// The unknown type, and what binary data is when nothing else says.
    package static let unknown = "application/octet-stream"
    /// GLib gives at most this many types for a name.
    private static let globLimit = 10
    /// The most bytes of a file read to sniff its type (GLib's buffer).
    private static let sniffLimit = 4096
    /// The spec's files are a few tens of KiB; this leaves room for any real one.
    private static let sizeLimit = 16 << 20

    package init(environment: Environment, fileSystem: FileSystem) {
        self.environment = environment
        self.fileSystem = fileSystem
    }

    // MARK: The type of a file

    /// A file's MIME type and what gave it.
    package struct FileType: Equatable, Sendable {
        package var type: String
        /// How it was found, for `-v` and `why` ("its name matches '*.html'").
        package var reason: String
    }

    /// The type of what is at `path` (symlinks followed; the bytes of a name that need not be
    /// UTF-8): `inode/directory` and the other `inode/` types by what it is, `text/plain` for
    /// an empty file (as GLib: a new file is a text file), else by its name and, when the name
    /// does not settle it, its first bytes (when they can be read). Nil when nothing is there;
    /// a broken symlink is `inode/symlink`.
    package func type(ofFileAt path: [UInt8]) -> FileType? {
        guard let info = fileSystem.info(atPath: path) else {
            return fileSystem.isSymbolicLink(atPath: path) ? FileType(type: "inode/symlink", reason: "a symbolic link to nothing") : nil
        }
        switch info.kind {
        case .directory: return FileType(type: "inode/directory", reason: "a directory")
        case .characterDevice: return FileType(type: "inode/chardevice", reason: "a character device")
        case .blockDevice: return FileType(type: "inode/blockdevice", reason: "a block device")
        case .fifo: return FileType(type: "inode/fifo", reason: "a FIFO")
        case .socket: return FileType(type: "inode/socket", reason: "a socket")
        case .regular where info.size == 0: return FileType(type: "text/plain", reason: "an empty file, which is text")
        case .regular, .other: break
        }
        let name = MimeDatabase.baseName(path)
        let byName = guess(name: name, data: nil)
        guard byName.uncertain, let data = try? fileSystem.readStart(atPath: path, count: sniffLength()) else { return byName.type }
        return guess(name: name, data: data).type
    }

    /// The type of a local file that is to be opened (`choosy handle PATH`), whose name `shown`
    /// is for messages: nothing there (a broken symlink included) and a file this process
    /// cannot read, or a directory it cannot list, are refused (status 4).
    package func typeOfFileToOpen(_ path: [UInt8], shown: String) throws(ChoosyError) -> FileType {
        guard fileSystem.info(atPath: path) != nil, let found = type(ofFileAt: path) else {
            throw .unavailable(singleLine("no such file: \(shown)"))
        }
        guard fileSystem.isReadable(atPath: path) else { throw .unavailable(singleLine("cannot read \(shown): permission denied")) }
        return found
    }

    /// What `g_content_type_guess` gives for a file name and, when given, its first bytes; and
    /// whether the answer is uncertain (then the bytes may settle it).
    package func guess(name: [UInt8], data: [UInt8]?) -> (type: FileType, uncertain: Bool) {
        let byName = globs(of: name)
        if byName.count == 1 {
            return (FileType(type: byName[0].type, reason: "its name matches '\(byName[0].pattern)'"), false)
        }
        var sniffed: FileType?
        var priority = 0
        if let data {
            if data.isEmpty {
                (sniffed, priority) = (FileType(type: "application/x-zerosize", reason: "it is empty"), 100)
            } else if let match = magic(of: data) {
                sniffed = FileType(type: match.type, reason: "its contents match the magic of \(match.type) (priority \(match.priority))")
                priority = match.priority
            } else if MimeDatabase.startsAsText(data) || MimeDatabase.looksLikeText(data) {
                sniffed = FileType(type: "text/plain", reason: "its contents are text")
            }
            // A desktop entry runs what it says: never taken by its contents when its name says otherwise.
            if sniffed?.type == "application/x-desktop" {
                sniffed = FileType(type: "text/plain", reason: "its contents are a desktop entry, read as text")
            }
        }
        guard !byName.isEmpty else {
            return (sniffed ?? FileType(type: MimeDatabase.unknown, reason: "nothing in its name or contents says more"), sniffed == nil)
        }
        if let sniffed {
            if priority >= 80 { return (sniffed, false) }
            if let glob = byName.first(where: { isSubclass($0.type, of: sniffed.type) }) {
                return (FileType(type: glob.type, reason: "its name matches '\(glob.pattern)', and \(sniffed.reason)"), false)
            }
        }
        let types = byName.map(\.type).joined(separator: ", ")
        return (FileType(type: byName[0].type, reason: "its name matches '\(byName[0].pattern)', the first of \(types)"), true)
    }

    /// How many bytes decide by contents: what the magic rules look at, at most GLib's 4096.
    package func sniffLength() -> Int {
        let extent = magicFiles().map(\.extent).max() ?? 0
        return extent == 0 || extent > MimeDatabase.sniffLimit ? MimeDatabase.sniffLimit : extent
    }

    /// The spec's test of text: no control character but tab, newline and carriage return
    /// among the first 128 bytes.
    private static func startsAsText(_ data: [UInt8]) -> Bool {
        !data.prefix(128).contains { $0 < 0x20 && $0 != 9 && $0 != 10 && $0 != 13 }
    }

    /// GLib's second test, of all the bytes read: no ASCII control character (DEL included)
    /// but the blanks (tab to carriage return) and backspace.
    private static func looksLikeText(_ data: [UInt8]) -> Bool {
        !data.contains { ($0 < 0x20 && !(8...13).contains($0)) || $0 == 0x7F }
    }

    /// The last component of a path, trailing slashes aside.
    private static func baseName(_ path: [UInt8]) -> [UInt8] {
        var bytes = path
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return Array(bytes.split(separator: UInt8(ascii: "/")).last ?? bytes[...])
    }

    // MARK: Globs

    /// The globs a name matches, best first, at most ten: GLib's lookup in the caches of the
    /// directories, each directory on its own (a step takes what each of them finds): a
    /// literal name (case-insensitive, then as it is), else the longest suffix pattern of each
    /// directory (case-insensitive ones for the lowercased name, then, unless that found two,
    /// any for the name as it is), else the fnmatch patterns the same way; the same type once,
    /// then by weight.
    func globs(of name: [UInt8]) -> [MimeGlobs.Glob] {
        MimeDatabase.combined(globFiles().map { $0.matches(of: name) })
    }

    /// What the directories' matches of one name (most important directory first) give.
    static func combined(_ matches: [MimeGlobs.Matches]) -> [MimeGlobs.Glob] {
        for found in matches {
            guard let glob = found.literalOfLowercased else { continue }
            if !glob.caseSensitive { return [glob] }
            break
        }
        if let glob = matches.lazy.compactMap(\.literal).first { return [glob] }
        var found: [MimeGlobs.Glob] = []
        func take(_ globs: [MimeGlobs.Glob]) { found += globs.prefix(MimeDatabase.globLimit - found.count) }
        matches.forEach { take($0.suffixOfLowercased) }
        if found.count < 2 { matches.forEach { take($0.suffix) } }
        if found.isEmpty { matches.forEach { take($0.fullOfLowercased) } }
        if found.count < 2 { matches.forEach { take($0.full) } }
        // As GLib drops repeats: the one kept takes the highest weight and the last takes the
        // place of the one dropped; then a stable sort by weight.
        var last = found.count
        var index = 0
        while index < last {
            var other = index + 1
            while other < last {
                if found[index].type == found[other].type {
                    found[index].weight = max(found[index].weight, found[other].weight)
                    last -= 1
                    found[other] = found[last]
                } else {
                    other += 1
                }
            }
            index += 1
        }
        return found.prefix(last).enumerated().sorted { left, right in
            left.element.weight != right.element.weight ? left.element.weight > right.element.weight : left.offset < right.offset
        }.map(\.element)
    }

    // MARK: Magic

    /// The magic section that matches `data` with the highest priority above zero, the first
    /// directory's among equals.
    func magic(of data: [UInt8]) -> MimeMagic.Section? {
        var best: MimeMagic.Section?
        for file in magicFiles() {
            if let match = file.match(data), match.priority > (best?.priority ?? 0) { best = match }
        }
        return best
    }

    // MARK: Aliases and subclasses

    /// The type an alias stands for, by the first directory that lists it; else `type` itself.
    package func unalias(_ type: String) -> String {
        for file in aliasFiles() {
            if let canonical = MimeDatabase.values(of: type, in: file).first { return canonical }
        }
        return type
    }

    /// The parents `subclasses` lists for the type's canonical name, every directory's, each once.
    package func parents(of type: String) -> [String] {
        let canonical = unalias(type)
        var parents: [String] = []
        for file in subclassFiles() {
            for parent in MimeDatabase.values(of: canonical, in: file) where !parents.contains(parent) { parents.append(parent) }
        }
        return parents
    }

    /// The type and the types it is a kind of, nearest first, as GLib lists them to find a
    /// type's handlers: its canonical name, then its parents breadth first (each as
    /// `subclasses` names it, and its canonical name when that differs), each once.
    package func typeAndAncestors(_ type: String) -> [String] {
        var types = [unalias(type)]
        var index = 0
        while index < types.count {
            let canonical = unalias(types[index])
            for found in [canonical] + parents(of: canonical) where !types.contains(found) { types.append(found) }
            index += 1
        }
        return types
    }

    /// Whether `type` is `base` or a kind of it: equal when unaliased, `base` a `media/*`
    /// of its media, every `text/` type a kind of `text/plain`, every type but `inode/` ones of
    /// `application/octet-stream` (the spec's implicit rules), else through its parents.
    package func isSubclass(_ type: String, of base: String) -> Bool {
        var visited: Set<String> = []
        return isSubclass(type, of: unalias(base), visited: &visited)
    }

    private func isSubclass(_ type: String, of base: String, visited: inout Set<String>) -> Bool {
        let canonical = unalias(type)
        guard visited.insert(canonical).inserted else { return false }
        if canonical == base { return true }
        if base.hasSuffix("/*"), let slash = canonical.firstIndex(of: "/"), base.hasPrefix(canonical[...slash]) { return true }
        if base == "text/plain" && canonical.hasPrefix("text/") { return true }
        if base == MimeDatabase.unknown && !canonical.hasPrefix("inode/") { return true }
        for parent in parents(of: canonical) where parent != type && parent != canonical {
            if isSubclass(parent, of: base, visited: &visited) { return true }
        }
        return false
    }

    /// The second fields of the lines `key value` of an `aliases` or `subclasses` file.
    private static func values(of key: String, in file: [UInt8]) -> [String] {
        let key = Array(key.utf8) + [UInt8(ascii: " ")]
        var values: [String] = []
        var start = 0
        while start < file.count {
            let end = file.firstIndex(of: UInt8(ascii: "\n"), in: start..<file.count) ?? file.count
            if end - start > key.count, file[start..<(start + key.count)].elementsEqual(key) {
                values.append(String(decoding: file[(start + key.count)..<end], as: UTF8.self))
            }
            start = end + 1
        }
        return values
    }

    // MARK: Reading the files, once each

    private func globFiles() -> [MimeGlobs] { cached(\.globs) { read("globs2").map { MimeGlobs(bytes: $0) } } }
    private func magicFiles() -> [MimeMagic] { cached(\.magic) { read("magic").map(MimeMagic.init(parsing:)) } }
    private func aliasFiles() -> [[UInt8]] { cached(\.aliases) { read("aliases") } }
    private func subclassFiles() -> [[UInt8]] { cached(\.subclasses) { read("subclasses") } }

    /// What `make` gives the first time, kept at `key` for every later question.
    private func cached<Value: Sendable>(_ key: WritableKeyPath<Files, Value?>, _ make: () -> Value) -> Value {
        files.withLock { files in
            if let value = files[keyPath: key] { return value }
            let value = make()
            files[keyPath: key] = value
            return value
        }
    }

    /// The file `name` of each directory that has one to read, in order.
    private func read(_ name: String) -> [[UInt8]] {
        directories.compactMap { try? fileSystem.read(joinPath($0, name), limit: MimeDatabase.sizeLimit) }
    }
}
