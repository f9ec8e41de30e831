/// A command line read against a `CommandGrammar`: the command, its arguments (the words that
/// are not options, in order) and what its options set. What the arguments mean is the
/// command's business (`ChoosyCommand`).
package struct ParsedCommandLine: Sendable {
    /// nil when there is none: `choosy` alone, or an option in its place (`choosy --version`).
    package var command: CommandGrammar.Command?
    package var arguments: [String] = []
    package var options = OptionValues()
}

/// Reads argv: options anywhere after the command, `--` ends them; a usage error (exit 2)
/// names what was wrong. The arguments are checked against the command's only when it is
/// not asked for its help.
package struct CommandLineReader: Sendable {
    package let grammar: CommandGrammar

    package init(grammar: CommandGrammar) {
        self.grammar = grammar
    }

    package func read(_ words: [String]) throws(ChoosyError) -> ParsedCommandLine {
        var line = ParsedCommandLine()
        var words = words[...]
        while let first = words.first, let option = CommandGrammar.beforeCommand.first(where: { $0.isWritten(first) }) {
            option.set(nil, in: &line.options)
            words.removeFirst()
        }
        guard let first = words.popFirst() else { return line }
        if let option = CommandGrammar.insteadOfCommand.first(where: { $0.isWritten(first) }) {
            option.set(nil, in: &line.options)
            return line
        }
        guard let command = grammar.command(named: first) else {
            if first.hasPrefix("-") {
                throw .usage("'\(first)' must come after a command (see 'choosy help')")
            }
            throw .usage("unknown command '\(first)'" + didYouMean(first, among: grammar.commands.map(\.name)) + "; see 'choosy help'")
        }
        if command.hidden {
            return ParsedCommandLine(command: command, arguments: Array(words))
        }
        line.command = command
        let alternativeGiven = try readOptions(Array(words), of: command, into: &line)
        guard !line.options.help else { return line }
        if alternativeGiven {
            guard line.arguments.isEmpty else { throw .usage(command.conflict ?? command.misuse) }
        } else if !command.fits(line.arguments) {
            throw .usage(command.misuse)
        }
        return line
    }

    /// Returns whether the command's alternative to its arguments was given (`reset --all`).
    private func readOptions(
        _ words: [String], of command: CommandGrammar.Command, into line: inout ParsedCommandLine
    ) throws(ChoosyError) -> Bool {
        var alternativeGiven = false
        var scanner = OptionScanner(words, of: command)
        while let word = scanner.next() {
            switch word {
            case .argument(let argument):
                line.arguments.append(argument)
            case .option(let name, let option, let inline, let following):
                guard let option else {
                    let known = grammar.options.map(\.name)
                    if known.contains(name) {
                        throw .usage("option \(name) does not apply to '\(command.name)'")
                    }
                    throw .usage("unknown option '\(name)'" + didYouMean(name, among: known))
                }
                let value = inline ?? following
                if !option.takesValue {
                    guard inline == nil else { throw .usage("\(name) takes no value") }
                } else if value == nil {
                    throw .usage("\(name) needs a value")
                }
                option.set(value, in: &line.options)
                alternativeGiven = alternativeGiven || option.name == command.alternative?.name
            }
        }
        return alternativeGiven
    }
}
