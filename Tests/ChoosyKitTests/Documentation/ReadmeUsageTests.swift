import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// README.md's "Usage" block shows the table's synopses, command by command.
@Suite struct ReadmeUsageTests {
    @Test func theUsageBlockIsTheGrammars() throws {
        let readme = try String(contentsOfFile: Sandbox.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Usage\n\n```\n")).upperBound
        let block = readme[section...].components(separatedBy: "\n```")[0]
        var synopses: [String] = []
        for line in block.split(separator: "\n") {
            // The synopsis, without the description after two spaces or more.
            let synopsis = line.components(separatedBy: "  ").filter { !$0.isEmpty }.first ?? ""
            if line.hasPrefix(" "), let last = synopses.popLast() {
                synopses.append(last + " " + synopsis)
            } else {
                synopses.append(synopsis)
            }
        }
        #expect(synopses == CommandTable.grammar.commands.map(\.synopsis))
    }
}
