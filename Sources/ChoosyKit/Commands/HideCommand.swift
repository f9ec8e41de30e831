/// `choosy hide CHOICE`: pickers leave the choice out from now on, and so does the no-picker
/// fallback; `--app`, a default or a rule still opens it (SPEC §6.1). It goes into `hidden` in
/// config.json.
struct HideCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "hide", "leave a choice out of pickers",
        arguments: [.one("CHOICE", .source)], misuse: "hide needs one choice, e.g. 'choosy hide firefox@Test'",
        help:
            "Leaves CHOICE out of every picker, and out of what opens a link when no picker can be shown; --app, a default or a site rule still opens it. CHOICE is an app key (firefox: the app with all its profiles), a profile (firefox@Work), a container (firefox@Work/Banking) or a desktop ID (firefox.desktop). It is kept in 'hidden' in config.json; 'choosy unhide CHOICE' shows it again, and 'choosy list TYPE' marks what is hidden."
    )

    let choice: String

    init(_ line: ParsedCommandLine) { choice = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        // Checked once the file is known to be readable: a broken one is the one error.
        let added = try choosy.configurationEditor().changeList("hidden") { hidden throws(ChoosyError) in
            guard !hidden.contains(choice) else { return false }
            try Self.check(choice, in: choosy)
            hidden.append(choice)
            return true
        }
        guard context.interactive else { return CommandOutput() }
        let shown = singleLine(choice)
        return CommandOutput(
            added ? "Hidden: \(shown) (choosy unhide \(shown) shows it again).\n" : "\(shown) was hidden already.\n")
    }

    /// A choice key as anywhere else (doc/configuration.md, "Hide, pin, order"): an app key of
    /// any type, installed or not; a profile or a container of an installed app; the ID of a
    /// desktop entry, with or without `.desktop`. Anything else is exit 3, with the nearest
    /// app key.
    static func check(_ key: String, in choosy: Choosy) throws(ChoosyError) {
        let directory = try choosy.installedCatalog()
        let (appKey, profile) = ChoiceKey.split(key)
        var appKeys: [String] = []
        for typeKey in directory.typeKeys() {
            guard let type = try? directory.appType(typeKey) else { continue }
            appKeys += type.apps.map(\.key)
            guard let app = type.app(appKey) else { continue }
            guard let profile else { return }
            guard let installed = try directory.installedApps(of: type).first(where: { $0.app.key == app.key }) else { continue }
            if directory.profiles(of: installed).contains(where: { $0.choiceName == profile || $0.profileKey == profile }) { return }
        }
        let index = choosy.probe().index
        if profile == nil, index.entry(id: key) != nil || index.entry(id: key + ".desktop") != nil { return }
        let known = profile == nil ? "" : " with such a profile"
        throw .unknown(
            "no app\(known) is '\(singleLine(key))': a choice is an app key, app@profile or a desktop ID, as 'choosy list TYPE' shows them"
                + didYouMean(appKey, among: appKeys))
    }
}
