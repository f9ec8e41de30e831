/// A catalog app that can run here.
public struct InstalledApp: Sendable {
    public var app: App
    /// The desktop entry that runs it; nil for web apps, which run in the browser.
    public var entry: DesktopEntry?
    /// The entry's translated `Name` when it has one, else the catalog name.
    public var displayName: String

    public var isWebApp: Bool { entry == nil }
}

/// Which apps of a type are installed (SPEC §3): native apps through their desktop entries,
/// web apps when the browser type has an installed app. The system's default handler of an
/// app's scheme comes first, so pickers offer it first.
public struct InstalledAppFinder {
    private let probe: AppProbe
    private let diagnostics: DiagnosticSink
    /// Whether any browser is installed, asked only when a type has web apps.
    private let browserInstalled: () -> Bool
    /// The handler `choosy install --default-handler` replaced for a MIME type, if any.
    private let previousHandler: (String) -> String?

    public init(probe: AppProbe, diagnostics: DiagnosticSink, browserInstalled: @escaping () -> Bool, previousHandler: @escaping (String) -> String? = { _ in nil }) {
        self.probe = probe
        self.diagnostics = diagnostics
        self.browserInstalled = browserInstalled
        self.previousHandler = previousHandler
    }

    public func installedApps(of type: AppType) -> [InstalledApp] {
        var found: [InstalledApp] = []
        for app in type.apps {
            if app.isWebApp {
                // A browser that is a web page would hand URLs to itself.
                guard type.key != "browser" else {
                    diagnostics.explain("\(app.key): a web app cannot be a browser; ignored")
                    continue
                }
                if browserInstalled() {
                    diagnostics.explain("\(app.key): web app, installed because a browser is")
                    found.append(InstalledApp(app: app, entry: nil, displayName: app.name))
                } else {
                    diagnostics.explain("\(app.key): web app, but no browser is installed")
                }
            } else if let entry = probe.installedEntry(for: app) {
                diagnostics.explain("\(app.key): installed as \(entry.id) (\(entry.path))")
                found.append(InstalledApp(app: app, entry: entry, displayName: probe.displayName(for: app, entry: entry)))
            } else {
                diagnostics.explain("\(app.key): not installed")
            }
        }
        return found
    }

    /// `apps` with the one a mimeapps.list makes the default for its scheme first (an entry
    /// that merely lists the scheme does not count: that order is arbitrary). When choosy
    /// itself is that default, the handler it replaced counts.
    public func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp] {
        // Apps of a type mostly share a scheme: each scheme's default is looked up once (it
        // reads and parses every mimeapps.list, and the default's desktop entry).
        var defaults: [String: String?] = [:]
        func defaultID(_ mimeType: String) -> String? {
            if let known = defaults[mimeType] { return known }
            let id = probe.mimeApps.configuredDefaultEntry(for: mimeType)?.id ?? previousHandler(mimeType)
            defaults[mimeType] = .some(id)
            return id
        }
        guard let index = apps.firstIndex(where: { installed in
            guard let entry = installed.entry, !installed.app.scheme.isEmpty else { return false }
            return defaultID("x-scheme-handler/\(installed.app.scheme)") == entry.id
        }), index > 0 else { return apps }
        diagnostics.explain("\(apps[index].app.key) is the system's default for \(apps[index].app.scheme): links; offered first")
        var ordered = apps
        ordered.insert(ordered.remove(at: index), at: 0)
        return ordered
    }
}
