/// Choosy's promise for `handle`, the desktop's link handler: when a choice is needed and no
/// picker can be shown, the link opens as if choosy were not there (doc/desktop.md). The app is the
/// user's own default for the type when it is one of the candidates (installed, and able to
/// take the link), as the user chose it (its profile or container too), else the handler
/// `choosy install` replaced, else the scheme's default, else the first candidate; it is used
/// just once, and the user is told on stderr and, when a display and `notify-send` are there,
/// in a notification. With `--private` it is a private window: the system's handlers know
/// none, so they count only as one of the candidates (which are the apps that can open one).
struct SystemHandlerFallback {
    /// Whose handlers the system would use: the MIME types, nearest first
    /// (`x-scheme-handler/<scheme>` for a link; a local file's type and those it is a kind of),
    /// how to say them (`https: links`), and a local file's path (its bytes reach the app).
    struct Handlers {
        var mimeTypes: [String]
        var described: String
        var localFile: [UInt8]?
        /// The browser started with no link (SPEC §6.1).
        var noLink = false

        /// What is opened, as messages say it.
        var opened: String { noLink ? "the browser" : localFile == nil ? "the link" : "the file" }
    }

    let probe: AppProbe
    /// The handler `choosy install --default-handler` replaced for a MIME type.
    let previousHandler: (String) -> String?
    let launcher: Launcher
    let notifier: DesktopNotifier
    let diagnostics: DiagnosticSink

    /// `choosing`: the link's open flow with this choice key as `--app`, just once: how a
    /// choice of the candidates opens as the user would have had it picked.
    func open(
        _ link: String?, system: Handlers, type: String, unpicked: UnpickedChoice, options: OpenOptions,
        choosing: (String) throws(ChoosyError) -> OpenResult
    ) throws(ChoosyError) -> OpenResult {
        if let link, let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let shown = link.map { String($0.prefix(60)) } ?? "the browser"
        // What the user hid is not taken here either (SPEC §6.1).
        let systems = [previousHandler(system.mimeTypes[0]), probe.mimeApps.associations(forTypes: system.mimeTypes).defaultEntry?.id]
            .compactMap { $0 }.filter { !unpicked.hiddenEntries.contains($0) }
        let systemsHandler = "the system's handler for \(system.described)"
        if let chosen = unpicked.candidates.first(where: { $0.key == unpicked.userDefault }) {
            let whose = "your default for \(unpicked.typeName)"
            return opened(
                try choosing(chosen.key), name: chosen.name, whose: whose, unpicked: unpicked, options: options, what: system.opened)
        }
        if options.privateWindow {
            // A system's handler that is a candidate opens as its app's own default profile.
            if let handler = systems.lazy.compactMap({ id in unpicked.candidates.first { $0.desktopID == id } }).first {
                let result = try choosing(ChoiceKey.split(handler.key).app)
                return opened(
                    result, name: entryName(result.desktopID), whose: systemsHandler, unpicked: unpicked, options: options,
                    what: system.opened)
            }
            guard let first = unpicked.candidates.first else {
                throw .noChoice("no picker available, and no app that can open a private window can take \(shown)")
            }
            let whose = "the first app of \(unpicked.typeName) that opens private windows"
            return opened(
                try choosing(first.key), name: first.name, whose: whose, unpicked: unpicked, options: options, what: system.opened)
        }
        let ids = systems + unpicked.candidates.map(\.desktopID)
        guard let entry = ids.lazy.compactMap({ probe.index.usableEntry(id: $0) }).first else {
            throw .unavailable(
                "no picker available, and no app is associated with \(system.described) to open \(shown) without one")
        }
        let form = LaunchForm(localFile: system.localFile)
        let argv = options.dryRun ? try launcher.argv(for: entry, url: link, form: form) : try launcher.launch(entry, url: link, form: form)
        let result = OpenResult(
            type: type, action: nil, app: InstalledAppFinder.key(forDesktopID: entry.id), url: link, argv: argv, desktopID: entry.id)
        return opened(result, name: entryName(entry.id), whose: systemsHandler, unpicked: unpicked, options: options, what: system.opened)
    }

    /// The entry's (localized) name, for a handler that is no candidate of its own.
    private func entryName(_ id: String?) -> String {
        let entry = id.flatMap { probe.index.usableEntry(id: $0) }
        return entry?.localizedValue("Name", for: probe.locale) ?? id ?? "its handler"
    }

    /// Says what opened the link, on stderr and in a notification.
    private func opened(
        _ result: OpenResult, name: String, whose: String, unpicked: UnpickedChoice, options: OpenOptions, what: String
    ) -> OpenResult {
        let opened = (options.dryRun ? "would open" : "opened") + (options.privateWindow ? " in a private window" : "")
        let message = "no picker available, so \(what) \(opened) with \(name), \(whose), just once (\(unpicked.reason))"
        diagnostics.warning(message)
        if !options.dryRun { notifier.notify(message) }
        return result
    }
}
