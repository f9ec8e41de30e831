/// The one table of choosy's commands. The executable parses argv against it and runs what
/// it finds; the grammar it makes is what help, completion and the documentation tests read.
package enum CommandTable {
    /// The commands a user types, in the order help lists them.
    static let commands: [any ChoosyCommand.Type] = [
        OpenCommand.self, URLCommand.self, ResetCommand.self, DefaultCommand.self, ListCommand.self, DescribeCommand.self,
        UpdateCommand.self, HandleCommand.self, RouteCommand.self, InstallCommand.self, UninstallCommand.self, RuleCommand.self,
        CleanCommand.self, WhyCommand.self, HistoryCommand.self, AgainCommand.self, HideCommand.self, UnhideCommand.self,
        CompletionsCommand.self, HelpCommand.self,
    ]

    /// What the completion scripts and the background refresh call.
    static let hiddenCommands: [any ChoosyCommand.Type] = [CompleteCommand.self, RefreshCommand.self]

    package static let grammar = CommandGrammar(commands: commands.map { $0.grammar }, hiddenCommands: hiddenCommands.map { $0.grammar })

    /// argv (without the program's name) as a command to run; a usage error (exit 2) says
    /// what does not fit. No command, `--help` and `--version` are `help`.
    package static func parse(_ words: [String]) throws(ChoosyError) -> Invocation {
        let line = try CommandLineReader(grammar: grammar).read(words)
        guard let entry = line.command, !line.options.help,
            let command = (commands + hiddenCommands).first(where: { $0.grammar === entry })
        else {
            return Invocation(command: HelpCommand(asked: line), options: line.options)
        }
        return Invocation(command: try command.init(line), options: command.options(line))
    }
}
