import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The index of rules.json by domain: a link decided from the rules it gives is decided as
/// from all of them, and an index that does not stand for rules.json as it is never decides.
@Suite struct SiteRuleIndexTests {
    static func rule(_ site: String, _ app: String, from: String? = nil) -> SiteRule {
        SiteRule(site: site == "*" ? nil : try! Site(parsing: site), target: .app(key: app, profile: nil, privateWindow: false), from: from)
    }

    /// Every kind of site: domains and the domains above them, exact hosts, paths, addresses,
    /// `*`, sources, a name under an IDN domain, and several rules of one domain.
    static let rules = SiteRules([
        rule("github.com", "firefox"), rule("=github.com", "chromium"), rule("github.com/work-org", "epiphany"),
        rule("docs.github.com", "firefox", from: "slack.desktop"), rule("*", "chromium", from: "thunderbird.desktop"),
        rule("127.0.0.1", "firefox"), rule("[::1]/admin", "chromium"), rule("xn--bcher-kva.example", "epiphany"),
        rule("example.org", "firefox", from: "slack.desktop"), rule("*", "firefox", from: "slack.desktop"), rule("org", "epiphany"),
        rule("a.b.c.example.net", "firefox"), rule("c.example.net", "chromium"), rule("ample.org", "chromium"),
        SiteRule(site: try! Site(parsing: "news.example.org"), target: .ask),
    ])
    static let bytes = Array(rules.json.rendered(indented: true).utf8)

    static func index(_ rules: SiteRules = rules, key: [UInt8] = bytes) throws -> SiteRuleIndex {
        let key = SiteRuleIndex.Key(key)
        let encoded = try #require(SiteRuleIndex.encoded(rules, for: key))
        return try #require(SiteRuleIndex(decoding: encoded, for: key))
    }

    @Test(arguments: [
        "https://github.com/", "https://GitHub.com./work-org/x", "https://docs.github.com/a", "https://x.docs.github.com/",
        "https://evilgithub.com/", "https://github.com.evil.example/", "http://127.0.0.1:8080/", "http://[::1]/admin/x",
        "https://bücher.example/", "https://www.example.org/", "https://example.org/", "https://ample.org/", "https://news.example.org/",
        "https://a.b.c.example.net/", "https://b.c.example.net/", "https://net/", "https://org/", "http://10.0.0.1/",
        "https://unrelated.test/", "https://.example.org/", "https://a..example.org/",
    ])
    func aLinkIsDecidedFromTheIndexAsFromEveryRule(link: String) throws {
        let url = try WebURL(parsing: link)
        let candidates = SiteRules(try #require(Self.index().rules(for: url.host)))
        for source in [nil, "slack.desktop", "thunderbird.desktop", "other.desktop"] {
            let names = source.map { source in { (from: String) in from == source } }
            #expect(candidates.match(url, from: names) == Self.rules.match(url, from: names), "\(link) from \(source ?? "nowhere")")
        }
        // In rules.json's order: among equally specific rules the first wins.
        let order = candidates.rules.map { rule in Self.rules.rules.firstIndex(of: rule)! }
        #expect(order == order.sorted())
        #expect(candidates.rules.contains { $0.site == nil }, "'*' may decide any link")
    }

    @Test func itNamesEverySourceOnce() throws {
        #expect(try Self.index().sources == ["slack.desktop", "thunderbird.desktop"])
        #expect(try Self.index(SiteRules()).sources == [])
        #expect(try Self.index(SiteRules()).rules(for: WebURL(parsing: "https://x.org/").host) == [])
    }

    @Test func anIndexStandsOnlyForTheBytesItWasMadeFrom() throws {
        let encoded = try #require(SiteRuleIndex.encoded(Self.rules, for: SiteRuleIndex.Key(Self.bytes)))
        var edited = Self.bytes
        edited[edited.firstIndex(of: UInt8(ascii: "g"))!] = UInt8(ascii: "h")
        #expect(SiteRuleIndex(decoding: encoded, for: SiteRuleIndex.Key(edited)) == nil, "the same size, other bytes")
        #expect(SiteRuleIndex(decoding: encoded, for: SiteRuleIndex.Key(Self.bytes + [0x0A])) == nil)
        #expect(SiteRuleIndex(decoding: encoded, for: SiteRuleIndex.Key(Self.bytes)) != nil)
    }

    /// A damaged index (a byte changed, cut short, lines out of order, a line of another
    /// domain) is not used; one that reads but whose lines do not says so when looked up.
    @Test func aDamagedIndexIsNotUsed() throws {
        let key = SiteRuleIndex.Key(Self.bytes)
        let encoded = try #require(SiteRuleIndex.encoded(Self.rules, for: key))
        for position in stride(from: 0, to: encoded.count, by: 7) {
            var damaged = encoded
            damaged[position] ^= 0x01
            #expect(SiteRuleIndex(decoding: damaged, for: key) == nil, "a changed byte at \(position)")
        }
        for count in stride(from: 0, to: encoded.count, by: 11) {
            #expect(SiteRuleIndex(decoding: Array(encoded.prefix(count)), for: key) == nil, "cut to \(count) bytes")
        }
        // Bodies made with a matching hash: only what the lines say keeps them from being used.
        let text = String(decoding: encoded, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let body = Array(lines[2...])
        func rehashed(_ body: [String]) -> [UInt8] {
            SiteRuleIndex.framed(Array(body.joined(separator: "\n").utf8), lines: body.count - 2, for: key)
        }
        #expect(SiteRuleIndex(decoding: rehashed(body), for: key) != nil, "the test rebuilds an index as written")
        var reversed = Array(body[1..<(body.count - 1)].reversed())
        reversed.insert(body[0], at: 0)
        reversed.append("")
        #expect(SiteRuleIndex(decoding: rehashed(reversed), for: key) == nil, "lines out of order")
        let github = try #require(body.firstIndex { $0.hasPrefix("github.com\t") })
        var moved = body
        moved[github] = "github.coma" + body[github].dropFirst("github.com".count)
        // The sources line stays first and the empty string after the last newline stays last.
        moved[1..<(moved.count - 1)].sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let index = try #require(SiteRuleIndex(decoding: rehashed(moved), for: key))
        #expect(index.rules(for: try WebURL(parsing: "https://github.coma/").host) == nil, "a line of another domain than its rule's")
        lines[1] = ""
        #expect(SiteRuleIndex(decoding: Array(lines.joined(separator: "\n").utf8), for: key) == nil)
    }
}

/// The index as the store keeps it beside rules.json: written when rules.json is read whole,
/// used while rules.json keeps its bytes, never for a file that does not read cleanly.
@Suite struct SiteRuleStoreIndexTests {
    let sandbox = Sandbox()
    let diagnostics = RecordingDiagnostics()
    var path: String { sandbox.configHome + "/choosy/rules.json" }
    var indexPath: String { sandbox.cacheHome + "/choosy/site-rules.index" }
    let link = try! WebURL(parsing: "https://docs.github.com/x")

    func store(_ fileSystem: FileSystem = LocalFileSystem(), keepsIndex: Bool = true) -> SiteRuleStore {
        SiteRuleStore(
            environment: sandbox.choosyEnvironment, fileSystem: fileSystem, warnings: CorruptFileWarnings(diagnostics: diagnostics),
            clock: FixedClock(time: 1_800_000_000), keepsIndex: keepsIndex
        )
    }

    func write(_ rules: SiteRules) {
        sandbox.write(path, rules.json.rendered(indented: true) + "\n")
    }

    @Test func theFirstReadWritesTheIndexAndTheNextUsesIt() throws {
        write(SiteRuleIndexTests.rules)
        #expect(store().rules(for: link).match(link) == SiteRuleIndexTests.rules.match(link))
        #expect(sandbox.exists(indexPath))
        // An index that stands for these bytes is believed: one made of other rules shows it is read.
        let other = SiteRules([SiteRuleIndexTests.rule("github.com", "konqueror")])
        let key = SiteRuleIndex.Key(Array(try #require(sandbox.read(path)).utf8))
        try Data(try #require(SiteRuleIndex.encoded(other, for: key))).write(to: URL(fileURLWithPath: indexPath))
        #expect(store().rules(for: link).match(link)?.targetDescription == "konqueror")
        #expect(store().sources() == [])
        #expect(store().rules().rules == SiteRuleIndexTests.rules.rules, "the whole file is still read as it is")
    }

    @Test func aFileEditedByHandIsReadAgainEvenAtTheSameSize() throws {
        write(SiteRules([SiteRuleIndexTests.rule("github.com", "firefox")]))
        #expect(store().rules(for: link).match(link)?.targetDescription == "firefox")
        let text = try #require(sandbox.read(path))
        sandbox.write(path, text.replacingOccurrences(of: "firefox", with: "chromer"))
        #expect(store().rules(for: link).match(link)?.targetDescription == "chromer")
        #expect(store().rules(for: link).match(link)?.targetDescription == "chromer", "and the new index says so")
    }

    @Test func aChangeMadeByChoosyIsSeenByTheNextCommand() throws {
        #expect(store().rules(for: link).rules.isEmpty)
        try store().modify(whenCorrupt: .refuse) { $0.add(SiteRuleIndexTests.rule("github.com", "firefox", from: "slack.desktop")) }
        #expect(store().rules(for: link).match(link, from: { $0 == "slack.desktop" })?.targetDescription == "firefox")
        #expect(store().sources() == ["slack.desktop"])
        try store().modify(whenCorrupt: .refuse) { _ = $0.remove(try! Site(parsing: "github.com"), from: "slack.desktop") }
        #expect(store().rules(for: link).rules.isEmpty && store().sources() == [])
    }

    /// A corrupt file and one of a newer version are reported by every command, as without
    /// an index; neither gets one.
    @Test(arguments: [
        (#"{"version": 1, "rules": [{"site": "x.org"}]}"#, " is corrupt ("),
        (
            #"{"version": 2, "rules": [{"site": "github.com", "app": "firefox"}, {"site": 5}]}"#,
            " was written by a newer choosy (version 2;"
        ),
    ])
    func aFileThatDoesNotReadCleanlyGetsNoIndex(contents: String, warning: String) {
        sandbox.write(path, contents)
        for command in 1...2 {
            _ = store().rules(for: link)
            #expect(diagnostics.warnings.count == command && diagnostics.warnings.allSatisfy { $0.hasPrefix(path + warning) })
        }
        #expect(!sandbox.exists(indexPath))
    }

    @Test func withoutAWritableCacheTheRulesAreReadWhole() throws {
        write(SiteRuleIndexTests.rules)
        #expect(store(DryRunFileSystem(reading: LocalFileSystem())).rules(for: link).match(link) == SiteRuleIndexTests.rules.match(link))
        #expect(!sandbox.exists(indexPath), "a dry run writes nothing")
        #expect(store(keepsIndex: false).rules(for: link).match(link) == SiteRuleIndexTests.rules.match(link))
        #expect(!sandbox.exists(indexPath), "a store that keeps no index (a dry run's) makes none")
        sandbox.write(sandbox.cacheHome + "/choosy", "a file where the directory would be")
        #expect(store().rules(for: link).match(link) == SiteRuleIndexTests.rules.match(link))
        #expect(store().sources() == ["slack.desktop", "thunderbird.desktop"])
        #expect(diagnostics.warnings.isEmpty)
    }
}
