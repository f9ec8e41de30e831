/// `choosy describe TYPE [--json]`: the actions and parameters of a type, and which app does
/// what.
struct DescribeCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "describe", "actions, parameters, which app does what",
        arguments: [.one("TYPE", .appType)], options: [CommandGrammar.json], misuse: "describe needs one app type",
        help: "Shows the actions and parameters of TYPE, and which app supports which action."
    )

    let type: String

    init(_ line: ParsedCommandLine) { type = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let type = try choosy.appType(self.type)
        let links = try Self.checkedLinks(of: type, in: choosy)
        let entries = Self.installedEntries(of: type, in: choosy)
        if context.options.json { return CommandOutput(Self.json(type, links: links, entries: entries).rendered() + "\n") }
        return CommandOutput(Self.text(type, links: links, entries: entries, style: context.style))
    }

    /// The links whose patterns can be read (the others are reported), each example checked
    /// against the merged catalog with every type's links.
    private static func checkedLinks(of type: AppType, in choosy: Choosy) throws(ChoosyError) -> [LinkExampleCheck.CheckedLink] {
        let links = type.read(try choosy.catalog().links(of: type.key, withExamples: true), diagnostics: choosy.diagnostics).map(\.link)
        guard links.contains(where: { !$0.examples.isEmpty }) else { return links.map { .init(link: $0, verdicts: []) } }
        let local = choosy.localCatalog()
        var types: [(AppType, [CatalogLink])] = []
        for key in local.summaries().map(\.key) {
            let typeLinks = key == type.key ? links : local.links(of: key, withExamples: true)
            guard !typeLinks.isEmpty, let other = key == type.key ? type : try? local.appType(key) else { continue }
            types.append((other, typeLinks))
        }
        // This type's invalid links were named above, another type's when it is described.
        let matcher = CatalogLinkMatcher(types: types, url: nil, diagnostics: RecordingDiagnostics())
        return LinkExampleCheck(matcher: matcher).check(links, of: type.key)
    }

    /// The desktop entry of each installed native app of `type`, by app key, whose actions are
    /// shown. Web apps have none, so no other type is looked at.
    private static func installedEntries(of type: AppType, in choosy: Choosy) -> [String: DesktopEntry] {
        var entries: [String: DesktopEntry] = [:]
        for app in type.apps {
            if let entry = choosy.probe().installedEntry(for: app) { entries[app.key] = entry }
        }
        return entries
    }

    static func text(_ type: AppType, links: [LinkExampleCheck.CheckedLink], entries: [String: DesktopEntry], style: TerminalStyle)
        -> String
    {
        var lines = ["\(style.bold(singleLine(type.name))) (\(singleLine(type.key)))", "", style.bold("Actions:")]
        let keyWidth = (type.actions.map { singleLine($0.key).count } + type.parameters.map { singleLine($0.key).count }).max() ?? 0
        for action in type.actions {
            let apps = type.apps.filter { $0.urlFormat(for: action.key) != nil }.map { singleLine($0.key) }
            lines.append(
                "  \(pad(singleLine(action.key), keyWidth))  \(singleLine(action.name))"
                    + (apps.isEmpty ? "" : style.dim("  [\(apps.joined(separator: ", "))]")))
        }
        lines += ["", style.bold("Parameters:")]
        for parameter in type.parameters {
            let description = parameter.description.isEmpty ? "" : style.dim(" — \(singleLine(parameter.description))")
            lines.append("  \(pad(singleLine(parameter.key), keyWidth))  \(singleLine(parameter.name))\(description)")
        }
        lines += ["", style.bold("Apps:")]
        let appWidth = type.apps.map { singleLine($0.key).count }.max() ?? 0
        for app in type.apps {
            let kind = app.isWebApp ? "web app, opens in the browser" : singleLine(app.urlScheme)
            lines.append("  \(pad(singleLine(app.key), appWidth))  \(singleLine(app.name)) (\(kind))")
            let supported = app.actions.map { singleLine($0.key) }
            let indent = "  \(pad("", appWidth))  "
            if !supported.isEmpty {
                lines.append(indent + style.dim("does: \(supported.joined(separator: ", "))"))
            }
            if let profiles = app.profiles {
                lines.append(
                    indent + style.dim("profiles: \(profiles.format.rawValue)-style, \(shellQuoted(profiles.arguments))"))
            }
            if let arguments = app.privateArguments {
                lines.append(indent + style.dim("private window: \(shellQuoted(arguments))"))
            }
            if let entry = entries[app.key], !entry.actions.isEmpty {
                let privateKey = entry.privateWindowAction?.key
                let actions = entry.actions.map { action in
                    singleLine(action.key) + (action.name.map { " (\(singleLine($0)))" } ?? "")
                        + (action.key == privateKey ? " [private window]" : "")
                }
                lines.append(indent + style.dim("\(singleLine(entry.id)) actions: \(actions.joined(separator: ", "))"))
            }
        }
        if !links.isEmpty {
            lines += ["", style.bold("Links:")]
            let actionWidth = links.map { singleLine($0.link.action).count }.max() ?? 0
            for checked in links {
                let link = checked.link
                let only = link.apps.map { style.dim("  [only \($0.map(singleLine).joined(separator: ", "))]") } ?? ""
                lines.append("  \(pad(singleLine(link.action), actionWidth))  \(singleLine(link.pattern))\(only)")
                for verdict in checked.verdicts {
                    let failure = verdict.failure.map { " (fails: \(singleLine($0)))" } ?? ""
                    lines.append(
                        "      " + style.dim("e.g. \(singleLine(verdict.example.link)) → \(singleLine(verdict.example.outcome))") + failure)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ type: AppType, links: [LinkExampleCheck.CheckedLink], entries: [String: DesktopEntry]) -> JSONValue {
        .object([
            ("key", .string(type.key)),
            ("name", .string(type.name)),
            ("actions", .array(type.actions.map { json($0, of: type) })),
            ("parameters", .array(type.parameters.map(json))),
            ("apps", .array(type.apps.map { json($0, entry: entries[$0.key]) })),
            ("links", .array(links.map(\.json))),
        ])
    }

    /// An action of the type, with the apps that do it.
    private static func json(_ action: Action, of type: AppType) -> JSONValue {
        let apps = type.apps.filter { $0.urlFormat(for: action.key) != nil }.map(\.key)
        return .object([("key", .string(action.key)), ("name", .string(action.name)), ("apps", .strings(apps))])
    }

    private static func json(_ parameter: Parameter) -> JSONValue {
        .object([("key", .string(parameter.key)), ("name", .string(parameter.name)), ("description", .string(parameter.description))])
    }

    /// An app as the catalog has it, with the actions of its installed desktop entry.
    private static func json(_ app: App, entry: DesktopEntry?) -> JSONValue {
        .object([
            ("key", .string(app.key)),
            ("name", .string(app.name)),
            ("app_url_scheme", .string(app.urlScheme)),
            ("web", .bool(app.isWebApp)),
            ("desktop_ids", .strings(app.desktopIDs)),
            ("docs", .optional(app.docs)),
            ("actions", .array(app.actions.map { .object([("key", .string($0.key)), ("url_format", .string($0.urlFormat))]) })),
            (
                "profiles",
                app.profiles.map { profiles in
                    .object([("format", .string(profiles.format.rawValue)), ("args", .strings(profiles.arguments))])
                } ?? .null
            ),
            ("private", app.privateArguments.map(JSONValue.strings) ?? .null),
            ("desktop_actions", .array(desktopActions(of: entry))),
        ])
    }

    /// The actions of an app's installed desktop entry (none when it is not installed).
    private static func desktopActions(of entry: DesktopEntry?) -> [JSONValue] {
        guard let entry else { return [] }
        let privateKey = entry.privateWindowAction?.key
        return entry.actions.map { action in
            .object([("key", .string(action.key)), ("name", .optional(action.name)), ("private", .bool(action.key == privateKey))])
        }
    }
}
