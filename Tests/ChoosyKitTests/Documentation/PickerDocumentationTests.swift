import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Where the docs list the pickers, they list every picker of the table (`PickerPreference.names`).
@Suite struct PickerDocumentationTests {
    /// Each document and the part of it that lists the pickers: from a line to the next line
    /// that starts another section.
    @Test(arguments: [
        ("README.md", "### How choosy chooses", "#"),
        ("doc/desktop.md", "## Pickers", "## "),
        ("doc/choosy.1", ".BI \\-\\-picker \" P\"", ".TP"),
    ])
    func theDocsNameEveryPicker(document: String, start: String, next: String) throws {
        let text = try String(contentsOfFile: Sandbox.packageRoot + "/" + document, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex(of: start))
        let section = lines[(first + 1)...].prefix { !$0.hasPrefix(next) }
        let words = Set(section.joined(separator: " ").split { !$0.isLetter && !$0.isNumber }.map(String.init))
        #expect(PickerPreference.names.filter { !words.contains($0) } == [])
    }
}
