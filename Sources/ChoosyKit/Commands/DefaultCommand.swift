/// `choosy default TYPE [APP]`: shows or sets the default app of a type.
struct DefaultCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "default", "show or set a default app",
        arguments: [.one("TYPE", .appType), .optional("APP", .appKey)], misuse: "default needs an app type and optionally an app key",
        help:
            "Prints the default app key of TYPE (nothing when there is none), or makes APP the default; APP may be one of a browser's profiles (firefox@Work)."
    )

    let type: String
    /// nil: show the default.
    let app: String?

    init(_ line: ParsedCommandLine) {
        type = line.arguments[0]
        app = line.arguments.count == 2 ? line.arguments[1] : nil
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        if let app {
            try Self.setDefault(type, app: app, in: choosy)
            return CommandOutput()
        }
        return CommandOutput(try Self.defaultApp(type, in: choosy).map { $0 + "\n" } ?? "")
    }

    /// The remembered app key, if any.
    static func defaultApp(_ typeInput: String, in choosy: Choosy) throws(ChoosyError) -> String? {
        choosy.preferences().preference(for: try choosy.catalog().resolve(typeInput)).defaultApp
    }

    /// Makes an installed app, or one of its profiles (`firefox@Work`), the default, as picking
    /// it *always*. The app may also be given by its name.
    static func setDefault(_ typeInput: String, app key: String, in choosy: Choosy) throws(ChoosyError) {
        let type = try choosy.appType(typeInput)
        let directory = try choosy.installedCatalog()
        let named = type.app(ChoiceKey.split(key).app) == nil ? type.apps.first(where: { $0.name.lowercased() == key.lowercased() }) : nil
        let chosen = try directory.choice(named?.key ?? key, in: type)
        let shown = try directory.choices(of: type).offered.map(\.key)
        try choosy.preferences().update(type.key) { preference in
            preference = ChoiceDecider.preference(afterChoosing: chosen.key, always: true, installed: shown, preference)
        }
    }
}
