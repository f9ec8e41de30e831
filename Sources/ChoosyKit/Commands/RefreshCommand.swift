/// `choosy __refresh KEY…`, run detached by `ProcessBackgroundRefresher`: refreshes the stale
/// catalog data of these types, and the link-cleaning rules (`CleaningRulesRefresher.refreshWord`).
struct RefreshCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.hidden("__refresh")

    let keys: [String]

    init(_ line: ParsedCommandLine) { keys = line.arguments }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        try choosy.catalog().refreshIfStale(keys.filter(isValidTypeKey))
        if keys.contains(CleaningRulesRefresher.refreshWord) {
            UpdateCommand.report(choosy.cleaningRulesRefresher().refresh(onlyIfStale: true, diagnostics: choosy.diagnostics), in: choosy)
        }
        return CommandOutput()
    }
}
