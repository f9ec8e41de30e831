/// `choosy help [COMMAND]`, written from `CommandGrammar`.
package enum HelpText {
    package static func text(for topic: String?) throws(ChoosyError) -> String {
        guard let topic else { return overview }
        let commands = CommandGrammar.commands
        guard let command = commands.first(where: { $0.name == topic }) else {
            throw .usage("no help for '\(topic)'" + didYouMean(topic, among: commands.map(\.name)))
        }
        return command.synopsis(width: 80) + "\n\n" + command.help + "\n"
    }

    package static var overview: String {
        let group = CommandGrammar.openOptions
        let sharing = CommandGrammar.commands.filter { $0.shared?.owner == group.owner }.map(\.name)
        return """
            choosy \(choosyVersion): open things in the user's favourite app

            Usage:
            \(rows(CommandGrammar.commands.map { ($0.shortSynopsis, $0.summary) }, column: 41))

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
        return wrapped(["Exit status:"] + statuses.dropLast().map { $0 + ";" } + [(statuses.last ?? "") + ".", "See", "choosy(1)."], width: 80)
    }

    /// Two columns, indented by two; a first column wider than `column` keeps three spaces.
    private static func rows(_ rows: [(String, String)], column: Int) -> String {
        rows.map { first, second in
            "  " + first + String(repeating: " ", count: max(3, column - first.count)) + second
        }.joined(separator: "\n")
    }
}
