/// Choosy's promise for `handle`, the desktop's link handler: when a choice is needed and no
/// picker can be shown, the link opens as if choosy were not there (doc/desktop.md). The app is the
/// user's own default for the type when it is one of the candidates (installed, and able to
/// take the link), else the handler `choosy install` replaced, else the scheme's default,
/// else the first candidate; it is used just once, and the user is told on stderr and, when a
/// display and `notify-send` are there, in a notification.
struct SystemHandlerFallback {
    let probe: AppProbe
    /// The handler `choosy install --default-handler` replaced for a MIME type.
    let previousHandler: (String) -> String?
    let launcher: Launcher
    let notifier: DesktopNotifier
    let diagnostics: DiagnosticSink

    func open(_ link: String, scheme: String, type: String, unpicked: UnpickedChoice, options: OpenOptions) throws(ChoosyError)
        -> OpenResult
    {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let systems = [previousHandler("x-scheme-handler/\(scheme)"), probe.mimeApps.associations(forScheme: scheme).defaultEntry?.id]
            .compactMap { $0 }
        let userDefault = unpicked.userDefault.flatMap { probe.index.usableEntry(id: $0) }
        guard let entry = userDefault ?? (systems + unpicked.desktopIDs).lazy.compactMap({ probe.index.usableEntry(id: $0) }).first else {
            throw .unavailable("no picker available, and no app is associated with \(scheme): links to open \(link.prefix(60)) without one")
        }
        let argv = options.dryRun ? try launcher.argv(for: entry, url: link) : try launcher.launch(entry, url: link)
        let name = entry.localizedValue("Name", for: probe.locale) ?? entry.id
        let whose = userDefault != nil ? "your default for \(unpicked.typeName)" : "the system's handler for \(scheme): links"
        let opened = options.dryRun ? "would open" : "opened"
        let message = "no picker available, so the link \(opened) with \(name), \(whose), just once (\(unpicked.reason))"
        diagnostics.warning(message)
        if !options.dryRun { notifier.notify(message) }
        return OpenResult(
            type: type, action: nil, app: InstalledAppFinder.key(forDesktopID: entry.id), url: link, argv: argv, desktopID: entry.id)
    }
}
