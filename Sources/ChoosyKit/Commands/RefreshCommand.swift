/// `choosy __refresh KEY…`, run detached by `ProcessBackgroundRefresher`: refreshes the stale
/// catalog data of these types, and the link-cleaning rules (`CleaningRulesRefresher.refreshWord`).
/// Its stderr goes nowhere: what failed is kept in `RefreshFailures` for a later command to say.
struct RefreshCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.hidden("__refresh")

    let keys: [String]

    init(_ line: ParsedCommandLine) { keys = line.arguments }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        var outcomes = try choosy.catalog().refreshIfStale(keys.filter(isValidTypeKey))
        if keys.contains(CleaningRulesRefresher.refreshWord) {
            let word = CleaningRulesRefresher.refreshWord
            outcomes.append((word, choosy.cleaningRulesRefresher().refresh(onlyIfStale: true, diagnostics: choosy.diagnostics)))
        }
        choosy.refreshFailures().record(outcomes)
        return CommandOutput()
    }
}
