/// The one table of choosy's commands. The executable parses argv against it and runs what
/// it finds; the grammar it makes is what help, completion and the documentation tests read.
package enum CommandTable {
    /// The commands a user types, in the order help lists them.
    static let commands: [any ChoosyCommand.Type] = [
        OpenCommand.self, URLCommand.self, ResetCommand.self, DefaultCommand.self, ListCommand.self, DescribeCommand.self,
        UpdateCommand.self, HandleCommand.self, RouteCommand.self, InstallCommand.self, RuleCommand.self,
        CompletionsCommand.self, HelpCommand.self,
    ]

    /// What the completion scripts and the background refresh call.
    static let hiddenCommands: [any ChoosyCommand.Type] = [CompleteCommand.self, RefreshCommand.self]

    /// `uninstall`, the one command the executable still runs itself.
    package static let uninstall = CommandGrammar.Command(
        "uninstall", "undo install",
        misuse: "uninstall takes no arguments",
        help: "Removes choosy.desktop and restores the link handlers install replaced."
    )

    package static let grammar = CommandGrammar(
        commands: commands.prefix(10).map { $0.grammar } + [uninstall] + commands.dropFirst(10).map { $0.grammar },
        hiddenCommands: hiddenCommands.map { $0.grammar }
    )

    /// argv (without the program's name) as a command to run; a usage error (exit 2) says
    /// what does not fit. No command, `--help` and `--version` are `help`.
    package static func parse(_ words: [String]) throws(ChoosyError) -> Invocation {
        try command(for: CommandLineReader(grammar: grammar).read(words))
    }

    package static func command(for line: ParsedCommandLine) throws(ChoosyError) -> Invocation {
        guard let entry = line.command, !line.options.help,
              let command = (commands + hiddenCommands).first(where: { $0.grammar === entry }) else {
            return Invocation(command: HelpCommand(asked: line), options: line.options)
        }
        return Invocation(command: try command.init(line), options: line.options)
    }
}
