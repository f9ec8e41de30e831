/// A link of a scheme that no action reads (SPEC §8.1, "another scheme"): the installed apps of
/// the type whose `schemes` hold it, else of a type with catalog apps of that scheme, else the
/// entries associated with the scheme (the default first), as a type of their own. Each gets
/// the link unchanged.
package struct SchemeHandlers {
    /// What claims the scheme.
    package enum Claim: String, Equatable, Sendable {
        /// An app type's `schemes`.
        case typeSchemes = "type"
        /// The `app_url_scheme` of catalog apps of a type.
        case appScheme = "app"
        /// Only the entries associated with `x-scheme-handler/<scheme>`.
        case associations
    }

    let apps: InstalledAppDirectory
    let diagnostics: DiagnosticSink

    func find(_ scheme: String) throws(ChoosyError) -> (type: AppType, installed: [InstalledApp], claim: Claim) {
        // Local files may open in an editor or player, but script and inline-data links never run.
        guard !LaunchableURL.refusedSchemes.contains(scheme) else {
            throw .usage("refusing to open a \(scheme): link")
        }
        var types: [AppType] = []
        for key in apps.typeKeys() { types.append(try apps.appType(key)) }
        let claiming = types.filter { $0.schemes.contains(scheme) } + types.filter { !$0.schemes.contains(scheme) }
        for type in claiming {
            guard type.apps.contains(where: { !$0.isWebApp && $0.scheme == scheme }) else { continue }
            let installed = try apps.installedApps(of: type).filter { !$0.isWebApp && $0.app.scheme == scheme }
            guard !installed.isEmpty else { continue }
            diagnostics.explain("\(scheme): links belong to \(type.name) apps: \(installed.map(\.app.key).joined(separator: ", "))")
            return (type, installed, type.schemes.contains(scheme) ? .typeSchemes : .appScheme)
        }
        guard let own = apps.schemeHandlers(forScheme: scheme) else { throw .unavailable("nothing installed handles \(scheme): links") }
        diagnostics.explain(
            "no app type claims \(scheme): links; the entries associated with them: \(own.installed.compactMap(\.entry?.id).joined(separator: ", "))"
        )
        return (own.type, own.installed, .associations)
    }
}
