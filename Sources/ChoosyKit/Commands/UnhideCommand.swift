/// `choosy unhide CHOICE`: pickers offer a choice that `choosy hide` left out again (SPEC §6.1).
struct UnhideCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "unhide", "offer a hidden choice again",
        arguments: [.one("CHOICE", .hiddenChoice)], misuse: "unhide needs one choice, e.g. 'choosy unhide firefox@Test'",
        help: "Takes CHOICE out of 'hidden' in config.json: pickers offer it again. 'choosy list TYPE' marks what is hidden."
    )

    let choice: String

    init(_ line: ParsedCommandLine) { choice = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let removed = try choosy.configurationEditor().changeList("hidden") { hidden in
            let before = hidden.count
            hidden.removeAll { $0 == choice }
            return hidden.count < before
        }
        // A choice that is gone from the desktop may still be listed, and is taken out all the same.
        if !removed { try HideCommand.check(choice, in: choosy) }
        guard context.interactive else { return CommandOutput() }
        let shown = singleLine(choice)
        return CommandOutput(removed ? "Shown again: \(shown).\n" : "\(shown) was not hidden.\n")
    }
}
