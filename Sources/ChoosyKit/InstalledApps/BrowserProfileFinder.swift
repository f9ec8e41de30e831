/// The profiles of an installed browser (doc/profiles.md): the
/// profile list of the installed variant only (its desktop ID's path in the catalog's
/// `profiles`), read when a choice needs it. A list that is missing has no profiles; one
/// that cannot be read or parsed is skipped with one line under `-v`, never fatal.
package struct BrowserProfileFinder: Sendable {
    let environment: Environment
    let fileSystem: FileSystem
    let diagnostics: DiagnosticSink
    /// Reads Firefox's profile group stores, asked only for a profile with a `StoreID`.
    let stores: SQLiteReader

    /// The profiles `app` keeps when installed as `desktopID`, the ones a browser would read
    /// as options left out.
    package func profiles(of app: App, desktopID: String) -> [BrowserProfile] {
        guard let declared = app.profiles, let candidates = declared.paths[desktopID] else { return [] }
        guard let path = profileListPath(candidates, format: declared.format) else {
            diagnostics.explain(
                "\(app.key): profile list '\(candidates.joined(separator: "', '"))' is neither under ~ nor under $XDG_CONFIG_HOME; ignored")
            return []
        }
        guard let info = fileSystem.info(path) else {
            diagnostics.explain("\(app.key): no profile list at \(path)")
            return []
        }
        let limit = declared.format == .firefox ? FirefoxProfileList.sizeLimit : ChromiumLocalState.sizeLimit
        guard info.kind == .regular, info.size <= Int64(limit) else {
            diagnostics.explain("\(app.key): skipping the profile list \(path): not a regular file of at most \(limit >> 20) MiB")
            return []
        }
        let found: [BrowserProfile]
        do {
            let bytes = try fileSystem.read(path, limit: limit)
            switch declared.format {
            case .firefox:
                found = withContainers(
                    firefoxProfiles(FirefoxProfileList.entries(in: bytes), root: parentDirectory(of: path), app: app), app: app)
            case .chromium:
                // A Chromium profile's directory is below the user data directory, which holds `Local State`.
                let userData = parentDirectory(of: path)
                found = try ChromiumLocalState.profiles(in: bytes).map { profile in
                    var profile = profile
                    profile.directory = joinPath(userData, profile.selector)
                    return profile
                }
            }
        } catch {
            diagnostics.explain("\(app.key): skipping the profile list \(path): \(error)")
            return []
        }
        let usable = found.filter { profile in
            guard profile.looksLikeAnOption(declared) else { return true }
            diagnostics.explain(
                "\(app.key): profile '\(profile.name)' starts with '-', which the browser would read as an option; not offered")
            return false
        }
        diagnostics.explain(
            "\(app.key): \(usable.count) profile(s) in \(path)" + (usable.isEmpty ? "" : ": " + usable.map(\.name).joined(separator: ", ")))
        return usable
    }

    /// The profiles of a `profiles.ini` in `root`, each profile group's in place of the entry
    /// that names its store (doc/profiles.md). That entry is one of the group's, found by its
    /// directory, and stays a choice of its own only when none is; a store that cannot be
    /// read costs only its group, the entry staying. A name seen already is left out, and so
    /// is a profile whose `Path` is relative without `IsRelative=1`, which Firefox skips.
    private func firefoxProfiles(_ entries: [FirefoxProfileList.Entry], root: String, app: App) -> [BrowserProfile] {
        var profiles: [BrowserProfile] = []
        var names: Set<String> = []
        func add(_ profile: BrowserProfile) {
            guard names.insert(profile.name).inserted else {
                diagnostics.explain("\(app.key): a second profile named '\(profile.name)' is left out")
                return
            }
            profiles.append(profile)
        }
        // Each store is read once, and only the first few a list names (each may take its time limit).
        var groups: [String: [BrowserProfile]?] = [:]
        for entry in entries {
            guard entry.hasUsablePath else {
                diagnostics.explain(
                    "\(app.key): profile '\(entry.name)' has the relative Path '\(entry.path ?? "")' without IsRelative=1, which Firefox skips; not offered"
                )
                continue
            }
            let listed = BrowserProfile(name: entry.name, selector: entry.name, directory: entry.directory(root: root))
            guard let storeID = entry.storeID else {
                add(listed)
                continue
            }
            if groups.index(forKey: storeID) == nil {
                let group =
                    groups.count < FirefoxProfileGroup.storesPerList
                    ? groupProfiles(storeID, root: root, app: app)
                    : skippedStore(storeID, "the profile list names more than \(FirefoxProfileGroup.storesPerList) stores", app: app)
                groups.updateValue(group, forKey: storeID)
            }
            guard let group = groups[storeID] ?? nil else {
                add(listed)
                continue
            }
            group.forEach(add)
            if !group.contains(where: { $0.directory == listed.directory }) { add(listed) }
        }
        return profiles
    }

    /// Each profile followed by its containers, for the profiles whose directory has the
    /// container extension active (doc/profiles.md). A file that is missing, odd or unreadable
    /// means no containers, with one line under `-v` when it is there but unreadable.
    private func withContainers(_ profiles: [BrowserProfile], app: App) -> [BrowserProfile] {
        var existing = ExistingDirectories(fileSystem: fileSystem)
        return profiles.flatMap { profile -> [BrowserProfile] in
            guard let directory = profile.directory, existing.contains(directory),
                let extensions = containerFile(joinPath(directory, "extensions.json"), app: app),
                FirefoxContainers.extensionIsActive(in: extensions),
                let containers = containerFile(joinPath(directory, "containers.json"), app: app)
            else { return [profile] }
            let names = FirefoxContainers.names(in: containers)
            diagnostics.explain(
                "\(app.key): profile '\(profile.name)' has \(names.count) container(s)"
                    + (names.isEmpty ? "" : ": " + names.joined(separator: ", ")))
            return [profile] + names.map(profile.inContainer)
        }
    }

    /// Which profile directories exist, each parent directory listed once: asking for each
    /// profile's `extensions.json` in turn cost a failed `stat` per profile, 10,000 of them
    /// for a generated profiles.ini (doc/security.md, "Many candidates"). A directory whose
    /// name a listing cannot answer for (`..`, a trailing `/`), or whose parent exists but
    /// cannot be listed, is asked for itself.
    private struct ExistingDirectories {
        let fileSystem: FileSystem
        /// Parent directory → the names in it; nil for one that exists but cannot be listed.
        var listings: [String: Set<String>?] = [:]

        mutating func contains(_ directory: String) -> Bool {
            let parent = parentDirectory(of: directory)
            let name = directory.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(directory[directory.index(after: $0)...]) } ?? directory
            guard !name.isEmpty, name != ".", name != ".." else { return fileSystem.info(directory) != nil }
            if listings.index(forKey: parent) == nil {
                let listing = fileSystem.list(parent).map(Set.init) ?? (fileSystem.info(parent) == nil ? [] : nil)
                listings.updateValue(listing, forKey: parent)
            }
            guard let listing = listings[parent] ?? nil else { return fileSystem.info(directory) != nil }
            return listing.contains(name)
        }
    }

    private func containerFile(_ path: String, app: App) -> [UInt8]? {
        guard fileSystem.info(path) != nil else { return nil }
        do {
            return try fileSystem.read(path, limit: FirefoxContainers.sizeLimit)
        } catch {
            diagnostics.explain("\(app.key): skipping \(path): \(error)")
            return nil
        }
    }

    /// The profiles of the group whose store is `storeID`, or nil (with one line under `-v`)
    /// when the store is missing, is no regular file within the size limit, is being written,
    /// lacks the table and columns read, is corrupt or goes past a limit (doc/security.md).
    private func groupProfiles(_ storeID: String, root: String, app: App) -> [BrowserProfile]? {
        guard let path = FirefoxProfileGroup.storePath(root: root, storeID: storeID) else {
            diagnostics.explain("\(app.key): the StoreID '\(singleLine(storeID))' names no store; its profile group is skipped")
            return nil
        }
        guard fileSystem.info(path) != nil else { return skippedStore(path, "it does not exist", app: app) }
        do {
            let rows = try stores.rows(
                of: FirefoxProfileGroup.table, columns: FirefoxProfileGroup.columns, in: path, within: FirefoxProfileGroup.limits)
            return FirefoxProfileGroup.profiles(rows: rows, root: root)
        } catch {
            return skippedStore(path, error.description, app: app)
        }
    }

    private func skippedStore(_ store: String, _ reason: String, app: App) -> [BrowserProfile]? {
        diagnostics.explain("\(app.key): skipping the profile group store \(store): \(reason)")
        return nil
    }

    /// Which of the places a variant may keep its profile list the browser reads (doc/profiles.md,
    /// "Where Firefox keeps its profiles"): the first whose directory exists, else the last. So
    /// Firefox goes on with an existing `~/.mozilla/firefox/` and a new user's is
    /// `$XDG_CONFIG_HOME/mozilla/firefox/`, as the real firefox-esr decides
    /// (`Tests/Fixtures/firefox-esr/README.md`); `MOZ_LEGACY_HOME=1` keeps Firefox on the first.
    /// Nil when a place is neither under `~` nor under `$XDG_CONFIG_HOME`.
    func profileListPath(_ candidates: [String], format: AppProfiles.Format) -> String? {
        var paths: [String] = []
        for written in candidates {
            guard let path = expandedPath(written) else { return nil }
            paths.append(path)
        }
        guard let last = paths.last else { return nil }
        if format == .firefox, environment.value("MOZ_LEGACY_HOME")?.hasPrefix("1") == true { return paths[0] }
        return paths.dropLast().first { fileSystem.info(parentDirectory(of: $0)) != nil } ?? last
    }

    /// `~/…` under `$HOME`, `$XDG_CONFIG_HOME/…` under the config home (its default
    /// `~/.config` when unset); nil for anything else, which would depend on the directory
    /// choosy runs in.
    func expandedPath(_ written: String) -> String? {
        for (prefix, base) in [("~/", environment.home), ("$XDG_CONFIG_HOME/", environment.configHome)] where written.hasPrefix(prefix) {
            return joinPath(base, String(written.dropFirst(prefix.count)))
        }
        return nil
    }
}
