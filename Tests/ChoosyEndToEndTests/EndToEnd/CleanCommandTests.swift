import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `choosy clean` with the real binary laid out as an installation (bin/choosy and
/// share/choosy/clean/ beside it), as `make install` and the Debian package lay it out.
@Suite struct CleanCommandTests {
    let sandbox = Sandbox()
    let choosy: String
    var prefix: String { sandbox.root + "/prefix" }

    init() {
        choosy = sandbox.installedChoosy()
    }

    private func clean(_ arguments: String...) -> Sandbox.Output {
        sandbox.run([choosy, "clean"] + arguments)
    }

    @Test func printsTheCleanedLink() {
        let output = clean("https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1%26utm_source%3Dx&sa=D")
        #expect(output.status == 0 && output.stderr == "", "\(output.stderr)")
        #expect(output.stdout == "https://example.org/a?b=1\n")
    }

    /// The parsed rules go into the cache, where the next command reads them; a broken cache, or
    /// rules that changed, are parsed again. A dry run writes none.
    @Test func theParsedRulesAreKeptUntilTheRulesChange() {
        let parsed = sandbox.cacheHome + "/choosy/clean/parsed.rules"
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        #expect(sandbox.run([choosy, "handle", "https://example.org/?utm_source=x", "--clean", "--dry-run"]).status == 0)
        #expect(sandbox.read(parsed) == nil)
        let link = "https://example.net/a?mine=1&utm_source=x"
        #expect(clean(link).stdout == "https://example.net/a?mine=1\n")
        let written = sandbox.read(parsed)
        #expect(written?.hasPrefix("choosy parsed cleaning rules") == true)
        #expect(clean(link).stdout == "https://example.net/a?mine=1\n")
        #expect(sandbox.read(parsed) == written)
        sandbox.write(
            sandbox.configHome + "/choosy/clean/mine.json",
            #"{"providers":{"mine":{"urlPattern":"^https?:\\/\\/example\\.net","rules":["mine"]}}}"#)
        #expect(clean(link).stdout == "https://example.net/a\n")
        sandbox.write(parsed, String(written?.dropLast(3) ?? ""))
        let output = clean(link)
        #expect(output.stdout == "https://example.net/a\n" && output.stderr == "", "\(output.stderr)")
        #expect(sandbox.read(parsed)?.contains("mine.json") == true)
    }

    @Test func explainsEachRule() {
        let output = clean("https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2F%3Futm_source%3Dfb", "--explain")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "facebook: unwrapped the link it redirects to")
        #expect(lines.dropFirst().first == "globalRules: removed utm_source")
        #expect(lines.last == "https://example.org/")
    }

    /// What went, by which provider: the items' names, not the rules' expressions (issue 39).
    @Test func explainsWhichItemsWent() throws {
        let link = "https://example.com/page?utm_source=news&utm_medium=email&id=5&fbclid=abc#top"
        #expect(
            clean(link, "--explain").stdout == "globalRules: removed utm_source, utm_medium, fbclid\nhttps://example.com/page?id=5#top\n")
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        let verbose = sandbox.run([choosy, "-v", "handle", "--clean", "--dry-run", link])
        #expect(
            verbose.stderr.contains("choosy: cleaned the link: globalRules: removed utm_source, utm_medium, fbclid\n"), "\(verbose.stderr)")
        let object = try #require(Sandbox.jsonObject(clean(link, "--json").stdout))
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.flatMap { $0["removed"] as? [String] ?? [] } == ["utm_source", "utm_medium", "fbclid"])
    }

    @Test func printsJSONAndNamesTheFilesUnderVerbose() throws {
        let output = sandbox.run([choosy, "-v", "clean", "https://test.clearurls.xyz/void/block.svg?utm_source=x", "--json"])
        let object = try #require(Sandbox.jsonObject(output.stdout))
        #expect(object["url"] as? String == "https://test.clearurls.xyz/void/block.svg?utm_source=x")
        #expect(object["blocked_by"] as? String == "ClearURLsTestBlock2")
        #expect((object["steps"] as? [Any])?.isEmpty == true)
        #expect(output.stderr.contains(prefix + "/share/choosy/clean/data.min.json (205 providers)"))
        #expect(output.stderr.contains("block this site"))
    }

    /// The user's rules apply after the bundled ones; a broken file of theirs costs one warning.
    @Test func theUsersRulesApplyToo() {
        sandbox.write(
            sandbox.configHome + "/choosy/clean/mine.json",
            #"{"providers": {"mine": {"urlPattern": "^https?:\\/\\/example\\.net", "rules": ["session"]}}}"#)
        sandbox.write(sandbox.configHome + "/choosy/clean/broken.json", "{")
        let output = clean("https://example.net/x?session=1&keep=2")
        #expect(output.stdout == "https://example.net/x?keep=2\n")
        #expect(output.stderr.split(separator: "\n").count == 1 && output.stderr.contains("broken.json"), "\(output.stderr)")
    }

    /// A binary copied alone has no rules: one warning, and the link as it was.
    @Test func withoutRulesTheLinkStaysAsItWas() {
        let alone = sandbox.root + "/alone/choosy"
        sandbox.write(sandbox.root + "/alone/.keep", "")
        #expect(link(Sandbox.choosyBinary, alone) == 0)
        let output = sandbox.run([alone, "clean", "https://example.com/?utm_source=a"])
        #expect(output.status == 0)
        #expect(output.stdout == "https://example.com/?utm_source=a\n")
        #expect(output.stderr.contains("no link-cleaning rules"))
    }

    @Test func refusesWhatIsNoWebLink() {
        let output = clean("mailto:ada@example.org")
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("choosy: 'mailto:ada@example.org' is not an http(s) link"))
    }
}
