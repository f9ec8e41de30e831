/// `choosy __refresh KEY…`, run detached by `ProcessBackgroundRefresher`: refreshes the stale
/// catalog data of these types.
struct RefreshCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.hidden("__refresh")

    let keys: [String]

    init(_ line: ParsedCommandLine) { keys = line.arguments }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        try context.choosy().catalog().refreshIfStale(keys.filter(isValidTypeKey))
        return CommandOutput()
    }
}
