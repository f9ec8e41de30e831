/// `choosy reset TYPE | --all`: forgets the default app of a type, or of every type.
struct ResetCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "reset", "forget the default app(s)",
        arguments: [.one("TYPE", .appType)], alternative: .flag("--all", "forget every default") { $0.all = true },
        misuse: "reset needs one app type, or --all", conflict: "reset takes an app type or --all, not both",
        help: "Forgets the default app of TYPE, or of every type."
    )

    /// nil: every type.
    let type: String?

    init(_ line: ParsedCommandLine) { type = line.options.all ? nil : line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        guard let type else {
            try choosy.preferences().resetAll()
            return CommandOutput(context.interactive ? "Forgot every default.\n" : "")
        }
        let forgotten = try Self.forget(type, in: choosy)
        return CommandOutput(context.interactive ? forgotten.map { "Forgot \($0) as the default.\n" } ?? "There was no default.\n" : "")
    }

    /// Forgets the default of a type (and the apps seen); returns the app forgotten. Also
    /// route's `reset` and the library's `resetAppSelectionAndHandle(_:)`.
    @discardableResult
    static func forget(_ typeInput: String, in choosy: Choosy) throws(ChoosyError) -> String? {
        // Only the key is needed: no desktop entry is read.
        let key = try choosy.catalog().resolve(typeInput)
        let store = choosy.preferences()
        let previous = store.preference(for: key).defaultApp
        try store.update(key) { $0 = TypePreference() }
        return previous
    }
}
