/// Choosy's promise for `handle`, the desktop's link handler: when a choice is needed and no
/// picker can be shown, the link opens as if choosy were not there (doc/desktop.md). The app is the
/// user's own default for the type when it is one of the candidates (installed, and able to
/// take the link), as the user chose it (its profile or container too), else the handler
/// `choosy install` replaced, else the scheme's default, else the first candidate; it is used
/// just once, and the user is told on stderr and, when a display and `notify-send` are there,
/// in a notification. With `--private` it is a private window: the system's handlers know
/// none, so they count only as one of the candidates (which are the apps that can open one).
struct SystemHandlerFallback {
    let probe: AppProbe
    /// The handler `choosy install --default-handler` replaced for a MIME type.
    let previousHandler: (String) -> String?
    let launcher: Launcher
    let notifier: DesktopNotifier
    let diagnostics: DiagnosticSink

    /// `choosing`: the link's open flow with this choice key as `--app`, just once: how a
    /// choice of the candidates opens as the user would have had it picked.
    func open(
        _ link: String, scheme: String, type: String, unpicked: UnpickedChoice, options: OpenOptions,
        choosing: (String) throws(ChoosyError) -> OpenResult
    ) throws(ChoosyError) -> OpenResult {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let systems = [previousHandler("x-scheme-handler/\(scheme)"), probe.mimeApps.associations(forScheme: scheme).defaultEntry?.id]
            .compactMap { $0 }
        let systemsHandler = "the system's handler for \(scheme): links"
        if let chosen = unpicked.candidates.first(where: { $0.key == unpicked.userDefault }) {
            let whose = "your default for \(unpicked.typeName)"
            return opened(try choosing(chosen.key), name: chosen.name, whose: whose, unpicked: unpicked, options: options)
        }
        if options.privateWindow {
            // A system's handler that is a candidate opens as its app's own default profile.
            if let system = systems.lazy.compactMap({ id in unpicked.candidates.first { $0.desktopID == id } }).first {
                let result = try choosing(ChoiceKey.split(system.key).app)
                return opened(result, name: entryName(result.desktopID), whose: systemsHandler, unpicked: unpicked, options: options)
            }
            guard let first = unpicked.candidates.first else {
                throw .noChoice("no picker available, and no app that can open a private window can take \(link.prefix(60))")
            }
            let whose = "the first app of \(unpicked.typeName) that opens private windows"
            return opened(try choosing(first.key), name: first.name, whose: whose, unpicked: unpicked, options: options)
        }
        let ids = systems + unpicked.candidates.map(\.desktopID)
        guard let entry = ids.lazy.compactMap({ probe.index.usableEntry(id: $0) }).first else {
            throw .unavailable("no picker available, and no app is associated with \(scheme): links to open \(link.prefix(60)) without one")
        }
        let argv = options.dryRun ? try launcher.argv(for: entry, url: link) : try launcher.launch(entry, url: link)
        let result = OpenResult(
            type: type, action: nil, app: InstalledAppFinder.key(forDesktopID: entry.id), url: link, argv: argv, desktopID: entry.id)
        return opened(result, name: entryName(entry.id), whose: systemsHandler, unpicked: unpicked, options: options)
    }

    /// The entry's (localized) name, for a handler that is no candidate of its own.
    private func entryName(_ id: String?) -> String {
        let entry = id.flatMap { probe.index.usableEntry(id: $0) }
        return entry?.localizedValue("Name", for: probe.locale) ?? id ?? "its handler"
    }

    /// Says what opened the link, on stderr and in a notification.
    private func opened(_ result: OpenResult, name: String, whose: String, unpicked: UnpickedChoice, options: OpenOptions) -> OpenResult {
        let opened = (options.dryRun ? "would open" : "opened") + (options.privateWindow ? " in a private window" : "")
        let message = "no picker available, so the link \(opened) with \(name), \(whose), just once (\(unpicked.reason))"
        diagnostics.warning(message)
        if !options.dryRun { notifier.notify(message) }
        return result
    }
}
