/// What the installed apps of a type offer the user (doc/profiles.md): an app with two or more profiles once per profile (`firefox@Work`, "Firefox —
/// Work"), any other app once. The keys that are not offered still launch: the plain key of
/// an app offered per profile (its own default profile, no profile arguments) and the key of
/// an app's only profile.
package struct InstalledChoices: Sendable {
    /// In the order of `installed`, each app's profiles in the order its profile list gives.
    package let offered: [InstalledApp]
    private let others: [InstalledApp]

    /// `profiles` is asked only for apps that declare them.
    package init(_ installed: [InstalledApp], profiles: (InstalledApp) -> [BrowserProfile]) {
        var offered: [InstalledApp] = []
        var others: [InstalledApp] = []
        for app in installed {
            let found = app.app.profiles == nil ? [] : profiles(app)
            if found.count >= 2 {
                offered += found.map(app.opening)
                others.append(app)
            } else {
                offered.append(app)
                others += found.map(app.opening)
            }
        }
        self.offered = offered
        self.others = others
    }

    /// The keys that launch without being offered.
    package var unofferedKeys: [String] { others.map(\.key) }

    /// The choice with this key, offered or not.
    package func choice(_ key: String) -> InstalledApp? {
        offered.first { $0.key == key } ?? others.first { $0.key == key }
    }
}

extension InstalledAppDirectory {
    /// The choice `key` names in `type` (`firefox`, `firefox@Work`), or `app` with `profile`
    /// (a rule's `--app firefox --profile Work`), among its installed apps. Unknown app or
    /// profile, or an app without profiles given one: exit 3; not installed: exit 4; a
    /// profile the browser would read as an option (`-P -foo`): exit 2.
    package func choice(_ key: String, profile: String? = nil, in type: AppType) throws(ChoosyError) -> InstalledApp {
        let (appKey, named) = profile.map { (key, $0) } ?? ChoiceKey.split(key)
        guard let app = type.app(appKey) else {
            let near = type.suggestedApp(for: appKey, among: type.apps.map(\.key))
            throw .unknown("unknown app '\(appKey)' for \(type.name)" + didYouMean(near))
        }
        guard let installed = try installedApps(of: type).first(where: { $0.app.key == app.key }) else {
            throw .unavailable("\(app.name) (\(app.key)) is not installed" + (app.isWebApp ? " (it needs a browser)" : ""))
        }
        guard let named else { return installed }
        guard let declared = app.profiles else { throw .unknown("\(app.name) (\(app.key)) has no profiles choosy knows of") }
        // Checked before looking: such a name must never reach the browser's command line.
        if BrowserProfile(name: named, selector: named).looksLikeAnOption(declared) {
            throw .usage("profile name '\(singleLine(named))' starts with '-': \(app.name) would read it as an option")
        }
        let profiles = profiles(of: installed)
        guard let found = profiles.first(where: { $0.choiceName == named }) else {
            let known = profiles.isEmpty ? "it has none" : "its profiles: " + profiles.map(\.choiceName).joined(separator: ", ")
            throw .unknown(
                "unknown profile '\(singleLine(named))' of \(app.name) (\(known))" + didYouMean(named, among: profiles.map(\.choiceName)))
        }
        return installed.opening(found)
    }

    /// The choices the installed apps of `type` offer, profiles read for the apps that declare them.
    package func choices(of type: AppType) throws(ChoosyError) -> InstalledChoices {
        InstalledChoices(try installedApps(of: type), profiles: profiles(of:))
    }
}

extension InstalledApp {
    /// Refuses a private window to an app that cannot open one (exit 3), naming those of
    /// `installed` that can.
    package func requirePrivateWindow(among installed: [InstalledApp], typeName: String) throws(ChoosyError) {
        guard !opensPrivateWindows else { return }
        let able = installed.filter(\.opensPrivateWindows).map(\.app.name)
        let others = able.isEmpty ? "no installed app of \(typeName) can" : "apps that can: " + able.joined(separator: ", ")
        throw .unknown("\(app.name) cannot open a private window (\(others))")
    }
}
