/// A catalog app that can run here, or one of its profiles.
package struct InstalledApp: Sendable {
    package var app: App
    /// The desktop entry that runs it; nil for web apps, which run in the browser.
    package var entry: DesktopEntry?
    /// The entry's translated `Name` when it has one, else the catalog name; with a profile,
    /// followed by ` — ` and the profile's name.
    package var displayName: String
    /// The profile it opens; nil for the app as it starts by itself (its own default profile).
    package var profile: BrowserProfile?

    package var isWebApp: Bool { entry == nil }

    /// What `--app`, defaults and pickers know it by: the app key, with `@<profile>` for a profile.
    package var key: String { ChoiceKey.make(app: app.key, profile: profile?.choiceName) }

    /// The same app in `profile`.
    package func opening(_ profile: BrowserProfile) -> InstalledApp {
        InstalledApp(app: app, entry: entry, displayName: "\(displayName) — \(profile.shownName)", profile: profile)
    }

    /// Whether it can open a private window: by the catalog's `private` arguments, or by its
    /// entry's private-window action.
    package var opensPrivateWindows: Bool {
        app.privateArguments != nil || entry?.privateWindowAction != nil
    }

    /// A container is a tab of the extension's choosing in a normal window: a private window
    /// has none (doc/profiles.md), so `--private` with a container is a usage error.
    package func refuseContainerInPrivateWindow() throws(ChoosyError) {
        guard let profile, let container = profile.container else { return }
        throw .usage(
            "\(key) is container '\(container)', and containers do not apply to private windows: use \(ChoiceKey.make(app: app.key, profile: profile.profileKey)) with --private, or \(key) without it"
        )
    }

    /// How to start it: its profile's arguments, then (for a private window) the catalog's
    /// private arguments, or else the entry's private-window action instead of its `Exec`.
    package func launchForm(privateWindow: Bool) -> LaunchForm {
        var form = LaunchForm(arguments: app.profiles.flatMap { profiles in profile?.arguments(profiles) } ?? [])
        guard privateWindow else { return form }
        if let arguments = app.privateArguments {
            form.arguments += arguments
        } else {
            form.action = entry?.privateWindowAction
        }
        return form
    }
}

/// Which apps of a type are installed (doc/spec-choices.md, "Desktop entries"): native apps through their desktop entries,
/// web apps when the browser type has an installed app. The system's default handler of an
/// app's scheme comes first, so pickers offer it first.
package struct InstalledAppFinder {
    private let probe: AppProbe
    private let diagnostics: DiagnosticSink
    /// The handler `choosy install --default-handler` replaced for a MIME type, if any.
    private let previousHandler: (String) -> String?

    package init(
        probe: AppProbe, diagnostics: DiagnosticSink, previousHandler: @escaping (String) -> String? = { _ in nil }
    ) {
        self.probe = probe
        self.diagnostics = diagnostics
        self.previousHandler = previousHandler
    }

    /// `browserInstalled`: whether any browser is installed, asked only when the type has web apps.
    package func installedApps(of type: AppType, browserInstalled: () -> Bool) -> [InstalledApp] {
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

    /// The apps of `type` that no catalog names (doc/links-and-rules.md, "Apps the
    /// catalog does not name"): every usable entry associated with one of the type's `schemes` that
    /// is not one of its catalog apps. Each does exactly the type's actions that have a
    /// generic `url_format`; its key comes from its desktop ID.
    package func discoveredApps(of type: AppType) -> [App] {
        guard !type.schemes.isEmpty else { return [] }
        let genericActions = type.actions.compactMap { action in action.urlFormat.map { AppAction(key: action.key, urlFormat: $0) } }
        var catalogIDs = Set(type.apps.flatMap(\.desktopIDs))
        for app in type.apps where app.desktopIDs.isEmpty && !app.isWebApp && type.schemes.contains(app.scheme) {
            if let entry = probe.installedEntry(for: app) { catalogIDs.insert(entry.id) }
        }
        var keys = Set(type.apps.map(\.key))
        var found: [App] = []
        for scheme in type.schemes {
            for entry in probe.mimeApps.associations(forScheme: scheme).defaultFirst where catalogIDs.insert(entry.id).inserted {
                let key = InstalledAppFinder.uniqueKey(InstalledAppFinder.key(forDesktopID: entry.id), taken: &keys)
                diagnostics.explain(
                    "\(key): \(entry.id) is associated with \(scheme): links; an app of \(type.name) the catalog does not name")
                found.append(
                    App(key: key, name: entry.name ?? key, urlScheme: scheme + ":", desktopIDs: [entry.id], actions: genericActions))
            }
        }
        return found
    }

    /// The entries associated with `scheme`, as the apps of a type of their own
    /// (doc/links-and-rules.md, "choosy handle"): its key `scheme_<scheme>` is where their choice is remembered.
    package func schemeHandlers(forScheme scheme: String) -> (type: AppType, installed: [InstalledApp])? {
        let entries = probe.mimeApps.associations(forScheme: scheme).defaultFirst
        guard !entries.isEmpty else { return nil }
        let installed = handlerApps(entries, urlScheme: scheme + ":")
        let type = AppType(key: "scheme_" + keyFromText(scheme), name: "\(scheme): links", apps: installed.map(\.app), schemes: [scheme])
        return (type, installed)
    }

    /// The entries that open a local file of `types` (its MIME type and those it is a kind of,
    /// nearest first: `MimeAppsList.associations(forTypes:)`), as the apps of a type of their
    /// own (`file_<type>`), the default first; and the key of the default when a
    /// `mimeapps.list` chose it (named, or added first). Nil when none does.
    package func fileHandlers(forTypes types: [String]) -> (type: AppType, installed: [InstalledApp], listedDefault: String?)? {
        guard let mimeType = types.first else { return nil }
        let associations = probe.mimeApps.associations(forTypes: types)
        guard !associations.entries.isEmpty else { return nil }
        let installed = handlerApps(associations.defaultFirst, urlScheme: "file:")
        let type = AppType(key: "file_" + keyFromText(mimeType), name: "\(mimeType) files", apps: installed.map(\.app))
        let listed = associations.listedDefault.flatMap { entry in installed.first { $0.entry?.id == entry.id }?.key }
        return (type, installed, listed)
    }

    /// Entries that no catalog names, as apps keyed by their desktop IDs.
    private func handlerApps(_ entries: [DesktopEntry], urlScheme: String) -> [InstalledApp] {
        var keys: Set<String> = []
        return entries.map { entry in
            let key = InstalledAppFinder.uniqueKey(InstalledAppFinder.key(forDesktopID: entry.id), taken: &keys)
            let app = App(key: key, name: entry.name ?? key, urlScheme: urlScheme, desktopIDs: [entry.id])
            return InstalledApp(app: app, entry: entry, displayName: probe.displayName(for: app, entry: entry))
        }
    }

    /// Why `app` is not installed: a web app needs a browser; an app found by its scheme has
    /// no handler; else what each of its desktop IDs is.
    package func whyNotInstalled(_ app: App) -> NotCandidateReason {
        if app.isWebApp { return .needsBrowser }
        if app.desktopIDs.isEmpty { return .noHandler(scheme: app.scheme) }
        return .notInstalled(probe.lookups(for: app))
    }

    /// The entries that list one of the type's schemes and that a removal took away.
    package func removedHandlers(of type: AppType) -> [(entry: DesktopEntry, scheme: String)] {
        let catalogIDs = Set(type.apps.flatMap(\.desktopIDs))
        return type.schemes.flatMap { scheme in
            probe.mimeApps.associations(forScheme: scheme).removed.filter { !catalogIDs.contains($0.id) }.map { ($0, scheme) }
        }
    }

    /// `org.gnome.Evolution.desktop` → `org_gnome_evolution`.
    static func key(forDesktopID id: String) -> String {
        keyFromText(id.hasSuffix(".desktop") ? id.dropLast(".desktop".count) : id[...])
    }

    /// `key`, or `key_2`, `key_3`, … when an app of the type already has it.
    static func uniqueKey(_ key: String, taken: inout Set<String>) -> String {
        var candidate = key
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = "\(key)_\(number)"
            number += 1
        }
        return candidate
    }

    /// `apps` with the default a `mimeapps.list` chose for its scheme first, named or added
    /// (entries that merely list the scheme give no order worth more than the catalog's). When choosy itself is the
    /// named default, the handler `choosy install` replaced counts.
    package func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp] {
        // Apps of a type mostly share a scheme: each scheme's default is looked up once.
        var defaults: [String: String?] = [:]
        func defaultID(_ scheme: String) -> String? {
            if let known = defaults[scheme] { return known }
            let associations = probe.mimeApps.associations(forScheme: scheme)
            let previous = associations.defaultIsChoosy ? previousHandler("x-scheme-handler/\(scheme)") : nil
            let id = previous ?? associations.listedDefault?.id
            defaults[scheme] = .some(id)
            return id
        }
        func isDefault(_ installed: InstalledApp) -> Bool {
            guard let entry = installed.entry, !installed.app.scheme.isEmpty else { return false }
            return defaultID(installed.app.scheme) == entry.id
        }
        // Every choice of the default app comes first: each of its profiles is one.
        let first = apps.filter(isDefault)
        guard let leader = first.first, apps.prefix(while: isDefault).count < first.count else { return apps }
        diagnostics.explain("\(leader.app.key) is the system's default for \(leader.app.scheme): links; offered first")
        return first + apps.filter { !isDefault($0) }
    }
}
