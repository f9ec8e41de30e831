/// `choosy help [COMMAND]`, `choosy COMMAND --help` and `choosy --version`, written from the
/// grammar.
package struct HelpCommand: ChoosyCommand {
    package static let grammar = CommandGrammar.Command(
        "help", "help on a command",
        arguments: [.optional("COMMAND", .command)], insteadOfCommand: true, misuse: "help takes at most one command",
        help: "Shows help on choosy, or on one command."
    )

    enum Topic {
        case overview
        case command(String)
        case version
    }

    let topic: Topic

    package init(_ line: ParsedCommandLine) { topic = line.arguments.first.map(Topic.command) ?? .overview }

    /// What a command line without a command, or with `--help`, asks for.
    init(asked line: ParsedCommandLine) {
        if let command = line.command {
            topic = .command(command.name)
        } else {
            topic = line.options.version ? .version : .overview
        }
    }

    package func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        switch topic {
        case .overview: CommandOutput(Self.overview)
        case .command(let name): CommandOutput(try Self.text(for: name))
        case .version: CommandOutput("choosy \(choosyVersion)\n")
        }
    }

    /// The synopsis and help of one command.
    package static func text(for name: String) throws(ChoosyError) -> String {
        let commands = CommandTable.grammar.commands
        guard let command = commands.first(where: { $0.name == name }) else {
            throw .usage("no help for '\(name)'" + didYouMean(name, among: commands.map(\.name)))
        }
        return command.synopsis(width: 80) + "\n\n" + command.help + "\n"
    }

    package static var overview: String {
        let grammar = CommandTable.grammar
        let group = CommandGrammar.openOptions
        let sharing = grammar.commands.filter { $0.shared?.owner == group.owner }.map(\.name)
        return """
            choosy \(choosyVersion): open things in the user's favourite app

            Usage:
            \(rows(grammar.commands.map { ($0.shortSynopsis, $0.summary) }, column: 41))

            Options of \(sharing.dropLast().joined(separator: ", ")) and \(sharing.last ?? ""):
            \(rows(group.options.map { ($0.label, $0.summary) }, column: 19))
            Everywhere:
            \(rows(CommandGrammar.everyCommand.map { ($0.label, $0.summary) }, column: 19))

            Examples:
              choosy open Twitter show_profile profile_screenname=choosyapp
              choosy open Browser browse url=https://example.org --choose
              choosy url Maps search query='Alexanderplatz, Berlin'

            \(exitStatuses)

            """
    }

    private static var exitStatuses: String {
        // A status and its words stay on one line.
        let statuses = ExitStatus.allCases.map { "\($0.rawValue) \($0.summary)" }
        return wrapped(
            ["Exit status:"] + statuses.dropLast().map { $0 + ";" } + [(statuses.last ?? "") + ".", "See", "choosy(1)."], width: 80)
    }

    /// Two columns, indented by two; a first column wider than `column` keeps three spaces.
    /// Each pair as a row, its second part from `column` on. A row that would pass 80 columns
    /// wraps: its first part (keeping each `[…]` whole) and its second part under the column.
    private static func rows(_ rows: [(String, String)], column: Int) -> String {
        let start = column + 2
        let pad = String(repeating: " ", count: start)
        return rows.map { first, second in
            var lines = ("  " + wrapped(synopsisWords(first), width: 78, indent: "        ")).split(separator: "\n").map(String.init)
            let described = wrapped(second.split(separator: " ").map(String.init), width: 80 - start)
                .split(separator: "\n").map { pad + $0 }
            let last = lines.removeLast()
            if last.count + 3 <= start || (lines.isEmpty && last.count + 3 + (described.first?.count ?? start) - start <= 80) {
                let gap = String(repeating: " ", count: max(3, start - last.count))
                lines.append(last + gap + (described.first?.dropFirst(start) ?? ""))
                lines += described.dropFirst()
            } else {
                lines.append(last)
                lines += described
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The words of a synopsis, an optional `[--app KEY]` counting as one.
    private static func synopsisWords(_ synopsis: String) -> [String] {
        var words: [String] = []
        var depth = 0
        for word in synopsis.split(separator: " ") {
            if depth > 0 { words[words.count - 1] += " " + word } else { words.append(String(word)) }
            depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
        }
        return words
    }
}
