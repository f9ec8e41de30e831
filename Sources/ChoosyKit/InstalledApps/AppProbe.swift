/// Decides which catalog apps are installed (doc/spec-choices.md, "Desktop entries") and what they are called here.
package struct AppProbe: Sendable {
    package let index: DesktopEntryIndex
    package let mimeApps: MimeAppsList
    package let locale: DesktopLocale?
    private let diagnostics: DiagnosticSink?

    package init(index: DesktopEntryIndex, mimeApps: MimeAppsList, locale: DesktopLocale?, diagnostics: DiagnosticSink? = nil) {
        self.index = index
        self.mimeApps = mimeApps
        self.locale = locale
        self.diagnostics = diagnostics
    }

    /// The usable entry that makes `app` installed: the first usable of its `desktopIDs`;
    /// without desktop IDs, the default of its scheme among the entries associated with it. Nil when the app is not installed,
    /// and always for web apps, which open through the `browser` type instead.
    package func installedEntry(for app: App) -> DesktopEntry? {
        guard !app.isWebApp else { return nil }
        if !app.desktopIDs.isEmpty {
            for id in app.desktopIDs {
                guard let entry = index.entry(id: id) else {
                    diagnostics?.explain("\(app.key): \(id) is not installed")
                    continue
                }
                if let reason = index.unusableReason(entry) {
                    diagnostics?.explain("\(app.key): \(id) is not usable: \(reason)")
                    continue
                }
                return entry
            }
            return nil
        }
        let scheme = app.scheme
        guard !scheme.isEmpty else { return nil }
        guard let entry = mimeApps.associations(forScheme: scheme).defaultEntry else {
            diagnostics?.explain("\(app.key): no usable entry is associated with \(scheme): URLs")
            return nil
        }
        return entry
    }

    /// The entry's `Name` translated for the locale when it has one, else the catalog name.
    package func displayName(for app: App, entry: DesktopEntry?) -> String {
        entry?.translation(of: "Name", for: locale) ?? app.name
    }

    package func displayName(for app: App) -> String {
        displayName(for: app, entry: installedEntry(for: app))
    }
}
