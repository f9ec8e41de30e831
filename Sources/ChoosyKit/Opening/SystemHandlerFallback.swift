/// Choosy's promise for `handle`, the desktop's link handler: when a choice is needed and no
/// picker can be shown (no terminal, no rofi or zenity), the link opens as if choosy were not
/// there. The app is the handler `choosy install` replaced, else the scheme's default, else
/// the first candidate; it is used just once, and the user is told on stderr and, when a
/// display and `notify-send` are there, in a notification.
struct SystemHandlerFallback {
    let probe: AppProbe
    /// The handler `choosy install --default-handler` replaced for a MIME type.
    let previousHandler: (String) -> String?
    let launcher: Launcher
    let notifier: DesktopNotifier
    let diagnostics: DiagnosticSink

    func open(_ link: String, scheme: String, type: String, candidates: [String], options: OpenOptions) throws(ChoosyError) -> OpenResult {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let ids = [previousHandler("x-scheme-handler/\(scheme)"), probe.mimeApps.associations(forScheme: scheme).defaultEntry?.id].compactMap { $0 } + candidates
        guard let entry = ids.lazy.compactMap({ probe.index.usableEntry(id: $0) }).first else {
            throw .unavailable("no picker available, and no app is associated with \(scheme): links to open \(link.prefix(60)) without one")
        }
        let argv = options.dryRun ? try launcher.argv(for: entry, url: link) : try launcher.launch(entry, url: link)
        let name = entry.localizedValue("Name", for: probe.locale) ?? entry.id
        let message = "no picker available, so the link opened with \(name), the system's handler for \(scheme): links, just once (install rofi or zenity to choose)"
        diagnostics.warning(message)
        if !options.dryRun { notifier.notify(message) }
        return OpenResult(type: type, action: nil, app: InstalledAppFinder.key(forDesktopID: entry.id), url: link, argv: argv, desktopID: entry.id)
    }
}
