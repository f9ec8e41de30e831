/// One command of choosy, whole: its entry in the grammar, what its words mean, how it runs
/// and what it prints. `CommandTable` lists them; adding a command is a file of its own
/// (`<Name>Command.swift`) and a line there.
package protocol ChoosyCommand: Sendable {
    /// Its name, arguments, options and help: what the parser reads it by, and help and
    /// completion show.
    static var grammar: CommandGrammar.Command { get }

    /// The command the command line stands for. The arguments already fit `grammar` in number
    /// (`CommandLineReader` checked them); what the options allow together is checked here
    /// (a usage error, exit 2).
    init(_ line: ParsedCommandLine) throws(ChoosyError)

    /// The options it runs with, from those given (a command that writes nothing, `why` or
    /// `rule test`, runs as `--dry-run` does); most run with those given.
    static func options(_ line: ParsedCommandLine) -> OptionValues

    /// Runs it: what to print, and the exit status.
    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput
}

extension ChoosyCommand {
    /// The options it runs with, from those given: `why` runs as `--dry-run` does.
    package static func options(_ line: ParsedCommandLine) -> OptionValues { line.options }
}
