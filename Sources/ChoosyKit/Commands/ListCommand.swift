/// One app type as `choosy list` shows it.
package struct TypeListing: Sendable {
    package struct Entry: Sendable {
        package var app: App
        package var installed: InstalledApp?
        /// The default is this app, or one of its profiles.
        package var isDefault: Bool
        /// The profiles of the installed app (read for `list TYPE` only).
        package var profiles: [BrowserProfile] = []

        /// Whether it can open a private window: by its entry's action too when installed.
        package var opensPrivateWindows: Bool {
            installed?.opensPrivateWindows ?? (app.privateArguments != nil)
        }

        /// The choices it is offered as, one per profile, when it has two or more.
        package var profileChoices: [InstalledApp] {
            guard profiles.count >= 2, let installed else { return [] }
            return profiles.map(installed.opening)
        }
    }

    package var type: AppType
    package var apps: [Entry]
    /// The remembered default's key (`firefox@Work` for a profile).
    package var defaultKey: String?
    /// The type's links whose patterns could be read.
    package var links: [CatalogLink]

    package var json: JSONValue {
        .object([
            ("key", .string(type.key)),
            ("name", .string(type.name)),
            ("apps", .array(apps.map { entry in
                .object([
                    ("key", .string(entry.app.key)),
                    ("name", .string(entry.installed?.displayName ?? entry.app.name)),
                    ("installed", .bool(entry.installed != nil)),
                    ("desktop_id", .optional(entry.installed?.entry?.id)),
                    ("default", .bool(entry.isDefault)),
                    ("profiles", .strings(entry.profiles.map(\.name))),
                    ("private", .bool(entry.opensPrivateWindows)),
                ])
            })),
            ("links", .array(links.map(\.json))),
        ])
    }
}

extension Choosy {
    /// The desktop entry of each installed native app of `type`, by app key, for `describe`
    /// (which shows their actions). Web apps have none, so no other type is looked at.
    package func installedEntries(of type: AppType) -> [String: DesktopEntry] {
        var entries: [String: DesktopEntry] = [:]
        for app in type.apps {
            if let entry = probe().installedEntry(for: app) { entries[app.key] = entry }
        }
        return entries
    }

    /// `choosy list [TYPE]`: every type (or one) with its apps, installed or not; for one
    /// type, with the profiles of its installed browsers.
    package func list(_ typeInput: String?) throws(ChoosyError) -> [TypeListing] {
        let types: [AppType]
        if let typeInput {
            types = [try appType(typeInput)]
        } else {
            var all: [AppType] = []
            for summary in try catalog().summaries() {
                all.append(try appType(summary.key))
            }
            types = all
        }
        let remembered = preferences().all()
        let directory = try installedCatalog()
        var listings: [TypeListing] = []
        for type in types {
            let installed = try installedApps(of: type)
            let defaultKey = remembered[type.key]?.defaultApp
            let defaultApp = defaultKey.map { ChoiceKey.split($0).app }
            listings.append(TypeListing(type: type, apps: type.apps.map { app in
                let found = installed.first { $0.app.key == app.key }
                var entry = TypeListing.Entry(app: app, installed: found, isDefault: app.key == defaultApp)
                if typeInput != nil, let found, app.profiles != nil { entry.profiles = directory.profiles(of: found) }
                return entry
            }, defaultKey: defaultKey, links: type.read(try catalog().links(of: type.key), diagnostics: diagnostics).map(\.link)))
        }
        return listings
    }
}
