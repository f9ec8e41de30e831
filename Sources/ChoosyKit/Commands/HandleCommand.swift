/// `choosy handle URL`: a plain link opened through the app type it stands for (README,
/// "choosy handle").
struct HandleCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.opening(
        "handle", "open a plain link through its app type",
        options: CommandGrammar.cleaning,
        help:
            "Opens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route. For an http(s) link, its site rule (choosy help rule) decides first. With --unshorten (or unshorten in the config), a shortened link (t.co, bit.ly, …) is first followed to where it leads; with --clean (or clean_links in the config), the link is cleaned of its trackers (choosy help clean)."
    )

    let link: String

    init(_ line: ParsedCommandLine) { link = line.arguments[0] }

    /// When a choice is needed and no picker can be shown, the link opens as it would have
    /// without choosy, with the system's own handler, just once.
    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let diagnostics = choosy.diagnostics
        let options = context.options.open
        // The cleaned link is the one the rules, the catalog links and the app see.
        let link = choosy.linkToOpen(link, clean: context.options.clean, unshorten: context.options.unshorten)
        // A clicked link has no terminal: what was said about corrupt files is shown on the
        // desktop too, as the fallback's own notice is.
        defer {
            let said = choosy.corruptFiles.messages
            if !options.dryRun && !said.isEmpty { choosy.desktopNotifier().notify(said.joined(separator: "\n")) }
        }
        if LinkHandoff.isHandedBack(link, in: choosy.environment) {
            // The app choosy handed this link to gave it back (doc/security.md, "Odd files and loops").
            let message =
                "\(link) was handed back to choosy by the app it was handed to (through xdg-open or another wrapper): not opening it again, which would loop; choose another handler"
            if !options.dryRun { choosy.desktopNotifier().notify(message) }
            throw .unavailable(message)
        }
        let source = OpenCommand.askedSource(choosy, json: context.options.json)
        let target = try choosy.linkClassifier().classify(link)
        func opened(_ result: OpenResult) -> CommandOutput {
            var result = result
            result.source = source
            return CommandOutput(OpenCommand.printed(result, json: context.options.json, dryRun: options.dryRun))
        }
        // The link's way through the open flow, with the options given; the fallback takes it
        // again with `--app`.
        let open: (OpenOptions) throws(ChoosyError) -> OpenResult
        switch target {
        case .route(let url):
            return RouteCommand.output(of: try RouteCommand.route(url, options: options, in: choosy), dryRun: options.dryRun)
        case .action(let action):
            diagnostics.explain("\(link) is \(action.type) \(action.action)")
            let parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            open = { options throws(ChoosyError) in
                try choosy.actionOpener().open(
                    OpenRequest(type: action.type, action: action.action, parameters: parameters, options: options, link: action.link))
            }
        case .scheme(let scheme):
            open = { options throws(ChoosyError) in try openLink(link, scheme: scheme, options: options, in: choosy) }
        }
        do {
            return opened(try open(options))
        } catch {
            guard let unpicked = error.unpicked, case let scheme? = URLParts(link)?.scheme.lowercased() else { throw error }
            var typeKey = Self.typeKey(forScheme: scheme)
            if case .action(let action) = target { typeKey = action.type }
            let fallback = choosy.systemHandlerFallback()
            return opened(
                try fallback.open(link, scheme: scheme, type: typeKey, unpicked: unpicked, options: options) { key throws(ChoosyError) in
                    var once = options
                    once.app = key
                    return try open(once)
                })
        }
    }

    /// The preferences key of links whose scheme no app type claims (`zqq` → `scheme_zqq`).
    private static func typeKey(forScheme scheme: String) -> String {
        "scheme_" + keyFromText(scheme)
    }

    /// A link of another scheme goes, unchanged, to the installed apps of the type whose
    /// `schemes` hold it, else of a type with catalog apps of that scheme, else to the entries
    /// associated with the scheme (the default first).
    private func openLink(_ link: String, scheme: String, options: OpenOptions, in choosy: Choosy) throws(ChoosyError) -> OpenResult {
        let diagnostics = choosy.diagnostics
        // Local files may open in an editor or player, but script and inline-data links never run.
        guard !["data", "javascript", "vbscript"].contains(scheme) else {
            throw .usage("refusing to open a \(scheme): link")
        }
        var types: [AppType] = []
        for summary in try choosy.catalog().summaries() { types.append(try choosy.appType(summary.key)) }
        let claiming = types.filter { $0.schemes.contains(scheme) } + types.filter { !$0.schemes.contains(scheme) }
        for type in claiming {
            guard type.apps.contains(where: { !$0.isWebApp && $0.scheme == scheme }) else { continue }
            let installed = try choosy.installedApps(of: type).filter { !$0.isWebApp && $0.app.scheme == scheme }
            guard !installed.isEmpty else { continue }
            diagnostics.explain("\(scheme): links belong to \(type.name) apps: \(installed.map(\.app.key).joined(separator: ", "))")
            return try choosy.actionOpener().open(link: link, type: type, candidates: installed, options: options)
        }
        let entries = choosy.probe().mimeApps.associations(forScheme: scheme).defaultFirst
        guard !entries.isEmpty else { throw .unavailable("nothing installed handles \(scheme): links") }
        // No app type claims the scheme: its handlers are the apps of a type of their own,
        // remembered under `scheme_<scheme>`.
        var keys: Set<String> = []
        let candidates = entries.map { entry in
            let key = InstalledAppFinder.uniqueKey(InstalledAppFinder.key(forDesktopID: entry.id), taken: &keys)
            let app = App(key: key, name: entry.name ?? key, urlScheme: scheme + ":", desktopIDs: [entry.id])
            return InstalledApp(app: app, entry: entry, displayName: choosy.probe().displayName(for: app, entry: entry))
        }
        let type = AppType(key: Self.typeKey(forScheme: scheme), name: "\(scheme): links", apps: candidates.map(\.app))
        diagnostics.explain(
            "no app type claims \(scheme): links; the entries associated with them: \(entries.map(\.id).joined(separator: ", "))")
        return try choosy.actionOpener().open(link: link, type: type, candidates: candidates, options: options)
    }
}
