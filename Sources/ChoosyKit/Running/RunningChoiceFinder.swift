/// Finds which choices run (doc/running.md): the user's own processes, below `/proc`, that run
/// a choice's program (its entry's `Exec` program, matched as `ProcessPrograms` matches where
/// a link came from), then for a browser with profiles the profile each was started for.
/// A process whose parent runs the same app is one of that instance's (a browser's content
/// and helper processes); its own arguments do not name a profile. Everything is read through
/// the file system seam; a process that ends while it is read is passed over.
package struct RunningChoiceFinder {
    private let fileSystem: FileSystem
    private let diagnostics: DiagnosticSink
    private static let proc = "/proc"
    /// A process tree deeper than this is no desktop's.
    private static let maxAncestors = 64

    package init(fileSystem: FileSystem, diagnostics: DiagnosticSink) {
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
    }

    /// A process of the user's that runs one of the apps' programs.
    private struct Process {
        var pid: Int32
        var parent: Int32
        var app: String
        var arguments: [String]
    }

    /// The instances of the apps of `choices` that run (choices without an entry never do).
    package func find(among choices: [InstalledApp]) -> RunningChoices {
        var apps: [String: App] = [:]
        var programs: [String: [String]] = [:]
        var profiles: [String: [BrowserProfile]] = [:]
        for choice in choices {
            if let profile = choice.profile, profile.container == nil, profiles[choice.app.key]?.contains(profile) != true {
                profiles[choice.app.key, default: []].append(profile)
            }
            guard apps[choice.app.key] == nil, let entry = choice.entry, let program = DesktopEntryIndex.programName(of: entry) else {
                continue
            }
            apps[choice.app.key] = choice.app
            programs[program, default: []].append(choice.app.key)
        }
        guard !programs.isEmpty else { return .none }
        guard let user = fileSystem.info(Self.proc + "/self")?.owner, let names = fileSystem.list(Self.proc) else {
            diagnostics.explain("cannot list \(Self.proc): no choice counts as running")
            return .none
        }
        let reader = ProcessPrograms(fileSystem: fileSystem)
        var found: [Process] = []
        for name in names {
            guard let pid = ASCIINumber.decimal(ArraySlice(name.utf8)).flatMap(Int32.init(exactly:)) else { continue }
            let directory = Self.proc + "/" + name
            // Another user's process is none of this user's choices; one gone has no owner.
            guard let info = fileSystem.info(directory), info.kind == .directory, info.owner == user,
                let cmdline = try? fileSystem.readProcessFile(directory + "/cmdline", limit: ProcessFiles.smallFileLimit)
            else { continue }
            let first = ProcessFiles.arguments(ofCmdline: cmdline, limit: 2)
            // A kernel thread has no command line.
            guard !first.isEmpty else { continue }
            for program in reader.names(in: directory, arguments: first) {
                guard let keys = programs[program] else { continue }
                let arguments = ProcessFiles.arguments(ofCmdline: cmdline)
                // The parent is read last: a process gone by then is passed over.
                guard let stat = try? fileSystem.readProcessFile(directory + "/stat", limit: ProcessFiles.smallFileLimit),
                    let ids = ProcessFiles.stat(stat), ids.pid == pid
                else { break }
                for key in keys { found.append(Process(pid: pid, parent: ids.parent, app: key, arguments: arguments)) }
                break
            }
        }
        // In the order they started, as far as pids tell (the kernel lists them so).
        found.sort { $0.pid < $1.pid }
        return RunningChoices(instances: instances(of: found, apps: apps, profiles: profiles))
    }

    /// Each process whose parent runs another app (or none) starts an instance; the others
    /// join their parent's, nearest first.
    private func instances(of processes: [Process], apps: [String: App], profiles: [String: [BrowserProfile]])
        -> [RunningChoices.Instance]
    {
        var instances: [RunningChoices.Instance] = []
        var instanceOf: [String: Int] = [:]
        func key(_ pid: Int32, _ app: String) -> String { "\(pid) \(app)" }
        let parents = Dictionary(processes.map { (key($0.pid, $0.app), $0.parent) }, uniquingKeysWith: { first, _ in first })
        for process in processes where parents[key(process.parent, process.app)] == nil {
            guard let app = apps[process.app], case .profile(let name) = profile(of: process, app: app, among: profiles[app.key] ?? [])
            else { continue }
            instanceOf[key(process.pid, process.app)] = instances.count
            instances.append(RunningChoices.Instance(app: process.app, profile: name, pids: [process.pid]))
        }
        for process in processes where parents[key(process.parent, process.app)] != nil {
            // Up the parents that run the app to the one that started the instance.
            var top = process.parent
            var steps = 0
            while let parent = parents[key(top, process.app)], instanceOf[key(top, process.app)] == nil, steps < Self.maxAncestors {
                top = parent
                steps += 1
            }
            guard let index = instanceOf[key(top, process.app)] else { continue }
            instances[index].pids.append(process.pid)
        }
        // A profile named by its lock belongs to the instance of the process that holds it,
        // which may be one its first process started (a wrapper script's browser).
        for index in instances.indices where instances[index].profile == nil && apps[instances[index].app]?.profiles?.format == .firefox {
            instances[index].profile = lockedProfile(among: profiles[instances[index].app] ?? [], heldByOneOf: instances[index].pids)
        }
        return instances
    }

    private enum AskedProfile {
        /// The name of the profile, nil for none choosy knows (the browser's own default).
        case profile(String?)
        /// Chromium with another user data directory, whose profiles are none of the choices.
        case otherUserData
    }

    /// The profile a process's arguments ask for, among the app's `profiles`.
    private func profile(of process: Process, app: App, among profiles: [BrowserProfile]) -> AskedProfile {
        switch (app.profiles?.format, ProfileArguments.firefox(process.arguments), ProfileArguments.chromium(process.arguments)) {
        case (.firefox, .named(let name), _): return .profile(profiles.first { $0.selector == name }?.name)
        case (.firefox, .directory(let directory), _): return .profile(profiles.first { $0.directory == directory }?.name)
        case (.chromium, _, .chromium(let userData, let directory)):
            if let userData, let own = profiles.first?.directory.map(parentDirectory(of:)), userData != own { return .otherUserData }
            return .profile(directory.flatMap { directory in profiles.first { $0.selector == directory }?.name })
        default: return .profile(nil)
        }
    }

    /// The Firefox profile whose `lock` one of `pids` holds.
    private func lockedProfile(among profiles: [BrowserProfile], heldByOneOf pids: [Int32]) -> String? {
        profiles.first { profile in
            guard let directory = profile.directory, let target = fileSystem.linkTarget(joinPath(directory, "lock")),
                let holder = ProfileArguments.lockHolder(target)
            else { return false }
            return pids.contains(holder)
        }?.name
    }
}
