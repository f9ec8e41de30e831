/// What runs and where, for one command (doc/running.md): made by the composition root only
/// when the configuration asks (`Configuration.asksWhatRuns`), and read when first needed:
/// `/proc` for the choices asked about, the window system once.
package final class RunningWhereabouts {
    package let option: Configuration.RunningOption?
    package let newWindowHere: Bool
    private let finder: RunningChoiceFinder
    private let workspace: WorkspaceWindows
    /// The choices asked about so far, and what runs of them.
    private var asked: [InstalledApp] = []
    private var found = RunningChoices.none

    package init(option: Configuration.RunningOption?, newWindowHere: Bool, finder: RunningChoiceFinder, workspace: WorkspaceWindows) {
        self.option = option
        self.newWindowHere = newWindowHere
        self.finder = finder
        self.workspace = workspace
    }

    /// What runs of `choices`; `/proc` is read again only for a choice not asked about before.
    package func running(among choices: [InstalledApp]) -> RunningChoices {
        let known = Set(asked.map(\.key))
        let new = choices.filter { !known.contains($0.key) }
        if !new.isEmpty || asked.isEmpty {
            asked += new
            found = finder.find(among: asked)
        }
        return found
    }

    /// The windows of `choice`, here and elsewhere; nil when no window system said.
    package func windows(of choice: InstalledApp) -> (here: [SessionWindow], elsewhere: [SessionWindow])? {
        workspace.windows(of: running(among: [choice]).instances(of: choice))
    }

    /// Whether `choice` has a window on the current workspace; nil when no window system said.
    package func hasWindowHere(_ choice: InstalledApp) -> Bool? {
        windows(of: choice).map { !$0.here.isEmpty }
    }

    /// Gives `window` the focus (doc/running.md, "Bounds and faults").
    package func focus(_ window: SessionWindow) -> Bool {
        workspace.focus(window)
    }
}
