/// Where the running choices' windows are (doc/running.md): asked of the session's window
/// system once, when first needed, within the 250 ms that all its requests share (reading and
/// focusing alike); a window is an instance's when its process, or one of that process's
/// ancestors, is one of the instance's. A window system that cannot be asked is skipped with
/// one line under `-v`, and then only running counts.
package final class WorkspaceWindows {
    private let system: (any WindowSystem)?
    private let fileSystem: FileSystem
    private let diagnostics: DiagnosticSink
    /// Seconds left of the budget of all requests.
    private var budget: Double
    private var read: [SessionWindow]??

    /// The bound of all compositor requests together.
    package static let budget = 0.25
    /// A process tree deeper than this is no desktop's.
    private static let maxAncestors = 64

    package init(system: (any WindowSystem)?, fileSystem: FileSystem, diagnostics: DiagnosticSink, budget: Double = WorkspaceWindows.budget)
    {
        self.system = system
        self.fileSystem = fileSystem
        self.diagnostics = diagnostics
        self.budget = budget
    }

    /// Every window of the session, or nil when no window system answered.
    package func windows() -> [SessionWindow]? {
        if let read { return read }
        var found: [SessionWindow]?
        if let system {
            do {
                found = try spending { deadline throws(WindowSystemError) in try system.windows(before: deadline) }
                let here = found!.filter(\.onCurrentWorkspace).count
                diagnostics.explain("\(system.name): \(found!.count) window(s), \(here) on the current workspace")
            } catch {
                diagnostics.explain("\(system.name) is skipped: it \(error): only running choices count")
            }
        } else {
            diagnostics.explain("no window system choosy can ask (sway, i3, Hyprland, niri, KWin, X11): only running choices count")
        }
        read = .some(found)
        return found
    }

    /// The windows of `instances`, on the current workspace and elsewhere; nil when no window
    /// system answered.
    package func windows(of instances: [RunningChoices.Instance]) -> (here: [SessionWindow], elsewhere: [SessionWindow])? {
        guard let windows = windows() else { return nil }
        let pids = Set(instances.flatMap(\.pids))
        let theirs = windows.filter { window in window.pid.map { owned($0, by: pids) } ?? false }
        return (theirs.filter(\.onCurrentWorkspace), theirs.filter { !$0.onCurrentWorkspace })
    }

    /// Gives `window` the focus; false (with one line under `-v`) when the window system would not.
    package func focus(_ window: SessionWindow) -> Bool {
        guard let system else { return false }
        do {
            try spending { deadline throws(WindowSystemError) in try system.focus(window, before: deadline) }
            diagnostics.explain("\(system.name) focused window \(singleLine(window.id)) on the current workspace")
            return true
        } catch {
            diagnostics.explain("\(system.name) did not focus window \(singleLine(window.id)): it \(error)")
            return false
        }
    }

    /// Runs a step with what is left of the budget as its deadline, and takes what it spent off.
    private func spending<Result>(_ step: (Deadline) throws(WindowSystemError) -> Result) throws(WindowSystemError) -> Result {
        guard budget > 0 else { throw WindowSystemError("did not answer in time") }
        let start = monotonicSeconds()
        defer { budget -= monotonicSeconds() - start }
        return try step(Deadline(end: start + budget))
    }

    private var parents: [Int32: Int32] = [:]

    /// Whether `pid` or one of its ancestors (the user's own processes) is one of `pids`.
    private func owned(_ pid: Int32, by pids: Set<Int32>) -> Bool {
        var current = pid
        for _ in 0..<Self.maxAncestors {
            if pids.contains(current) { return true }
            guard current > 1, let parent = parent(of: current) else { return false }
            current = parent
        }
        return false
    }

    private lazy var user = fileSystem.info("/proc/self")?.owner

    /// The parent of a live process of the user's, read once.
    private func parent(of pid: Int32) -> Int32? {
        if let known = parents[pid] { return known }
        let directory = "/proc/" + String(pid)
        guard let user, fileSystem.info(directory)?.owner == user,
            let stat = try? fileSystem.readProcessFile(directory + "/stat", limit: ProcessFiles.smallFileLimit),
            let ids = ProcessFiles.stat(stat), ids.pid == pid
        else { return nil }
        parents[pid] = ids.parent
        return ids.parent
    }
}
