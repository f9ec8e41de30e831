import ChoosyKit
import Testing

/// `CommandGrammar`'s table of commands is whole.
@Suite struct CommandGrammarTests {
    /// Each command's table entry is whole: documented, and the shared options declared once.
    @Test func everyCommandIsDescribed() {
        for command in CommandTable.grammar.commands {
            #expect(!command.summary.isEmpty && !command.help.isEmpty, "\(command.name)")
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) declares an option twice")
            // Only a command that takes any number of arguments has nothing to say about them.
            #expect(command.misuse.isEmpty == (command.arguments.map(\.count) == [.any]), "\(command.name)")
        }
        #expect(
            CommandTable.grammar.commands.filter { $0.shared != nil }.map(\.name) == ["open", "url", "handle", "route", "why", "again"])
    }
}
