import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// Rules for the links of one source (`--from`): which wins, and how rules.json holds them.
@Suite struct SourceRuleTests {
    static var names: SourceNames {
        SourceNames(
            apps: { [("slack", ["com.slack.Slack.desktop", "slack.desktop"]), ("thunderbird", ["thunderbird.desktop"])] },
            entryExists: { ["com.slack.Slack.desktop", "thunderbird.desktop", "org.gnome.Evolution.desktop"].contains($0) }
        )
    }

    static func rule(_ site: String, from: String?, _ app: String) throws -> SiteRule {
        SiteRule(site: site == "*" ? nil : try Site(parsing: site), target: .app(key: app, profile: nil, privateWindow: false), from: from)
    }

    /// The rules of doc/links-and-rules.md's example, in every order they could have been added.
    static let rules: [SiteRule] = [
        try! rule("*", from: "slack", "work"), try! rule("github.com", from: "com.slack.Slack.desktop", "slack-github"),
        try! rule("github.com", from: nil, "plain-github"), try! rule("=github.com", from: nil, "exact-github"),
        try! rule("*", from: "thunderbird.desktop", "mail"),
    ]

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard let first = items.first else { return [[]] }
        return permutations(Array(items.dropFirst())).flatMap { rest in
            (0...rest.count).map { index in
                var order = rest
                order.insert(first, at: index)
                return order
            }
        }
    }

    @Test func aRuleForTheSourceBeatsEveryOtherAndAmongThemTheMostSpecificSiteWinsInEveryOrder() throws {
        let orders = Self.permutations(Self.rules)
        #expect(orders.count == 120)
        for order in orders {
            let rules = SiteRules(order)
            let names = Self.names
            func winner(_ link: String, from source: String?) throws -> String? {
                guard
                    case .app(let key, _, _)? = rules.match(
                        try WebURL(parsing: link), from: source.map { source in { names.rule($0, names: source) } })?.target
                else { return nil }
                return key
            }
            #expect(
                try winner("https://github.com/x", from: "com.slack.Slack.desktop") == "slack-github", "a site beats * for the same source")
            #expect(try winner("https://example.org/", from: "slack.desktop") == "work", "the app key names every entry of the app")
            #expect(try winner("https://github.com/x", from: "slack") == "slack-github")
            #expect(
                try winner("https://github.com/x", from: "thunderbird.desktop") == "mail", "* from the source beats a site rule without one"
            )
            #expect(
                try winner("https://github.com/x", from: "org.gnome.Evolution.desktop") == "exact-github",
                "an unknown source: the ordinary rules")
            #expect(try winner("https://docs.github.com/x", from: nil) == "plain-github")
            #expect(try winner("https://example.org/", from: nil) == nil, "* needs its source")
            #expect(try winner("https://example.org/", from: "org.gnome.Evolution.desktop") == nil)
        }
    }

    @Test func aRuleIsReplacedAndRemovedForItsOwnSourceOnly() throws {
        var rules = SiteRules(Self.rules)
        rules.add(try Self.rule("github.com", from: nil, "firefox"))
        rules.add(try Self.rule("*", from: "slack", "chromium"))
        #expect(rules.rules.count == 5)
        #expect(rules.rule(for: try Site(parsing: "github.com"))?.targetDescription == "firefox")
        #expect(rules.rule(for: nil, from: "slack")?.targetDescription == "chromium")
        let removed = rules.remove(nil, from: "slack")
        let again = rules.remove(nil, from: "slack")
        let withoutSource = rules.remove(nil)
        #expect(removed && !again)
        #expect(!withoutSource, "no * without a source")
        #expect(rules.rule(for: try Site(parsing: "github.com"), from: "com.slack.Slack.desktop") != nil)
        #expect(rules.haveSources)
        #expect(!SiteRules([try Self.rule("github.com", from: nil, "firefox")]).haveSources)
    }

    @Test func rulesJSONHoldsTheSourceAndAFileWithoutOneIsAnySource() throws {
        let old = try JSONReader.parse(Array(#"{"version": 1, "rules": [{"site": "github.com", "app": "firefox", "later": [1]}]}"#.utf8))
        let read = try SiteRules(json: old)
        #expect(read.rules[0].from == nil && read.rules[0].siteText == "github.com")
        #expect(
            read.json.rendered() == #"{"version":1,"rules":[{"site":"github.com","app":"firefox","later":[1]}]}"#, "written back as it was")

        let new = SiteRules([try Self.rule("*", from: "slack", "firefox")])
        #expect(new.json.rendered() == #"{"version":1,"rules":[{"site":"*","from":"slack","app":"firefox"}]}"#)
        #expect(try SiteRules(json: new.json) == new)
    }

    @Test(arguments: [
        #"{"version": 1, "rules": [{"site": "*", "app": "firefox"}]}"#,
        #"{"version": 1, "rules": [{"site": "x.org", "from": "", "app": "firefox"}]}"#,
        #"{"version": 1, "rules": [{"site": "x.org", "from": 3, "app": "firefox"}]}"#,
    ])
    func aStarWithoutASourceOrAnEmptySourceIsNoRule(text: String) throws {
        #expect(throws: JSONError.self) { try SiteRules(json: try JSONReader.parse(Array(text.utf8))) }
    }

    @Test func aSourceIsStoredAsTheDesktopIDOrTheAppKeyItNames() {
        #expect(Self.names.canonical("com.slack.Slack") == "com.slack.Slack.desktop")
        #expect(Self.names.canonical("org.gnome.Evolution.desktop") == "org.gnome.Evolution.desktop")
        #expect(Self.names.canonical("slack") == "slack", "an app key")
        #expect(Self.names.canonical("slack.desktop") == "slack.desktop", "an uninstalled entry of a catalog app")
        for unknown in ["nothing", "", ".desktop", "../x", "a/b.desktop"] {
            #expect(Self.names.canonical(unknown) == nil, "\(unknown)")
        }
        let names = Self.names
        #expect(names.rule("slack", names: "com.slack.Slack") && names.rule("slack", names: "slack.desktop"))
        #expect(names.rule("com.slack.Slack.desktop", names: "slack") && names.rule("com.slack.Slack.desktop", names: "com.slack.Slack"))
        #expect(!names.rule("com.slack.Slack.desktop", names: "slack.desktop"), "one entry of an app is not another")
        #expect(!names.rule("thunderbird", names: "slack") && !names.rule("x.desktop", names: "y.desktop"))
        #expect(names.rule("x.desktop", names: "x"))

        var loaded = 0
        let counting = SourceNames(
            apps: {
                loaded += 1
                return []
            },
            entryExists: { _ in false }
        )
        #expect(counting.rule("a.desktop", names: "a.desktop") && !counting.rule("a.desktop", names: "b.desktop"))
        #expect(loaded == 0, "desktop IDs need no catalog")
        #expect(!counting.rule("slack", names: "b.desktop") && !counting.rule("slack", names: "b.desktop"))
        #expect(loaded == 1, "an app key loads it once")
    }
}
