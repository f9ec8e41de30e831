import ChoosyKit

/// Turns argv into an `Invocation`: `CommandLineReader` reads it against the grammar (usage
/// errors, exit 2), and this says what uninstall's arguments mean; every other command is a
/// unit of `CommandTable`.
enum CommandLineParser {
    static func parse(_ words: [String]) throws(ChoosyError) -> LegacyInvocation {
        let line = try CommandLineReader(grammar: CommandTable.grammar).read(words)
        if line.command === CommandTable.uninstall && !line.options.help {
            return LegacyInvocation(command: .uninstall, options: line.options)
        }
        return LegacyInvocation(command: .unit(try CommandTable.command(for: line)), options: line.options)
    }
}
