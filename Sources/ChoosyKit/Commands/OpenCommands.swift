extension Choosy {
    /// `choosy open` and `choosy url`.
    public func open(_ request: OpenRequest) throws(ChoosyError) -> OpenResult {
        try ActionOpener(choosy: self).open(request)
    }

    /// What `handle` did with a link.
    public enum HandleResult: Sendable {
        case opened(OpenResult)
        case routed(RouteReport)
    }

    /// `choosy handle URL`: a plain link opened through the app type it stands for (SPEC §8.1).
    public func handle(_ link: String, options: OpenOptions) throws(ChoosyError) -> HandleResult {
        switch try LinkClassifier.classify(link) {
        case .action(let action):
            diagnostics.explain("\(link) is \(action.type) \(action.action)")
            let parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return .opened(try open(OpenRequest(type: action.type, action: action.action, parameters: parameters, options: options)))
        case .route(let url):
            return .routed(try route(url, options: options))
        case .scheme(let scheme):
            return .opened(try openLink(link, scheme: scheme, options: options))
        }
    }

    /// A link of any other scheme goes, unchanged, to the catalog apps registered for it.
    private func openLink(_ link: String, scheme: String, options: OpenOptions) throws(ChoosyError) -> OpenResult {
        // Local files may open in an editor or player, but script and inline-data links never run.
        guard !["data", "javascript", "vbscript"].contains(scheme) else {
            throw .usage("refusing to open a \(scheme): link")
        }
        let catalog = try catalog()
        for summary in catalog.summaries() {
            let type = try catalog.appType(summary.key)
            guard type.apps.contains(where: { !$0.isWebApp && $0.scheme == scheme }) else { continue }
            let installed = try installedApps(of: type).filter { !$0.isWebApp && $0.app.scheme == scheme }
            guard !installed.isEmpty else { continue }
            diagnostics.explain("\(scheme): links belong to \(type.name) apps: \(installed.map(\.app.key).joined(separator: ", "))")
            return try ActionOpener(choosy: self).open(link: link, type: type, candidates: installed, options: options)
        }
        throw .unavailable("no installed app in the catalog handles \(scheme): links")
    }
}
