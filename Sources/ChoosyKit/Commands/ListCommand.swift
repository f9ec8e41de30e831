/// One app type as `choosy list` shows it.
package struct TypeListing: Sendable {
    package struct Entry: Sendable {
        package var app: App
        package var installed: InstalledApp?
        package var isDefault: Bool
    }

    package var type: AppType
    package var apps: [Entry]
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
                ])
            })),
            ("links", .array(links.map(\.json))),
        ])
    }
}

extension Choosy {
    /// `choosy list [TYPE]`: every type (or one) with its apps, installed or not.
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
        let remembered = try preferences().all()
        var listings: [TypeListing] = []
        for type in types {
            let installed = try installedApps(of: type)
            let defaultApp = remembered[type.key]?.defaultApp
            listings.append(TypeListing(type: type, apps: type.apps.map { app in
                TypeListing.Entry(app: app, installed: installed.first { $0.app.key == app.key }, isDefault: app.key == defaultApp)
            }, links: type.read(try catalog().links(of: type.key), diagnostics: diagnostics).map(\.link)))
        }
        return listings
    }
}
