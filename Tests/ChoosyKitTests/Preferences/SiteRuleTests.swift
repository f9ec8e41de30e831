import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// SITE as `choosy rule add` reads it, which links a rule covers, and which rule wins.
@Suite struct SiteTests {
    func site(_ text: String) throws -> Site { try Site(parsing: text) }

    func url(_ text: String) throws -> WebURL { try WebURL(parsing: text) }

    @Test(arguments: [
        ("github.com", "github.com"), ("GitHub.com.", "github.com"), ("=WWW.Example.org", "=www.example.org"),
        ("github.com/work-org/", "github.com/work-org"), ("github.com/a/./b/../c", "github.com/a/c"),
        ("bücher.example", "xn--bcher-kva.example"), ("%67ithub.com", "github.com"), ("127.0.0.1", "127.0.0.1"), ("[::1]", "[::1]"),
    ])
    func sitesAreWrittenAsABrowserReadsTheirHost(text: String, written: String) throws {
        #expect(try site(text).text == written)
    }

    /// A site as choosy writes it is read without the URL parser (rules.json is read for every
    /// link): it must come out as the URL parser reads the same site written otherwise.
    @Test(arguments: [
        ("github.com/Work-Org", "GITHUB.com./Work-Org/"), ("=a-b.example.org/x_y~z/v1.2", "=A-B.example.org./x_y~z/./v1.2"),
        ("xn--bcher-kva.example", "bücher.example"), ("localhost", "LOCALHOST"), ("a1.b2", "A1.b2"),
    ])
    func aSiteAsWrittenReadsAsTheURLParserReadsIt(written: String, other: String) throws {
        #expect(try site(written) == site(other))
        #expect(try site(written).text == written)
    }

    @Test(arguments: [
        ("", "a site cannot be empty"),
        ("https://github.com", "write the site without its scheme, like 'example.org' (a rule covers http and https)"),
        ("git hub.com", "a site holds no spaces or control characters"),
        ("github.com\n", "a site holds no spaces or control characters"),
        ("github.com:443", "a site has no port: a rule covers every port of its host"),
        ("user@github.com", "a site holds no '@'"),
        ("github.com?q=1", "a site holds no '?'"),
        ("github.com#top", "a site holds no '#'"),
        ("github.com\\a", "a site holds no '\\'"),
        ("=", "a site starts with its host"),
        ("/work-org", "a site starts with its host"),
        ("=/work-org", "a site starts with its host"),
        ("github.com//a", "its path has an empty segment"),
        ("github.com..", "its host has an empty label"),
        (".a", "its host has an empty label"),
        ("a..b", "its host has an empty label"),
        ("%3Dexample.org", "its host starts with '='"),
        ("==example.org", "its host starts with '='"),
    ])
    func whatIsNoSiteIsRefusedWithTheReason(text: String, reason: String) {
        #expect(throws: SiteError(reason)) { try site(text) }
    }

    @Test func aDomainCoversItsSubdomainsAndAnExactHostOnlyItself() throws {
        let domain = try site("github.com")
        for link in [
            "https://github.com/", "http://docs.github.com/x", "https://GITHUB.COM./", "https://github.com:8443/", "https://%67ithub.com/",
        ] {
            #expect(domain.matches(try url(link)), "\(link)")
        }
        let exact = try site("=github.com")
        #expect(exact.matches(try url("https://github.com./a")))
        #expect(!exact.matches(try url("https://docs.github.com/")))
    }

    /// A rule decides which browser and profile see a link: text that only looks like the site
    /// is never the site.
    @Test(arguments: [
        "https://github.com@evil.example/", "https://github.com.evil.example/", "https://evil.example/?u=github.com",
        "https://evil.example/github.com", "https://evilgithub.com/", "https://evil.example/#github.com",
        "https://github.com:x@evil.example/", "https://evil.example\\@github.com/",
    ])
    func hostileLinksNeverMatch(link: String) throws {
        let url = try url(link)
        #expect(!(try site("github.com")).matches(url), "\(url.host)")
        #expect(!(try site("=github.com")).matches(url))
    }

    @Test func aPathPrefixMatchesWholeSegments() throws {
        let prefix = try site("github.com/work-org")
        #expect(prefix.matches(try url("https://github.com/work-org")))
        #expect(prefix.matches(try url("https://github.com/work-org/")))
        #expect(prefix.matches(try url("https://gist.github.com/work-org/repo?tab=1")))
        #expect(!prefix.matches(try url("https://github.com/work-orgs/repo")))
        #expect(!prefix.matches(try url("https://github.com/")))
        #expect(!prefix.matches(try url("https://github.com/other/work-org")))
    }

    @Test func theMostSpecificRuleWins() throws {
        func rule(_ site: String, _ app: String) throws -> SiteRule {
            SiteRule(site: try Site(parsing: site), target: .app(key: app, profile: nil, privateWindow: false))
        }
        let rules = SiteRules([
            try rule("github.com/work-org/team", "deep"), try rule("github.com", "domain"), try rule("=github.com", "exact"),
            try rule("docs.github.com", "labels"), try rule("github.com/work-org", "path"),
        ])
        func winner(_ link: String) throws -> String? {
            guard case .app(let key, _, _)? = rules.match(try url(link))?.target else { return nil }
            return key
        }
        // An exact host beats a domain with a longer path.
        #expect(try winner("https://github.com/work-org/team/x") == "exact")
        #expect(try winner("https://www.github.com/") == "domain")
        // More labels beat a longer path.
        #expect(try winner("https://docs.github.com/work-org/team") == "labels")
        #expect(try winner("https://gist.github.com/work-org/team") == "deep")
        #expect(try winner("https://gist.github.com/work-org/x") == "path")
        #expect(try winner("https://example.org/") == nil)
        // A host with an empty label is never a site (doc/links-and-rules.md), so no rule is its rule.
        #expect(try winner("https://.github.com/") == nil)
        #expect(try winner("https://docs..github.com/") == nil)
    }

    @Test func addingTheSameSiteReplacesItsRuleAndRemovingSaysWhetherThereWasOne() throws {
        var rules = SiteRules()
        rules.add(SiteRule(site: try site("github.com"), target: .ask))
        rules.add(SiteRule(site: try site("example.org"), target: .ask))
        rules.add(SiteRule(site: try site("GitHub.com."), target: .app(key: "firefox", profile: nil, privateWindow: false)))
        #expect(rules.rules.map(\.siteText) == ["github.com", "example.org"])
        #expect(rules.rules[0].target == .app(key: "firefox", profile: nil, privateWindow: false))
        #expect(rules.remove(try site("example.org")))
        #expect(!rules.remove(try site("example.org")))
    }

    @Test(arguments: [
        ("", "a profile name cannot be empty"), ("-P", "a profile name cannot start with '-'"),
        ("Work\u{1B}[2J", "a profile name holds no control characters"),
    ])
    func profileNamesThatWouldMisleadABrowserAreRefused(name: String, problem: String) {
        #expect(SiteRule.problem(withProfile: name) == problem)
        #expect(SiteRule.problem(withProfile: "Work and play") == nil)
    }
}

/// rules.json: what it holds, and a corrupt file read as no rules, moved aside by a change,
/// never lost.
@Suite struct SiteRuleStoreTests {
    let sandbox = Sandbox()
    let diagnostics = RecordingDiagnostics()
    var path: String { sandbox.configHome + "/choosy/rules.json" }

    func store() -> SiteRuleStore {
        SiteRuleStore(
            environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), warnings: CorruptFileWarnings(diagnostics: diagnostics),
            clock: FixedClock(time: 1_800_000_000)
        )
    }

    @Test func theFileHoldsEachRuleAsWrittenAndReadsBack() throws {
        try store().modify(whenCorrupt: .refuse) { rules in
            rules.add(
                SiteRule(
                    site: try! Site(parsing: "=GitHub.com/work-org"), target: .app(key: "firefox", profile: "Work", privateWindow: true)))
            rules.add(SiteRule(site: try! Site(parsing: "example.org"), target: .ask))
        }
        #expect(
            sandbox.read(path) == """
                {
                  "version" : 1,
                  "rules" : [
                    {
                      "site" : "=github.com/work-org",
                      "app" : "firefox",
                      "profile" : "Work",
                      "private" : true
                    },
                    {
                      "site" : "example.org",
                      "ask" : true
                    }
                  ]
                }

                """)
        #expect(store().rules().rules.map(\.targetDescription) == ["firefox, profile Work, private window", "ask"])
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test(arguments: [
        "{", #"{"version": 1, "rules": [{"site": "https://x"}]}"#, #"{"version": 1, "rules": [{"site": "x.org"}]}"#,
        #"{"version": 1, "rules": [{"site": "x.org", "app": "firefox", "profile": "-P"}]}"#, #"{"rules": []}"#,
    ])
    func aCorruptFileReadsAsNoRulesAndAChangeThatGoesOnMovesItAside(contents: String) throws {
        sandbox.write(path, contents)
        #expect(store().rules() == SiteRules())
        #expect(sandbox.read(path) == contents, "reading moves nothing")
        #expect(diagnostics.warnings.count == 1 && diagnostics.warnings[0].hasPrefix("\(path) is corrupt ("))
        try store().modify(whenCorrupt: SiteRuleStore.goOnWithoutRules) { _ in }
        #expect(sandbox.read(path + ".corrupt-1800000000") == contents)
        #expect(
            diagnostics.warnings.count == 2
                && diagnostics.warnings[1].hasPrefix(
                    "\(path) was corrupt: moved it to \(path).corrupt-1800000000 and started with no site rules (")
        )
    }

    @Test func aCommandThatWouldBuildOnACorruptFileFailsWithSevenAndWritesNothing() {
        sandbox.write(path, "not json")
        var changed = false
        #expect(throws: ChoosyError.self) {
            try store().modify(whenCorrupt: .refuse) { _ in changed = true }
        }
        #expect(!changed && !sandbox.exists(path))
        #expect(sandbox.read(path + ".corrupt-1800000000") == "not json")
        #expect(store().rules() == SiteRules() && diagnostics.warnings.isEmpty, "the file was moved aside: nothing is corrupt any more")
        sandbox.write(path, "[]")
        #expect(store().readableRules() == nil, "completion reads quietly")
        #expect(sandbox.exists(path) && diagnostics.warnings.isEmpty)
        // A second corrupt file in the same second is kept beside the first, never over it.
        #expect(
            throws: ChoosyError.corrupt(
                "\(path) was corrupt: moved it to \(path).corrupt-1800000000-2 (the document should be an object); nothing was changed")
        ) {
            try store().modify(whenCorrupt: .refuse) { _ in }
        }
        #expect(sandbox.read(path + ".corrupt-1800000000") == "not json")
    }
}
