extension Choosy {
    /// `choosy open` and `choosy url`.
    package func open(_ request: OpenRequest) throws(ChoosyError) -> OpenResult {
        try actionOpener().open(request)
    }

    /// What `handle` did with a link.
    package enum HandleResult: Sendable {
        case opened(OpenResult)
        case routed(RouteReport)
    }

    /// `choosy handle URL`: a plain link opened through the app type it stands for (README, "choosy handle").
    /// When a choice is needed and no picker can be shown, the link opens as it would have
    /// without choosy, with the system's own handler, just once.
    package func handle(_ link: String, options: OpenOptions) throws(ChoosyError) -> HandleResult {
        // A clicked link has no terminal: what was said about corrupt files is shown on the
        // desktop too, as the fallback's own notice is.
        defer {
            let said = corruptFiles.messages
            if !options.dryRun && !said.isEmpty { desktopNotifier().notify(said.joined(separator: "\n")) }
        }
        let target = try LinkClassifier(catalogLinks: catalogLinks(for:), diagnostics: diagnostics).classify(link)
        do {
            switch target {
            case .action(let action):
                diagnostics.explain("\(link) is \(action.type) \(action.action)")
                let parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                return .opened(try open(OpenRequest(type: action.type, action: action.action, parameters: parameters, options: options, link: action.link)))
            case .route(let url):
                return .routed(try route(url, options: options))
            case .scheme(let scheme):
                return .opened(try openLink(link, scheme: scheme, options: options))
            }
        } catch {
            // The system's own handler knows no private windows: `--private` is never dropped.
            guard !options.privateWindow, let unpicked = error.unpicked, case let scheme? = URLParts(link)?.scheme.lowercased(), scheme != "choosy" else { throw error }
            var typeKey = Choosy.typeKey(forScheme: scheme)
            if case .action(let action) = target { typeKey = action.type }
            return .opened(try systemHandlerFallback().open(link, scheme: scheme, type: typeKey, candidates: unpicked, options: options))
        }
    }

    /// The links of the app types that have links for `host`, in the order `list` shows the
    /// types. Only the catalog's own data counts: no desktop entry is read to know what a link is.
    package func catalogLinks(for host: WebHost) throws(ChoosyError) -> CatalogLinkMatcher {
        let catalog = try catalog()
        var types: [(AppType, [CatalogLink])] = []
        for key in catalog.typesWithLinks(matching: host) { types.append((try catalog.appType(key), catalog.links(of: key))) }
        return CatalogLinkMatcher(types: types, host: host, diagnostics: diagnostics)
    }

    /// The preferences key of links whose scheme no app type claims (`zqq` → `scheme_zqq`).
    static func typeKey(forScheme scheme: String) -> String {
        "scheme_" + keyFromText(scheme)
    }

    /// A link of another scheme goes, unchanged, to the installed apps of the type whose
    /// `schemes` hold it, else of a type with catalog apps of that scheme, else to the entries
    /// associated with the scheme (the default first).
    private func openLink(_ link: String, scheme: String, options: OpenOptions) throws(ChoosyError) -> OpenResult {
        // Local files may open in an editor or player, but script and inline-data links never run.
        guard !["data", "javascript", "vbscript"].contains(scheme) else {
            throw .usage("refusing to open a \(scheme): link")
        }
        var types: [AppType] = []
        for summary in try catalog().summaries() { types.append(try appType(summary.key)) }
        let claiming = types.filter { $0.schemes.contains(scheme) } + types.filter { !$0.schemes.contains(scheme) }
        for type in claiming {
            guard type.apps.contains(where: { !$0.isWebApp && $0.scheme == scheme }) else { continue }
            let installed = try installedApps(of: type).filter { !$0.isWebApp && $0.app.scheme == scheme }
            guard !installed.isEmpty else { continue }
            diagnostics.explain("\(scheme): links belong to \(type.name) apps: \(installed.map(\.app.key).joined(separator: ", "))")
            return try actionOpener().open(link: link, type: type, candidates: installed, options: options)
        }
        let entries = probe().mimeApps.associations(forScheme: scheme).defaultFirst
        guard !entries.isEmpty else { throw .unavailable("nothing installed handles \(scheme): links") }
        // No app type claims the scheme: its handlers are the apps of a type of their own,
        // remembered under `scheme_<scheme>`.
        var keys: Set<String> = []
        let candidates = entries.map { entry in
            let key = InstalledAppFinder.uniqueKey(InstalledAppFinder.key(forDesktopID: entry.id), taken: &keys)
            let app = App(key: key, name: entry.name ?? key, urlScheme: scheme + ":", desktopIDs: [entry.id])
            return InstalledApp(app: app, entry: entry, displayName: probe().displayName(for: app, entry: entry))
        }
        let type = AppType(key: Choosy.typeKey(forScheme: scheme), name: "\(scheme): links", apps: candidates.map(\.app))
        diagnostics.explain("no app type claims \(scheme): links; the entries associated with them: \(entries.map(\.id).joined(separator: ", "))")
        return try actionOpener().open(link: link, type: type, candidates: candidates, options: options)
    }
}
