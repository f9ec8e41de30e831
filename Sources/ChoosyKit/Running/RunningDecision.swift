/// The decisions that what runs and where make (SPEC §6.2, doc/running.md), as pure functions:
/// tested directly, and taken by the planner as steps of the plan.
package enum RunningDecision {
    /// `"running": "first"`: the candidates that run first, each part in the order it had.
    package static func runningFirst(_ candidates: [InstalledApp], running: RunningChoices) -> [InstalledApp] {
        candidates.filter(running.isRunning) + candidates.filter { !running.isRunning($0) }
    }

    /// `"running": "use"`, once no `--app`, rule or still-valid default decided: the one
    /// candidate that runs; of several, the one with a window on the current workspace when
    /// exactly one has one (`windowHere` is nil when no window system said); else none, and the
    /// usual decision stands. The reason says which, for `-v` and `why`.
    package static func use(_ candidates: [InstalledApp], running: RunningChoices, windowHere: (InstalledApp) -> Bool?)
        -> (chosen: InstalledApp?, reason: String)
    {
        let runs = candidates.filter(running.isRunning)
        switch runs.count {
        case 0: return (nil, "no candidate runs")
        case 1: return (runs[0], "'\(runs[0].key)' is the only candidate that runs")
        default:
            let listed = runs.map { "'\($0.key)'" }.joined(separator: ", ")
            let here = runs.map(windowHere)
            guard here.contains(where: { $0 != nil }) else {
                return (nil, "\(runs.count) candidates run (\(listed)), and no window system says which has a window on this workspace")
            }
            let withWindow = zip(runs, here).filter { $0.1 == true }.map(\.0)
            guard withWindow.count == 1 else {
                return (nil, "\(runs.count) candidates run (\(listed)), and \(withWindow.count) of them have a window on this workspace")
            }
            return (
                withWindow[0],
                "of the \(runs.count) candidates that run (\(listed)), only '\(withWindow[0].key)' has a window on this workspace"
            )
        }
    }

    /// What is done before a running browser is handed the link.
    package enum HandOver: Equatable, Sendable {
        /// Its window on the current workspace gets the focus, so its new tab opens there.
        case focus(SessionWindow)
        /// It opens the link in a new window (`new_window_here`), its windows being elsewhere.
        case newWindow([String])
        case nothing
    }

    /// Before `chosen` is handed the link: the focus to its window on the current workspace
    /// (the first its window system lists), or, with `newWindowHere` and only windows on other
    /// workspaces, a new window by its catalog's `new_window` arguments; with the reason.
    /// `windows` is nil when no window system said where they are.
    package static func handOver(
        _ chosen: InstalledApp, runs: Bool, windows: (here: [SessionWindow], elsewhere: [SessionWindow])?, newWindowHere: Bool,
        privateWindow: Bool
    ) -> (HandOver, reason: String) {
        guard runs else { return (.nothing, "\(chosen.key) does not run: it starts with the link") }
        guard !privateWindow else { return (.nothing, "a private window is a new window of its own") }
        guard let windows else { return (.nothing, "\(chosen.key) runs, and no window system says where its windows are") }
        if let window = windows.here.first {
            return (.focus(window), "\(chosen.key) has a window on this workspace: it gets the focus first, and the link opens there")
        }
        guard !windows.elsewhere.isEmpty else { return (.nothing, "\(chosen.key) runs with no window the window system shows") }
        guard newWindowHere else {
            return (.nothing, "\(chosen.key)'s windows are all on other workspaces (new_window_here would open a new one here)")
        }
        guard let arguments = chosen.app.newWindowArguments else {
            return (.nothing, "\(chosen.key)'s windows are all on other workspaces, and the catalog has no new_window arguments for it")
        }
        return (.newWindow(arguments), "\(chosen.key)'s windows are all on other workspaces: a new window opens here")
    }
}
