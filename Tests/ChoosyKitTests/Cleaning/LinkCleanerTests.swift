import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The cleaner on the bundled ClearURLs rules and choosy's own (clean/), link by link, with
/// what the add-on does to each (doc/links-and-rules.md, "Clean links").
@Suite struct LinkCleanerTests {
    static let bundled: [ClearURLsRuleFile] = ["data.min.json", "choosy.json"].map { name in
        let path = Sandbox.packageRoot + "/clean/" + name
        let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
        return try! ClearURLsRuleFile(parsing: bytes, source: path)
    }

    /// Without a budget of time: what the rules make of a link, however long a debug build
    /// takes (the budget has tests of its own).
    private func cleaned(_ link: String, referrals: Bool = false, files: [ClearURLsRuleFile] = bundled) -> CleanedLink {
        LinkCleaner(files: files, removesReferralMarketing: referrals, timeLimit: .infinity, warn: { _ in }).clean(link)
    }

    @Test func theBundledRulesReadWhole() {
        #expect(Self.bundled[0].providers.count == 205)
        #expect(Self.bundled[0].warnings.isEmpty && Self.bundled[1].warnings.isEmpty)
        #expect(Self.bundled[1].providers.map(\.name) == ["outlook_safelinks", "teams_safelinks"])
    }

    @Test(arguments: [
        // Tracking parameters go; the rest stays byte for byte, in order, encoding untouched.
        ("https://example.com/page?utm_source=news&id=5&fbclid=abc#top", "https://example.com/page?id=5#top"),
        ("https://example.com/a?b=%7e&c=d+e&utm_medium=x&gclid=1", "https://example.com/a?b=%7e&c=d+e"),
        ("https://example.com/?utm_source=a&utm_campaign=b", "https://example.com/"),
        ("https://example.com/#utm_source=a&section=2", "https://example.com/#section=2"),
        ("https://example.com/x?UTM_SOURCE=a", "https://example.com/x"),
        // Nothing to remove: the link as it was.
        ("https://example.com/search?q=utm_source", "https://example.com/search?q=utm_source"),
        // Redirect wrappers are unwrapped, and what they wrap is cleaned too.
        ("https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&sa=D&ust=1", "https://example.org/a?b=1"),
        ("https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2Fdoc%3Futm_source%3Dfb&h=AT0", "https://example.org/doc"),
        (
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Fdoc&data=05%7C01&sdata=x&reserved=0",
            "https://example.org/doc"
        ),
        // The unwrapped link is cleaned by its own providers: `test` is a rule of the wrapper's only.
        ("https://test.clearurls.xyz/void/index.html?url=https%3A%2F%2Fexample.org%2F%3Ftest%3D1", "https://example.org/?test=1"),
        // Raw rules: Amazon's /ref=… path segment; referral tags are kept by default.
        ("https://www.amazon.com/dp/B000TEST/ref=sr_1_1?tag=aff-20&qid=123", "https://www.amazon.com/dp/B000TEST?tag=aff-20"),
        // Empty items and names stay; a mark with nothing after it goes; a fragment item with
        // no name is never removed.
        ("https://example.com/a?&utm_source=x&&=v#=w&fbclid=1", "https://example.com/a?&&=v#=w"),
        ("https://example.com/a?#fbclid=1", "https://example.com/a"),
        ("https://example.com/a?utm_source=1#", "https://example.com/a#"),
        // Items are split by byte: a combining mark after `&` does not join it.
        ("https://example.com/a?x=1&\u{301}y=2&utm_source=3", "https://example.com/a?x=1&\u{301}y=2"),
        // Local hosts are left alone, as the add-on's default does.
        ("http://127.0.0.1:8080/?utm_source=x", "http://127.0.0.1:8080/?utm_source=x"),
        ("http://localhost/?utm_source=x", "http://localhost/?utm_source=x"),
    ])
    func cleans(_ link: String, _ expected: String) {
        #expect(cleaned(link).link == expected)
    }

    /// A link of thousands of items is split once, not once per rule.
    @Test func aLinkOfThousandsOfItemsKeepsWhatNoRuleNames() {
        let kept = (0..<3000).map { "k\($0)=v" }
        let link = "https://example.com/?" + zip(kept, (0..<3000).map { "utm_source=\($0)" }).map { $0 + "&" + $1 }.joined(separator: "&")
        #expect(cleaned(link).link == "https://example.com/?" + kept.joined(separator: "&"))
    }

    @Test func referralMarketingGoesOnlyWhenAsked() {
        let link = "https://www.amazon.com/dp/B000TEST?tag=aff-20"
        #expect(cleaned(link).link == link)
        #expect(cleaned(link, referrals: true).link == "https://www.amazon.com/dp/B000TEST")
    }

    @Test func aBlockedSiteIsLeftAsItIs() {
        let link = "https://test.clearurls.xyz/void/block.svg?utm_source=x"
        let result = cleaned(link)
        #expect(result.link == link)
        #expect(result.blockedBy == "ClearURLsTestBlock2")
    }

    @Test func eachStepIsNamed() {
        let result = cleaned("https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2F%3Futm_source%3Dfb")
        #expect(result.steps.map(\.provider) == ["facebook", "globalRules"])
        #expect(result.steps.first?.kind == .redirection)
        #expect(result.steps.last?.after == "https://example.org/")
    }

    /// An unwrapped target must be an http(s) link, and one shown as it is: a target that
    /// decodes to a control or format character (a terminal's OSC 52, a bidi override, C1, a
    /// line break) is no link to open or to print (issue 39). Anything else leaves the wrapper
    /// alone.
    @Test(arguments: [
        "https://www.google.com/url?q=javascript%3Aalert(1)",
        "https://www.google.com/url?q=https%3A%2F%2F%5B%3A%3A1",
        "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%E0%A4%A",
        "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%1B]52;c;aGVsbG8=%07&sa=D",
        "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%E2%80%AEtxt.exe&sa=D",
        "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%C2%9B31m&sa=D",
        "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%0Aforged&sa=D",
    ])
    func unwrapsOnlyToWebLinksShownAsTheyAre(_ link: String) {
        let result = cleaned(link)
        #expect(!result.steps.contains { $0.kind == .redirection })
        #expect(result.link.hasPrefix("https://www.google.com/url?") && DisplayText.isShownAsIs(result.link))
    }

    /// -v and --explain say which items went, by which provider, not the rules' expressions.
    @Test func eachStepSaysWhatWent() {
        let result = cleaned("https://www.amazon.com/dp/B000TEST/ref=sr_1_1?qid=123&utm_source=x&utm_medium=y&tag=t")
        #expect(
            result.summaries.map { "\($0.provider): \($0.summary)" } == [
                "amazon: removed /ref=sr_1_1", "amazon: removed qid", "globalRules: removed utm_source, utm_medium",
            ])
        #expect(result.explanations.first == "cleaned the link: amazon: removed /ref=sr_1_1")
        let referrals = cleaned("https://www.amazon.com/dp/B000TEST?tag=aff-20", referrals: true)
        #expect(referrals.summaries.map(\.summary) == ["removed the referral items tag"])
        // Names and providers from a rules file or a link are shown, never raw.
        let odd = ClearURLsRuleFile(
            source: "odd.json", providers: [ClearURLsProvider(name: "odd\u{1B}", urlPattern: ".*", rules: ["evil.*"])])
        let shown = cleaned("https://example.com/a?evil%1B=1&evil\u{202E}=2&keep=3", files: [odd])
        #expect(shown.link == "https://example.com/a?keep=3")
        #expect(shown.explanations == ["cleaned the link: odd\\u{1B}: removed evil%1B, evil\\u{202E}"])
    }

    /// Cleaning one link has a budget of CPU time; past it the link is left as it was, with
    /// one warning for all the links of a cleaner.
    @Test func pastItsBudgetTheLinkIsLeftAsItWasWithOneWarning() {
        var warnings: [String] = []
        let cleaner = LinkCleaner(files: Self.bundled, removesReferralMarketing: false, timeLimit: 0, warn: { warnings.append($0) })
        let links = ["https://example.com/?utm_source=a&b=1", "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F&sa=D"]
        #expect(links.map { cleaner.clean($0) } == links.map { CleanedLink(link: $0) })
        #expect(warnings.count == 1 && warnings[0].hasPrefix("cleaning a link took more than 0 ms"), "\(warnings)")
    }

    /// A pattern that backtracks to the match limit at every start position of a long link
    /// (seconds a match) is stopped at the deadline by the callout at its start; one anchored
    /// to the start (one position) by the limits, run again by the JIT; the time bound here only
    /// catches a hang.
    @Test func aPatternThatBacktracksAtEveryPositionIsStoppedAtTheBudget() {
        var warnings: [String] = []
        let slow = ClearURLsProvider(name: "slow", urlPattern: ".*", rawRules: ["(a|aa){0,12}[bc]"])
        let file = ClearURLsRuleFile(source: "slow.json", providers: [slow])
        let link = "https://example.org/" + String(repeating: "a", count: 50_000)
        let started = monotonicSeconds()
        let result = LinkCleaner(files: [file], removesReferralMarketing: false, warn: { warnings.append($0) }).clean(link)
        #expect(monotonicSeconds() - started < 10)
        #expect(result == CleanedLink(link: link))
        #expect(warnings.count == 1 && warnings[0].contains("slow.json"), "\(warnings)")
        let anchored = ClearURLsProvider(name: "anchored", urlPattern: ".*", rawRules: [#"^https:\/\/example\.org\/(a|aa)*[bc]"#])
        let limited = LinkCleaner(
            files: [ClearURLsRuleFile(source: "anchored.json", providers: [anchored])], removesReferralMarketing: false,
            warn: { warnings.append($0) })
        let short = "https://example.org/" + String(repeating: "a", count: 40)
        #expect(limited.clean(short) == CleanedLink(link: short))
        #expect(warnings.count == 1)
    }

    /// A pattern PCRE2 anchors has one start position, but may cost milliseconds under its
    /// limit each time: tried on thousands of items, or again after each empty match of a raw
    /// rule (`\G`), it is stopped at the budget all the same, which every match checks first.
    /// Without that check each took seconds of CPU time (1.7 s and more); the bound here (ten
    /// times the budget, of the thread's CPU time, which the machine's load does not stretch)
    /// only catches that.
    @Test(arguments: [
        ("rules", "https://example.org/?" + Array(repeating: String(repeating: "a", count: 13), count: 4500).joined(separator: "&")),
        ("rawRules", "https://example.org/" + String(repeating: "a", count: 20000)),
    ])
    func anAnchoredPatternCostlyEachTimeIsStoppedAtTheBudget(_ member: String, _ link: String) {
        var warnings: [String] = []
        let costly = member == "rules" ? ["(?:a|a){0,12}[bc]"] : []
        let raw = member == "rawRules" ? [#"\G(?:(?:a|a){0,12}[bc])?"#] : []
        let provider = ClearURLsProvider(name: "costly", urlPattern: ".*", rules: costly, rawRules: raw)
        let started = threadCPUSeconds()
        let result = LinkCleaner(
            files: [ClearURLsRuleFile(source: "costly.json", providers: [provider])], removesReferralMarketing: false,
            warn: { warnings.append($0) }
        ).clean(link)
        #expect(threadCPUSeconds() - started < 1)
        #expect(result == CleanedLink(link: link))
        #expect(warnings.count == 1 && warnings[0].contains("costly.json"), "\(warnings)")
    }

    /// Unwrapping stops after five wrappers, each counted.
    @Test func unwrapsAtMostFiveTimes() {
        var link = "https://example.org/end"
        for _ in 0..<7 {
            link = "https://test.clearurls.xyz/void/index.html?url=" + PercentEncoding.encode(link)
        }
        let result = cleaned(link)
        #expect(result.steps.filter { $0.kind == .redirection }.count == LinkCleaner.maximumUnwraps)
        #expect(result.link.hasPrefix("https://test.clearurls.xyz/void/index.html?url="))
    }

    /// A raw rule may not change where the link goes.
    @Test func aRawRuleCannotChangeTheHost() {
        let provider = ClearURLsProvider(name: "hostile", urlPattern: ".*", rawRules: ["evil\\."])
        let file = ClearURLsRuleFile(source: "hostile.json", providers: [provider])
        #expect(cleaned("https://evil.example.org/x", files: [file]).link == "https://evil.example.org/x")
    }

    /// A pattern written to backtrack forever stops at PCRE2's match limit and counts as no
    /// match; an invalid one is warned about once and left out.
    @Test func hostilePatternsCostABoundedMatch() {
        var warnings: [String] = []
        let provider = ClearURLsProvider(name: "hostile", urlPattern: "^(a|a)*$", rules: ["(x+x+)+y", "(unclosed"])
        let file = ClearURLsRuleFile(
            source: "hostile.json",
            providers: [provider, ClearURLsProvider(name: "all", urlPattern: ".*", rules: ["(x+x+)+y", "(unclosed"])])
        let link = "https://example.org/" + String(repeating: "a", count: 5000) + "?" + String(repeating: "x", count: 5000) + "=1"
        let result = LinkCleaner(files: [file], removesReferralMarketing: false, warn: { warnings.append($0) }).clean(link)
        #expect(result.link == link)
        #expect(warnings.count == 1 && warnings[0].contains("(unclosed") == false && warnings[0].contains("hostile.json"))
    }

    @Test func aRulesFileIsReadLeniently() throws {
        let text =
            #"{"providers": {"a": {"rules": ["x"]}, "b": {"urlPattern": ".*", "rules": "x", "exceptions": [1, "y"]}, "b": {"urlPattern": "^https", "rules": ["z"]}}}"#
        let file = try ClearURLsRuleFile(parsing: Array(text.utf8), source: "user.json")
        #expect(file.providers == [ClearURLsProvider(name: "b", urlPattern: "^https", rules: ["z"])])
        #expect(file.warnings.count == 2)
        #expect(throws: CleaningError.self) { try ClearURLsRuleFile(parsing: Array("{}".utf8), source: "empty.json") }
        #expect(throws: CleaningError.self) { try ClearURLsRuleFile(parsing: Array("[".utf8), source: "broken.json") }
        #expect(throws: CleaningError.self) {
            try ClearURLsRuleFile(parsing: [UInt8](repeating: 32, count: ClearURLsRuleFile.maximumSize + 1), source: "big.json")
        }
    }

    /// The site name a pattern requires, which spares compiling the pattern for other links.
    @Test func aPatternOfTheUsualFormRequiresItsSiteName() {
        let prefix = #"^https?:\/\/(?:[a-z0-9-]+\.)*?"#
        #expect(HostNameInPattern.required(by: prefix + #"amazon(?:\.[a-z]{2,}){1,}"#) == Array("amazon".utf8))
        #expect(HostNameInPattern.required(by: prefix + #"msn\.com"#) == Array("msn.com".utf8))
        #expect(HostNameInPattern.required(by: prefix + #"Fls-NA\.amazon\/s"#) == Array("fls-na.amazon".utf8))
        // A quantifier makes the last character optional; an alternation outside groups, all of it.
        #expect(HostNameInPattern.required(by: prefix + "abc?d") == Array("ab".utf8))
        #expect(HostNameInPattern.required(by: prefix + "x{0}") == nil)
        #expect(HostNameInPattern.required(by: prefix + "google|.*") == nil)
        #expect(HostNameInPattern.required(by: prefix + "google(?:\\.com|\\.de)") == Array("google".utf8))
        #expect(HostNameInPattern.required(by: ".*") == nil)
        #expect(HostNameInPattern.occurs(Array("msn.com".utf8), in: "https://www.msn.com/"))
        #expect(!HostNameInPattern.occurs(Array("msn.com".utf8), in: "https://www.msn.co/"))
        #expect(!HostNameInPattern.occurs(Array("msn.com".utf8), in: "msn.co"))
        #expect(HostNameInPattern.required(by: "^https?:\\/\\/example") == nil)
    }

    /// Whatever the prefilter rules out, the pattern itself never matches: every bundled
    /// pattern against links of many sites, with and without the cleaner's shortcut.
    @Test func theShortcutNeverChangesWhatIsCleaned() throws {
        let hosts = [
            "www.amazon.de", "smile.amazon.co.uk", "www.google.com", "news.google.co.jp", "l.facebook.com", "m.youtube.com", "youtu.be",
            "twitter.com", "x.com", "www.msn.com", "example.org", "AMAZON.com", "xn--mnchen-3ya.de",
        ]
        for host in hosts {
            let link = "https://\(host)/a/ref=x?utm_source=1&tag=t&si=2&fbclid=3&url=https%3A%2F%2Fexample.org%2F"
            let href = try WebURL(parsing: link)
            for provider in Self.bundled.flatMap(\.providers) {
                guard let name = HostNameInPattern.required(by: provider.urlPattern) else { continue }
                let serialized = "https://" + href.host.serialized + "/"
                if !HostNameInPattern.occurs(name, in: serialized) {
                    #expect(
                        try RegularExpression(provider.urlPattern).matches(serialized, within: MatchBudget()) == false,
                        "\(provider.name) \(host)")
                }
            }
        }
    }
}
