/// `choosy again [N]`: the N-th newest link of the history (SPEC §6.1) opened again, with the
/// picker shown as `--choose` shows it: a sign-in link closed by mistake, a link a rule sent
/// nowhere.
struct AgainCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "again", "open a link of the history again, with the picker",
        arguments: [.optional("N", .text)], shared: CommandGrammar.openOptions,
        misuse: "again takes at most one number, e.g. 'choosy again 2'",
        help:
            "Opens the N-th newest link of the history (the newest without N; choosy history lists them) again, as handle or route opened it, with the picker shown as --choose shows it (picking always still replaces the default). It is kept in the history again, as the newest."
    )

    let number: Int

    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        number = try line.arguments.first.map { word throws(ChoosyError) in try HistoryCommand.number(word, for: "again") } ?? 1
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let entries = choosy.history().entries()
        guard number <= entries.count else {
            let held = entries.isEmpty ? "the history is empty" : "the history holds \(entries.count) link\(entries.count == 1 ? "" : "s")"
            throw .unavailable("no link \(number) to open again: \(held) (choosy history lists them)")
        }
        let entry = entries[number - 1]
        var options = context.options.open
        options.choose = true
        switch entry.command {
        case .handle:
            return try HandleCommand.handle(
                entry.link, options: options, clean: nil, unshorten: false, json: context.options.json, source: entry.source, in: choosy)
        case .route:
            let report = try RouteCommand.routeKept(entry.link, options: options, source: entry.source, in: choosy)
            return RouteCommand.output(of: report, dryRun: options.dryRun)
        }
    }
}
