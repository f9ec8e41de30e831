/// `choosy list [TYPE] [--json]`: the app types, or the apps of one with what is installed.
struct ListCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "list", "app types, or the apps of a type",
        arguments: [.optional("TYPE", .appType)], options: [CommandGrammar.json], misuse: "list takes at most one app type",
        help:
            "Lists the app types, or the apps of TYPE with whether each is installed, by which desktop entry, a browser's profiles, and which the user hid (choosy hide)."
    )

    /// nil: every type.
    let type: String?

    init(_ line: ParsedCommandLine) { type = line.arguments.first }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let listings = try Self.listings(type, in: context.choosy())
        if context.options.json { return CommandOutput(JSONValue.array(listings.map(\.json)).rendered() + "\n") }
        return CommandOutput(Self.text(listings, single: type != nil, style: context.style))
    }

    /// Every type (or one) with its apps, installed or not; for one type, with the profiles of
    /// its installed browsers. Also route's `list`.
    static func listings(_ typeInput: String?, in choosy: Choosy) throws(ChoosyError) -> [TypeListing] {
        let types: [AppType]
        if let typeInput {
            types = [try choosy.appType(typeInput)]
        } else {
            var all: [AppType] = []
            for summary in try choosy.catalog().summaries() {
                all.append(try choosy.appType(summary.key))
            }
            types = all
        }
        let remembered = choosy.preferences().all()
        let directory = try choosy.installedCatalog()
        let arrangement = ChoiceArrangement(choosy.configuration())
        var listings: [TypeListing] = []
        for type in types {
            let installed = try choosy.installedApps(of: type)
            let defaultKey = remembered[type.key]?.defaultApp
            let defaultApp = defaultKey.map { ChoiceKey.split($0).app }
            // By key once: a type of thousands of discovered apps costs n log n (doc/security.md).
            let installedByKey = Dictionary(installed.map { ($0.app.key, $0) }, uniquingKeysWith: { first, _ in first })
            listings.append(
                TypeListing(
                    type: type,
                    apps: type.apps.map { app in
                        let found = installedByKey[app.key]
                        var entry = TypeListing.Entry(app: app, installed: found, isDefault: app.key == defaultApp)
                        if typeInput != nil, let found, app.profiles != nil { entry.profiles = directory.profiles(of: found) }
                        if let found {
                            entry.hidden = arrangement.hiding(found) != nil
                            entry.hiddenProfiles = Set(entry.profileChoices.filter { arrangement.hiding($0) != nil }.map(\.key))
                        }
                        return entry
                    }, defaultKey: defaultKey,
                    links: type.read(try choosy.catalog().links(of: type.key), diagnostics: choosy.diagnostics).map(\.link)))
        }
        return listings
    }

    /// Every type in a line; one type with its apps, one a line, and their profiles.
    static func text(_ listings: [TypeListing], single: Bool, style: TerminalStyle) -> String {
        if !single {
            let width = listings.map { singleLine($0.type.key).count }.max() ?? 0
            return listings.map { listing in
                let installed = listing.apps.filter { $0.installed != nil }.count
                let defaultApp = listing.defaultKey.map { style.dim(", default \(singleLine($0))") } ?? ""
                return "\(pad(singleLine(listing.type.key), width))  \(singleLine(listing.type.name)) "
                    + style.dim("(\(installed) of \(listing.apps.count) installed") + defaultApp + style.dim(")")
            }.joined(separator: "\n") + "\n"
        }
        var lines: [String] = []
        for listing in listings {
            lines.append("\(style.bold(singleLine(listing.type.name))) (\(singleLine(listing.type.key)))")
            let choices = listing.apps.flatMap(\.profileChoices)
            let keyWidth = (listing.apps.map { singleLine($0.app.key).count } + choices.map { singleLine($0.key).count }).max() ?? 0
            let nameWidth =
                (listing.apps.map { singleLine($0.installed?.displayName ?? $0.app.name).count }
                + choices.map { singleLine($0.displayName).count }).max() ?? 0
            for entry in listing.apps {
                let isDefault = listing.defaultKey == entry.app.key
                let marker = isDefault ? style.green("*") : " "
                let name = pad(singleLine(entry.installed?.displayName ?? entry.app.name), nameWidth)
                let status: String
                if let installed = entry.installed {
                    status = installed.entry.map { "installed: \(singleLine($0.id))" } ?? "web app, opens in the browser"
                } else {
                    status = style.dim(entry.app.isWebApp ? "web app, needs a browser" : "not installed")
                }
                let hidden = entry.hidden ? style.dim("  (hidden)") : ""
                lines.append(
                    "\(marker) \(pad(singleLine(entry.app.key), keyWidth))  \(name)  \(status)\(isDefault ? style.green("  (default)") : "")"
                        + hidden)
                // Each profile is a choice of its own, listed under its app.
                for choice in entry.profileChoices {
                    let isDefault = listing.defaultKey == choice.key
                    let marker = isDefault ? style.green("*") : " "
                    lines.append(
                        "\(marker) \(pad(singleLine(choice.key), keyWidth))  \(pad(singleLine(choice.displayName), nameWidth))  "
                            + style.dim("profile") + (isDefault ? style.green("  (default)") : "")
                            + (entry.hiddenProfiles.contains(choice.key) ? style.dim("  (hidden)") : ""))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One app type as `choosy list` shows it.
package struct TypeListing: Sendable {
    package struct Entry: Sendable {
        package var app: App
        package var installed: InstalledApp?
        /// The default is this app, or one of its profiles.
        package var isDefault: Bool
        /// The profiles of the installed app (read for `list TYPE` only).
        package var profiles: [BrowserProfile] = []
        /// The user hid the installed app (SPEC §6.1: `hidden` in config.json).
        package var hidden = false
        /// The keys of its profile choices the user hid.
        package var hiddenProfiles: Set<String> = []

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
            (
                "apps",
                .array(
                    apps.map { entry in
                        .object([
                            ("key", .string(entry.app.key)),
                            ("name", .string(entry.installed?.displayName ?? entry.app.name)),
                            ("installed", .bool(entry.installed != nil)),
                            ("desktop_id", .optional(entry.installed?.entry?.id)),
                            ("default", .bool(entry.isDefault)),
                            ("profiles", .strings(entry.profiles.map(\.choiceName))),
                            ("private", .bool(entry.opensPrivateWindows)),
                            ("hidden", .bool(entry.hidden)),
                            ("hidden_profiles", .strings(entry.profileChoices.map(\.key).filter(entry.hiddenProfiles.contains))),
                        ])
                    })
            ),
            ("links", .array(links.map(\.json))),
        ])
    }
}
