/// `choosy install [--default-handler]` and `choosy uninstall` (doc/desktop.md, "choosy install
/// and uninstall"): choosy's desktop entry, and choosy as the default handler of `choosy:` links
/// (and optionally of http, https, mailto and geo). What it replaces is recorded first, so
/// `uninstall` can put it back and the browser type still knows the user's previous browser.
package struct LinkHandlerInstaller {
    package static let entryID = "choosy.desktop"
    package static let ownScheme = "x-scheme-handler/choosy"
    package static let linkSchemes = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto", "x-scheme-handler/geo"]

    /// The defaults install replaced.
    package struct Record: Equatable, Sendable {
        /// What `$XDG_CONFIG_HOME/mimeapps.list` listed per MIME type (empty: nothing).
        package var listed: [String: [String]] = [:]
        /// The desktop ID that handled each MIME type (the effective default), if any.
        package var handlers: [String: String] = [:]
        /// The lines install replaced, exactly as written, so uninstall puts back the same bytes.
        package var lines: [String: String]?
        /// Whether install created `mimeapps.list`; uninstall then removes it when nothing
        /// else was added to it.
        package var createdFile: Bool?
        /// Whether install created `choosy.desktop`; when it replaced one (`make install`'s),
        /// that file was kept as `backupPath` and uninstall puts it back.
        package var createdEntry: Bool?
        /// Members a newer choosy wrote, kept on rewrite.
        var unknownMembers = UnknownJSONMembers()

        package init() {}

        /// The names are those `JSONEncoder` gave the fields, so a record written then reads.
        init(json: JSONValue) throws(JSONError) {
            let fields = try JSONFields(json)
            listed = try fields.required("listed", .dictionary(of: .array(of: .string)))
            handlers = try fields.required("handlers", .dictionary(of: .string))
            lines = try fields.optional("lines", .dictionary(of: .string))
            createdFile = try fields.optional("createdFile", .bool)
            createdEntry = try fields.optional("createdEntry", .bool)
            unknownMembers = fields.unknownMembers(known: ["listed", "handlers", "lines", "createdFile", "createdEntry"])
        }

        var json: JSONValue {
            var members: [(String, JSONValue)] = []
            if let createdEntry { members.append(("createdEntry", .bool(createdEntry))) }
            if let createdFile { members.append(("createdFile", .bool(createdFile))) }
            members.append(("handlers", .object(sortedByName: handlers.mapValues(JSONValue.string))))
            if let lines { members.append(("lines", .object(sortedByName: lines.mapValues(JSONValue.string)))) }
            members.append(("listed", .object(sortedByName: listed.mapValues(JSONValue.strings))))
            return unknownMembers.object(after: members)
        }
    }

    let environment: Environment
    let fileSystem: FileSystem
    let executable: String
    let mimeApps: MimeAppsList

    package var entryPath: String { joinPath(environment.dataHome, "applications", Self.entryID) }
    package var recordPath: String { joinPath(environment.configHome, "choosy", "previous-handlers.json") }
    /// Where the `choosy.desktop` install replaced is kept until uninstall.
    package var backupPath: String { joinPath(environment.configHome, "choosy", "choosy.desktop.before-install") }

    /// What install did.
    package struct Installed: Equatable, Sendable {
        /// The MIME types now handled by choosy.
        package var mimeTypes: [String]
        /// Whether it replaced a `choosy.desktop` that was there before (now kept for uninstall).
        package var replacedEntry = false
    }

    /// What uninstall did.
    package struct Uninstalled: Equatable, Sendable {
        /// Why the previous handlers could not be restored (the record is corrupt or missing);
        /// choosy's own lines are gone all the same.
        package var unrestored: String?
        /// Whether the `choosy.desktop` install replaced is back (else choosy's was removed).
        package var restoredEntry = false
    }

    /// Writes the entry and sets the defaults.
    @discardableResult
    package func install(defaultHandler: Bool) throws(ChoosyError) -> Installed {
        let lock = try lockRecord()
        defer { lock.unlock() }
        let mimeTypes = [Self.ownScheme] + (defaultHandler ? Self.linkSchemes : [])
        var record = try loadRecord() ?? Record()
        // The effective handlers, read before choosy takes over (choosy is never one of them).
        for mimeType in mimeTypes where record.handlers[mimeType] == nil {
            let scheme = String(mimeType.dropFirst("x-scheme-handler/".count))
            if let entry = mimeApps.associations(forScheme: scheme).defaultEntry { record.handlers[mimeType] = entry.id }
        }
        var installed = Installed(mimeTypes: mimeTypes)
        // An entry install replaced that is back without its copy was put back by an uninstall
        // stopped before it removed the record: it is the user's again, and kept again.
        if record.createdEntry == nil || (record.createdEntry == false && fileSystem.info(backupPath) == nil) {
            // Only the first install sees the entry that was there before choosy's own.
            if let info = fileSystem.info(entryPath) {
                do {
                    let before = try fileSystem.read(entryPath, limit: KeyFile.sizeLimit)
                    try fileSystem.writeAtomically(before, to: backupPath, permissions: info.permissions)
                } catch {
                    throw .internal("cannot keep \(entryPath) as \(backupPath): \(error)")
                }
                installed.replacedEntry = true
            }
            record.createdEntry = !installed.replacedEntry
        }
        let editor = MimeAppsEditor(environment: environment, fileSystem: fileSystem)
        if record.createdFile == nil { record.createdFile = fileSystem.info(editor.path) == nil }
        let defaults = Dictionary(uniqueKeysWithValues: mimeTypes.map { ($0, [Self.entryID]) })
        let previous = try editor.replaceDefaults(defaults, writing: false)
        for mimeType in mimeTypes where record.listed[mimeType] == nil {
            // Only the first install's view counts: a second one would record choosy itself.
            record.listed[mimeType] = (previous.listed[mimeType] ?? []).filter { $0 != Self.entryID }
            if let line = previous.lines[mimeType], !(previous.listed[mimeType] ?? []).contains(Self.entryID) {
                record.lines = (record.lines ?? [:]).merging([mimeType: line]) { old, _ in old }
            }
        }
        // Saved before anything changes: an install killed after this still leaves uninstall
        // all it needs to restore (doc/desktop.md).
        try save(record)
        do {
            try fileSystem.writeAtomically(Array(desktopEntry(mimeTypes: mimeTypes).utf8), to: entryPath, permissions: 0o644)
        } catch {
            throw .internal("cannot write \(entryPath): \(error)")
        }
        try editor.replaceDefaults(defaults)
        return installed
    }

    /// Takes choosy out of every default and added association of the user's `mimeapps.list`,
    /// restores the handlers install replaced where choosy is still the default (a handler
    /// the user chose since stays), and removes the entry or puts back the one install
    /// replaced. Nil when nothing was installed.
    package func uninstall() throws(ChoosyError) -> Uninstalled? {
        let lock = try lockRecord()
        defer { lock.unlock() }
        var record: Record?
        var result = Uninstalled()
        do {
            record = try readRecord()
        } catch {
            result.unrestored = "\(error)"
        }
        let editor = MimeAppsEditor(environment: environment, fileSystem: fileSystem)
        let restoring = (record?.listed ?? [:]).reduce(into: [String: (ids: [String], line: String?)]()) {
            $0[$1.key] = ($1.value, record?.lines?[$1.key])
        }
        // Lines naming choosy go even when its entry and record were deleted by hand.
        let withdrawn = try editor.withdraw(Self.entryID, restoring: restoring)
        // Without a record or a line, only choosy's own entry says it is installed: one that
        // an uninstall already put back is the user's. A copy without a record is an install
        // killed before it saved the record (it had changed nothing yet): the copy goes back.
        let kept = fileSystem.info(backupPath) != nil
        guard withdrawn || kept || fileSystem.info(recordPath) != nil || holdsOwnEntry() else { return nil }
        // Only lines naming choosy needed the record.
        if record == nil, withdrawn, result.unrestored == nil { result.unrestored = "\(recordPath) is missing" }
        // A file install created and that holds nothing else goes too.
        if record?.createdFile == true, let bytes = try? fileSystem.read(editor.path, limit: 1024),
            trimmed(String(decoding: bytes, as: UTF8.self)) == "[Default Applications]"
        {
            fileSystem.remove(editor.path)
        }
        if record?.createdEntry != true, kept {
            do {
                try fileSystem.rename(backupPath, to: entryPath)
                result.restoredEntry = true
            } catch {
                throw .internal("cannot put back \(entryPath) from \(backupPath): \(error)")
            }
        } else if record?.createdEntry != false {
            // (An entry install replaced whose copy is gone was put back by an uninstall
            // stopped before it removed the record: it stays.)
            fileSystem.remove(entryPath)
        }
        fileSystem.remove(recordPath)
        return result
    }

    /// The handler choosy replaced for `mimeType`, so the user's browser stays first.
    package func previousHandler(for mimeType: String) -> String? {
        (try? loadRecord())??.handlers[mimeType]
    }

    func desktopEntry(mimeTypes: [String]) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=Choosy
        GenericName=App Chooser
        Comment=Open links in your favourite app
        Exec=\(Self.execArgument(executable)) handle %u
        Icon=preferences-desktop-default-applications
        Terminal=false
        StartupNotify=true
        NoDisplay=true
        Categories=Utility;
        MimeType=\(mimeTypes.map { $0 + ";" }.joined())

        """
    }

    /// The path as one Exec argument: quoted when it holds a reserved character, with the
    /// Exec escapes inside quotes, then the string escape of backslashes (Desktop Entry spec).
    static func execArgument(_ path: String) -> String {
        let reserved = " \t\n\"'\\><~|&;$*?#()`="
        guard path.contains(where: { reserved.contains($0) }) else { return path }
        var quoted = "\""
        for character in path {
            if "\"`$\\".contains(character) { quoted += "\\" }
            quoted.append(character)
        }
        quoted += "\""
        return quoted.split(separator: "\\", omittingEmptySubsequences: false).joined(separator: "\\\\")
    }

    /// Whether the entry is the one this choosy writes (with either set of MIME types).
    private func holdsOwnEntry() -> Bool {
        guard let bytes = try? fileSystem.read(entryPath, limit: KeyFile.sizeLimit) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return [[Self.ownScheme], [Self.ownScheme] + Self.linkSchemes].contains { desktopEntry(mimeTypes: $0) == text }
    }

    /// Held by every install and uninstall, so that two at once never record choosy itself as
    /// what it replaced, nor keep its own entry as the one to put back. Only they write the
    /// files it covers, so the temporary files a killed one left beside them can go.
    private func lockRecord() throws(ChoosyError) -> any HeldLock {
        let path = recordPath + ".lock"
        do {
            let lock = try fileSystem.lock(path, timeout: 30)
            for written in [recordPath, backupPath, entryPath, MimeAppsEditor(environment: environment, fileSystem: fileSystem).path] {
                fileSystem.removeAbandonedTemporaryFiles(of: written)
            }
            return lock
        } catch let error as FileSystemError where error.isNotRegularFile {
            throw .corrupt("\(path) is not a regular file (a FIFO, socket, device or link); remove it: nothing was changed")
        } catch {
            throw .internal("cannot lock \(recordPath): \(error)")
        }
    }

    private func loadRecord() throws(ChoosyError) -> Record? {
        do {
            return try readRecord()
        } catch {
            throw .corrupt("\(error); remove it to start over")
        }
    }

    private func readRecord() throws(ChoosyError) -> Record? {
        guard fileSystem.info(recordPath) != nil else { return nil }
        do {
            return try Record(json: JSONReader.parse(fileSystem.read(recordPath, limit: JSONReader.ownFileLimit)))
        } catch {
            throw .corrupt("\(recordPath) is not valid (\((error as? FileSystemError)?.reason ?? "\(error)"))")
        }
    }

    private func save(_ record: Record) throws(ChoosyError) {
        do {
            try fileSystem.writeAtomically(Array((record.json.rendered(indented: true) + "\n").utf8), to: recordPath, permissions: 0o600)
        } catch {
            throw .internal("cannot write \(recordPath): \(error)")
        }
    }
}
