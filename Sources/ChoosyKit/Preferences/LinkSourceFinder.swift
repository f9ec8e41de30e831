/// Finds where a link came from (doc/links-and-rules.md, "Where a link came from"), the first
/// answer winning: `CHOOSY_SOURCE`; then choosy's ancestors, nearest first, the first that is
/// an app (its own environment holds GIO's `GIO_LAUNCHED_DESKTOP_FILE` with its pid, or
/// `BAMF_DESKTOP_FILE_HINT`; else its program runs a desktop entry's `Exec` program), processes that
/// only pass a link on skipped; then the app scope of choosy's own cgroup. Everything is read
/// through the file system seam, below `/proc`, and only the user's own processes are read.
package struct LinkSourceFinder {
    /// `CHOOSY_SOURCE`.
    private let declared: String?
    private let fileSystem: FileSystem
    /// The desktop ID of a usable entry whose `Exec` program has this file name, if any.
    private let entryRunning: (String) -> String?
    private let diagnostics: DiagnosticSink
    private static let proc = "/proc"

    /// Whether a program only passes a link on: shells, the openers, and choosy itself. (A
    /// switch of short names costs less per ancestor than hashing them into a Set.)
    package static func passesLinksOn(_ program: String) -> Bool {
        switch program {
        // gio-launch-desktop's command name is cut to 15 bytes in `stat`.
        case "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "busybox",
            "xdg-open", "gio", "gio-launch-desktop", "gio-launch-desk", "env", "setsid", "flatpak-spawn", "choosy":
            true
        default:
            false
        }
    }
    private static let variableNames = ["GIO_LAUNCHED_DESKTOP_FILE", "GIO_LAUNCHED_DESKTOP_FILE_PID", "BAMF_DESKTOP_FILE_HINT"]
    /// A tree deeper than this is no desktop's.
    private static let maxAncestors = 64

    package init(
        declared: String?, fileSystem: FileSystem, diagnostics: DiagnosticSink,
        entryRunning: @escaping (String) -> String?
    ) {
        self.declared = declared
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
        self.entryRunning = entryRunning
    }

    package func find() -> LinkSource? {
        let found = declared.map { LinkSource(id: $0, how: "CHOOSY_SOURCE") } ?? ancestorApp() ?? scopeApp()
        if let found {
            diagnostics.explain("the link came from \(found.id) (\(found.how))")
        } else {
            diagnostics.explain("the link came from no app choosy can name")
        }
        return found
    }

    // MARK: Ancestors

    private func ancestorApp() -> LinkSource? {
        let me = Self.proc + "/self"
        guard let ids = smallFile(me + "/stat").flatMap(ProcessFiles.stat), let user = fileSystem.info(me)?.owner else {
            diagnostics.explain("cannot read \(me)/stat: choosy's ancestors are not looked at")
            return nil
        }
        var pid = ids.parent
        // An array: at most `maxAncestors`, and a Set of pids cost more than the walk. Of Int,
        // whose array type the runtime has ready (one of Int32 is made on first use).
        var seen: [Int] = [Int(ids.pid)]
        while pid > 1, seen.count <= Self.maxAncestors, !seen.contains(Int(pid)) {
            seen.append(Int(pid))
            let directory = Self.proc + "/" + String(pid)
            guard let info = fileSystem.info(directory), info.kind == .directory else {
                diagnostics.explain("process \(pid) is gone: its ancestors are not looked at")
                return nil
            }
            // Another user's process (sudo, a setuid helper) says nothing about this user's apps.
            guard info.owner == user else {
                diagnostics.explain("process \(pid) belongs to another user: it and its ancestors are not looked at")
                return nil
            }
            guard let stat = smallFile(directory + "/stat").flatMap(ProcessFiles.stat), stat.pid == pid else {
                diagnostics.explain("process \(pid) ended while it was read: its ancestors are not looked at")
                return nil
            }
            // Started as a shell or an opener (a script by its own name): its arguments are not read.
            if Self.passesLinksOn(stat.name) {
                pid = stat.parent
                continue
            }
            // Anyone may read a live process's arguments: with neither them nor an executable, it ended.
            let programs = programNames(in: directory)
            guard !programs.isEmpty else {
                diagnostics.explain("process \(pid) ended while it was read: its ancestors are not looked at")
                return nil
            }
            if let app = app(pid, in: directory, running: programs) { return app }
            pid = stat.parent
        }
        return nil
    }

    /// The app process `pid` is, or nil for a process that passes links on or is no app. The
    /// entry its launcher named beats the entries of its program: one program may serve several
    /// (a browser's web apps, `flatpak`; doc/links-and-rules.md).
    private func app(_ pid: Int32, in directory: String, running programs: [String]) -> LinkSource? {
        if programs.contains(where: Self.passesLinksOn) { return nil }
        if let launched = launchedApp(pid, in: directory, name: programs[0]) { return launched }
        for program in programs {
            if let id = entryRunning(program) {
                return LinkSource(id: id, how: "process \(pid) runs \(singleLine(program)), the Exec of \(id)")
            }
        }
        return nil
    }

    /// The entry process `pid` was launched for, by its own environment: GIO's
    /// `GIO_LAUNCHED_DESKTOP_FILE` with its pid, or `BAMF_DESKTOP_FILE_HINT`.
    private func launchedApp(_ pid: Int32, in directory: String, name: String) -> LinkSource? {
        let variables: [String: String]
        do {
            variables = ProcessFiles.variables(
                Self.variableNames, inEnviron: try fileSystem.readProcessFile(directory + "/environ", limit: ProcessFiles.environmentLimit))
        } catch {
            diagnostics.explain("the environment of process \(pid) (\(singleLine(name))) is not searched: \(error)")
            return nil
        }
        if let file = variables["GIO_LAUNCHED_DESKTOP_FILE"], variables["GIO_LAUNCHED_DESKTOP_FILE_PID"] == String(pid) {
            if let id = Self.desktopID(ofFile: file) {
                return LinkSource(id: id, how: "the GIO_LAUNCHED_DESKTOP_FILE of process \(pid) (\(singleLine(name)))")
            }
            diagnostics.explain("the GIO_LAUNCHED_DESKTOP_FILE of process \(pid) names no desktop entry: '\(singleLine(file))'")
        }
        if let file = variables["BAMF_DESKTOP_FILE_HINT"] {
            if let id = Self.desktopID(ofFile: file) {
                return LinkSource(id: id, how: "the BAMF_DESKTOP_FILE_HINT of process \(pid) (\(singleLine(name)))")
            }
            diagnostics.explain("the BAMF_DESKTOP_FILE_HINT of process \(pid) names no desktop entry: '\(singleLine(file))'")
        }
        return nil
    }

    /// The file names of what a process runs (`ProcessPrograms`), by the first two arguments of its `cmdline`.
    private func programNames(in directory: String) -> [String] {
        let arguments = smallFile(directory + "/cmdline").map { ProcessFiles.arguments(ofCmdline: $0, limit: 2) } ?? []
        return ProcessPrograms(fileSystem: fileSystem).names(in: directory, arguments: arguments)
    }

    // MARK: The cgroup

    private func scopeApp() -> LinkSource? {
        let path = Self.proc + "/self/cgroup"
        guard let unit = smallFile(path).flatMap(ProcessFiles.unit(inCgroup:)) else {
            diagnostics.explain("\(path) names no unit")
            return nil
        }
        switch AppScope.read(unit) {
        case .app(let id):
            return LinkSource(id: id, how: "the scope choosy runs in, \(singleLine(unit))")
        case .noApp(let reason):
            diagnostics.explain(reason)
            return nil
        }
    }

    // MARK: Reading

    private func smallFile(_ path: String) -> [UInt8]? {
        try? fileSystem.readProcessFile(path, limit: ProcessFiles.smallFileLimit)
    }

    /// The desktop ID of an entry's path: below an `applications` directory, its path there
    /// with `/` as `-` (Desktop Entry spec, "Desktop File ID"); else its file name.
    package static func desktopID(ofFile path: String) -> String? {
        let components = path.split(separator: "/")
        let below = components.lastIndex(of: "applications").map { components[($0 + 1)...] } ?? components.suffix(1)
        let id = below.joined(separator: "-")
        return DesktopEntryIndex.isValidID(id) && !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            ? id : nil
    }
}
