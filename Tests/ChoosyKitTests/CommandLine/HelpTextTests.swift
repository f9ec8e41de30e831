import ChoosyKit
import ChoosyTestSupport
import Testing

/// `choosy help` names exactly the table's commands and options.
@Suite struct HelpTextTests {
    let overview = HelpCommand.overview

    /// The overview's rows under `heading`: the text up to the first run of spaces, and after
    /// it, each joined again from the lines it wraps over (a synopsis goes on 8 columns in, its
    /// description under the description column).
    private func rows(under heading: String) -> [(String, String)] {
        guard let start = overview.range(of: "\n" + heading + "\n") else { return [] }
        var rows: [(String, String)] = []
        for line in overview[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix(while: {
            $0.hasPrefix("  ")
        }) {
            let text = line.drop { $0 == " " }
            let gap = text.range(of: "   ") ?? text.range(of: "  ")
            let (first, second) =
                gap.map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...].drop { $0 == " " })) } ?? (String(text), "")
            let indent = line.count - text.count
            if indent == 2 || rows.isEmpty {
                rows.append((first, second))
            } else if indent == 8 && rows[rows.count - 1].1.isEmpty {
                rows[rows.count - 1].0 += " " + first
                rows[rows.count - 1].1 = second
            } else {
                // A description that does not fit beside its synopsis (long, or below a synopsis of
                // two lines) goes on the next lines.
                rows[rows.count - 1].1 += (rows[rows.count - 1].1.isEmpty ? "" : " ") + text
            }
        }
        return rows
    }

    @Test func theOverviewIsNoWiderThan80Columns() {
        #expect(overview.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func theOverviewListsEveryCommand() {
        let commands = CommandTable.grammar.commands
        #expect(rows(under: "Usage:").map(\.0) == commands.map(\.shortSynopsis))
        #expect(rows(under: "Usage:").map(\.1) == commands.map(\.summary))
    }

    @Test func theOverviewListsTheOptions() {
        let group = CommandTable.grammar.commands.compactMap(\.shared).first?.options ?? []
        let listed = rows(under: "Options of open, url, handle, route, why and again:") + rows(under: "Everywhere:")
        #expect(listed.map(\.0) == (group + CommandGrammar.everyCommand).map(\.label))
        #expect(listed.map(\.1) == (group + CommandGrammar.everyCommand).map(\.summary))
        // The rest are in the synopses: list [TYPE] [--json], reset TYPE | --all, help … | --version.
        let synopses = CommandTable.grammar.commands.map(\.shortSynopsis).joined(separator: " ")
        for option in CommandTable.grammar.options + CommandGrammar.insteadOfCommand where !listed.map(\.0).contains(option.label) {
            #expect(synopses.contains(option.name), "\(option.name)")
        }
    }

    /// `choosy help COMMAND` starts with the synopsis, options and all, in lines of 80 at most.
    @Test(arguments: CommandTable.grammar.commands.map(\.name))
    func eachCommandsHelpStartsWithItsSynopsis(command: String) throws {
        let command = try #require(CommandTable.grammar.command(named: command))
        let text = try HelpCommand.text(for: command.name)
        let synopsis = try #require(text.components(separatedBy: "\n\n").first)
        #expect(synopsis.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(synopsis.split(separator: " ").joined(separator: " ").replacingOccurrences(of: "\n", with: "") == command.synopsis)
        #expect(text.hasSuffix(command.help + "\n"))
    }

    @Test func openListsItsOptionsTheOthersReferToThem() throws {
        #expect(
            try HelpCommand.text(for: "open").hasPrefix(
                """
                choosy open TYPE [ACTION] [KEY=VALUE…] [--clean] [--no-clean] [--unshorten]
                            [--no-unshorten] [--app KEY] [--choose] [--no-remember] [--picker P]
                            [--title T] [--dry-run] [--json] [--configure CMD] [--private]


                """))
        #expect(
            try HelpCommand.text(for: "handle").hasPrefix(
                "choosy handle [URL|FILE] [--clean] [--no-clean] [--unshorten] [--no-unshorten]\n              [open's options]\n\n"))
        #expect(try HelpCommand.text(for: "reset").hasPrefix("choosy reset TYPE | --all\n\n"))
        #expect(try HelpCommand.text(for: "help").hasPrefix("choosy help [COMMAND] | --help | --version\n\n"))
    }

    @Test func unknownTopicsAreUsageErrors() {
        #expect(throws: ChoosyError.usage("no help for 'opn' (did you mean 'open'?)")) { try HelpCommand.text(for: "opn") }
        #expect(throws: ChoosyError.usage("no help for '__complete'")) { try HelpCommand.text(for: "__complete") }
    }
}
