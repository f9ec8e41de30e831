import ChoosyKit
import Testing

/// Completion offers what `CommandGrammar` says; the binary's parser must accept exactly that.
@Suite struct CommandGrammarTests {
    let sandbox = Sandbox()

    /// Every option of a command, given together (with `--help`, so nothing runs), is accepted.
    @Test(arguments: CommandGrammar.commands.map(\.name))
    func theParserTakesEveryOptionOffered(command: String) {
        let options = CommandGrammar.options(for: command).flatMap { $0.takesValue ? [$0.name, "value"] : [$0.name] }
        let output = sandbox.choosy([command] + options + ["--help"])
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// An option is refused by a command completion does not offer it for.
    @Test func theParserRefusesOptionsOfOtherCommands() {
        for option in CommandGrammar.options where option.commands != nil {
            guard let other = CommandGrammar.commands.map(\.name).first(where: { !option.commands!.contains($0) }) else { continue }
            let output = sandbox.choosy([other, option.name] + (option.takesValue ? ["value"] : []))
            #expect(output.status == 2, "\(other) \(option.name)")
            #expect(output.stderr == "choosy: option \(option.name) does not apply to '\(other)'\n")
        }
    }
}
