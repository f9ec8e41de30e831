import ChoosyTestSupport
import Foundation
import Testing

/// doc/packaging.md says what the package holds; what it counts follows the files.
@Suite struct PackagingDocTests {
    @Test func theLintianOverridesAreCountedAsTheFileHoldsThem() throws {
        let overrides = try String(contentsOfFile: Sandbox.packageRoot + "/packaging/deb/lintian-overrides", encoding: .utf8)
        let count = overrides.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }.count
        let word = try #require(["one", "two", "three", "four"].dropFirst(count - 1).first)
        let doc = try String(contentsOfFile: Sandbox.packageRoot + "/doc/packaging.md", encoding: .utf8)
        #expect(doc.contains(count == 1 ? "the one lintian override," : "the \(word) lintian overrides,"), "\(count) overrides")
    }
}
