import ChoosyKit
import ChoosyTestSupport
import Testing

/// The binary's parser takes exactly what `CommandGrammar` declares.
@Suite struct ParserAgainstGrammarTests {
    let sandbox = Sandbox()

    /// Every option of a command, given together (with `--help`, so nothing runs), is accepted.
    @Test(arguments: CommandTable.grammar.commands.map(\.name))
    func theParserTakesEveryOptionOffered(command: String) throws {
        let options = try #require(CommandTable.grammar.command(named: command)).options.flatMap {
            $0.takesValue ? [$0.name, "value"] : [$0.name]
        }
        let output = sandbox.choosy([command] + options + ["--help"])
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// An option is refused by a command completion does not offer it for.
    @Test func theParserRefusesOptionsOfOtherCommands() {
        for option in CommandTable.grammar.options {
            guard let other = CommandTable.grammar.commands.first(where: { $0.option(option.name) == nil }) else { continue }
            let output = sandbox.choosy([other.name, option.name] + (option.takesValue ? ["value"] : []))
            #expect(output.status == 2, "\(other.name) \(option.name)")
            #expect(output.stderr == "choosy: option \(option.name) does not apply to '\(other.name)'\n")
        }
    }
}
