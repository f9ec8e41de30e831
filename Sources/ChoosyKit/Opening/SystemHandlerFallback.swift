/// Choosy's promise for `handle`, the desktop's link handler: when a choice is needed and no
/// picker can be shown (no terminal, no rofi or zenity), the link opens as if choosy were not
/// there. The app is the handler `choosy install` replaced, else the scheme's default, else
/// the first candidate; it is used just once, and the user is told on stderr and, when a
/// display and `notify-send` are there, in a notification.
struct SystemHandlerFallback {
    let choosy: Choosy

    func open(_ link: String, scheme: String, type: String, candidates: [String], options: OpenOptions) throws(ChoosyError) -> OpenResult {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let probe = choosy.probe()
        let previous = choosy.linkHandlerInstaller().previousHandler(for: "x-scheme-handler/\(scheme)")
        let ids = [previous].compactMap { $0 } + [probe.mimeApps.associations(forScheme: scheme).defaultEntry?.id].compactMap { $0 } + candidates
        guard let entry = ids.lazy.compactMap({ probe.index.usableEntry(id: $0) }).first else {
            throw .unavailable("no picker available, and no app is associated with \(scheme): links to open \(link.prefix(60)) without one")
        }
        let launcher = Launcher(environment: choosy.environment, runner: choosy.runner, fileSystem: choosy.fileSystem, diagnostics: choosy.diagnostics)
        let argv = options.dryRun ? try launcher.argv(for: entry, url: link) : try launcher.launch(entry, url: link)
        let name = entry.localizedValue("Name", for: probe.locale) ?? entry.id
        let message = "no picker available, so the link opened with \(name), the system's handler for \(scheme): links, just once (install rofi or zenity to choose)"
        choosy.diagnostics.warning(message)
        if !options.dryRun { notify(message) }
        return OpenResult(type: type, action: nil, app: InstalledAppFinder.key(forDesktopID: entry.id), url: link, argv: argv, desktopID: entry.id)
    }

    /// A desktop notification, when there is a desktop to show it on; never an error.
    private func notify(_ message: String) {
        let environment = choosy.environment
        guard environment.value("DISPLAY") != nil || environment.value("WAYLAND_DISPLAY") != nil,
              let program = resolveExecutable("notify-send", searchPath: environment.searchPath, fileSystem: choosy.fileSystem)
        else { return }
        let request = ProcessRequest(
            argv: [program, "--app-name=choosy", "--icon=preferences-desktop-default-applications", "choosy", message],
            environment: environment.variables, workingDirectory: "/", stdout: .discard, stderr: .discard
        )
        try? choosy.runner.spawnDetached(request)
    }
}
