/// The app types and what is installed of them, as the commands and the open flow ask for
/// them. A protocol, so that the decisions above it can be tested with any apps installed.
package protocol InstalledAppDirectory: AnyObject {
    /// The app type for what the user typed (key or name, any case).
    func appType(_ input: String) throws(ChoosyError) -> AppType
    /// The installed apps of a type, the system's default handler of their scheme first where
    /// a `mimeapps.list` names one.
    func installedApps(of type: AppType) throws(ChoosyError) -> [InstalledApp]
    /// `apps` with the one a `mimeapps.list` names as its scheme's default first.
    func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp]
    /// The profiles of an installed app that declares them, from its installed variant's list.
    func profiles(of installed: InstalledApp) -> [BrowserProfile]
    /// The keys of every app type, in the order `list` shows them.
    func typeKeys() -> [String]
    /// The keys of the app types that may claim one of these MIME types (`mime_types`), in that order.
    func typeKeys(claiming mimeTypes: [String]) -> [String]
    /// The entries associated with a scheme no app type claims, as the apps of a type of their
    /// own (`scheme_<scheme>`, where their choice is remembered), the default first; nil when
    /// none is.
    func schemeHandlers(forScheme scheme: String) -> (type: AppType, installed: [InstalledApp])?
    /// The entries that open a local file of these MIME types (its own, then those it is a kind
    /// of), as the apps of a type of their own (`file_<type>`), the default first, with the key of
    /// the default a `mimeapps.list` chose; nil when none does.
    func fileHandlers(forTypes types: [String]) -> (type: AppType, installed: [InstalledApp], listedDefault: String?)?
    /// Why an app of the type is not installed (`choosy why`).
    func whyNotInstalled(_ app: App) -> NotCandidateReason
    /// The entries that list one of the type's schemes and whose association a
    /// `mimeapps.list` removed: apps the type would otherwise have (`choosy why`).
    func removedHandlers(of type: AppType) -> [(entry: DesktopEntry, scheme: String)]
}

/// The catalog's app types with the handlers of their schemes that no catalog names, and
/// which of their apps are installed; each found once per command.
package final class InstalledCatalog: InstalledAppDirectory {
    private let catalog: Catalog
    private let finder: InstalledAppFinder
    private var types: [String: AppType] = [:]
    private var installed: [String: [InstalledApp]] = [:]
    private let profileFinder: BrowserProfileFinder
    /// By desktop ID and app key: each profile list is read at most once per command.
    private var profiles: [String: [BrowserProfile]] = [:]

    /// `previousHandler`: the handler `choosy install --default-handler` replaced for a MIME type.
    package init(
        catalog: Catalog, probe: AppProbe, profileFinder: BrowserProfileFinder, diagnostics: DiagnosticSink,
        previousHandler: @escaping (String) -> String?
    ) {
        self.catalog = catalog
        self.profileFinder = profileFinder
        self.finder = InstalledAppFinder(probe: probe, diagnostics: diagnostics, previousHandler: previousHandler)
    }

    package func appType(_ input: String) throws(ChoosyError) -> AppType {
        let key = try catalog.resolve(input)
        if let type = types[key] { return type }
        var type = try catalog.appType(key)
        type.apps += finder.discoveredApps(of: type)
        types[key] = type
        return type
    }

    package func installedApps(of type: AppType) throws(ChoosyError) -> [InstalledApp] {
        if let found = installed[type.key] { return found }
        // Web apps are installed when a browser is: asked only for types that have some.
        let found = finder.installedApps(of: type) { (try? !installedApps(of: appType("browser")).isEmpty) ?? false }
        installed[type.key] = found
        return found
    }

    package func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp] {
        finder.systemDefaultFirst(apps)
    }

    package func typeKeys() -> [String] {
        catalog.summaries().map(\.key)
    }

    package func typeKeys(claiming mimeTypes: [String]) -> [String] {
        catalog.typesClaiming(anyOf: mimeTypes)
    }

    package func schemeHandlers(forScheme scheme: String) -> (type: AppType, installed: [InstalledApp])? {
        finder.schemeHandlers(forScheme: scheme)
    }

    package func fileHandlers(forTypes types: [String]) -> (type: AppType, installed: [InstalledApp], listedDefault: String?)? {
        finder.fileHandlers(forTypes: types)
    }

    package func whyNotInstalled(_ app: App) -> NotCandidateReason {
        finder.whyNotInstalled(app)
    }

    package func removedHandlers(of type: AppType) -> [(entry: DesktopEntry, scheme: String)] {
        finder.removedHandlers(of: type)
    }

    package func profiles(of installed: InstalledApp) -> [BrowserProfile] {
        guard let entry = installed.entry else { return [] }
        let key = installed.app.key + "\n" + entry.id
        if let known = profiles[key] { return known }
        let found = profileFinder.profiles(of: installed.app, desktopID: entry.id)
        profiles[key] = found
        return found
    }
}
