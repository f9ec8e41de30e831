import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Site rules with the real binary (doc/links-and-rules.md, "Site rules"): `rule add|list|remove|test`, rules
/// deciding over type defaults and catalog links, the most specific one winning, `--ask`, a
/// rule whose app is gone, the picker's *always for SITE*, and a corrupt rules.json.
@Suite struct SiteRuleEndToEndTests {
    let sandbox = Sandbox()
    var rulesPath: String { sandbox.configHome + "/choosy/rules.json" }

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
    }

    func rule(_ arguments: String...) {
        let output = sandbox.choosy(["rule"] + arguments)
        #expect(output.status == 0 && output.stderr == "", "\(arguments): \(output.stderr)")
    }

    @Test func aRuleWinsOverTheTypeDefaultForItsSiteOnly() {
        rule("add", "example.org", "--app", "chromium")
        let handled = sandbox.choosy("handle", "https://www.example.org/a?b=1#c", "-v")
        #expect(handled.status == 0)
        #expect(handled.stderrLines.contains("choosy: the site rule 'example.org' decides: chromium"))
        #expect(sandbox.choosy("open", "browser", "browse", "url=https://example.org/").status == 0)
        #expect(sandbox.launched("chromium", count: 2) == [["https://www.example.org/a?b=1#c"], ["https://example.org/"]])
        #expect(sandbox.choosy("handle", "https://example.net/").status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.net/"]])
        #expect(sandbox.pickerInvocations.isEmpty)
    }

    /// `rule test --json`, as `--help` lists it: the rule, app and argv as one object.
    @Test func ruleTestJSONIsOneObject() throws {
        rule("add", "example.org", "--app", "chromium")
        let tested = sandbox.choosy("rule", "test", "https://www.example.org/a", "--json")
        #expect(tested.status == 0, "\(tested.stderr)")
        let object = try #require(Sandbox.jsonObject(tested.stdout))
        #expect((object["rule"] as? [String: Any])?["site"] as? String == "example.org")
        #expect(object["app"] as? String == "chromium")
        #expect(object["argv"] as? [String] == ["chromium", "https://www.example.org/a"])
        #expect(object["outcome"] as? String == "opens")
        let none = try #require(Sandbox.jsonObject(sandbox.choosy("rule", "test", "https://other.example/", "--json").stdout))
        #expect(none["rule"] is NSNull && none["app"] is NSNull && none["argv"] is NSNull)
    }

    @Test func hostsThatOnlyLookLikeTheSiteAreNotIt() {
        rule("add", "github.com", "--app", "chromium")
        for link in ["https://github.com@evil.example/", "https://github.com.evil.example/", "https://evil.example/?u=github.com"] {
            #expect(sandbox.choosy("handle", link).status == 0)
        }
        #expect(sandbox.launched("firefox", count: 3).count == 3)
        #expect(sandbox.recordedRuns("chromium").isEmpty)
    }

    /// Zoom is installed and takes Zoom links, but the rule sends them to the browser as they are.
    @Test func aRuleWinsOverCatalogLinks() {
        sandbox.installApp("Zoom.desktop", name: "Zoom", program: "zoom")
        let link = "https://us06web.zoom.us/j/123456789?pwd=secret"
        rule("add", "zoom.us", "--app", "chromium")
        #expect(sandbox.choosy("handle", link).status == 0)
        #expect(sandbox.launched("chromium") == [[link]])
        // A rule for the catalog type's own app takes the action with it.
        rule("add", "zoom.us", "--app", "zoom")
        #expect(sandbox.choosy("rule", "list").stdout == "zoom.us  zoom\n")
        #expect(sandbox.choosy("handle", link).status == 0)
        #expect(sandbox.launched("zoom").first?.first?.hasPrefix("zoommtg://") == true)
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func theMostSpecificRuleWins() {
        sandbox.installApp("org.kde.falkon.desktop", name: "Falkon", program: "falkon")
        rule("add", "github.com", "--app", "chromium")
        rule("add", "github.com/work-org", "--app", "falkon")
        rule("add", "=github.com", "--app", "firefox")
        for link in ["https://docs.github.com/x", "https://gist.github.com/work-org/y", "https://github.com/work-org/z"] {
            #expect(sandbox.choosy("handle", link).status == 0)
        }
        #expect(sandbox.launched("chromium") == [["https://docs.github.com/x"]])
        #expect(sandbox.launched("falkon") == [["https://gist.github.com/work-org/y"]])
        #expect(sandbox.launched("firefox") == [["https://github.com/work-org/z"]])
    }

    @Test func askShowsThePickerDespiteTheDefaultAndAppAndNoRuleComeFirst() {
        rule("add", "example.org", "--ask")
        let asked = sandbox.choosy(["handle", "https://example.org/"], environment: ["PICK": "Chromium"])
        #expect(asked.status == 0)
        #expect(sandbox.pickerInvocations.map(\.lines) == [Sandbox.choiceLines("Firefox", "Chromium", site: "example.org")])
        #expect(sandbox.launched("chromium") == [["https://example.org/"]])
        // --app comes before every rule.
        #expect(sandbox.choosy("handle", "https://example.org/2", "--app", "firefox").status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.org/2"]])
        #expect(sandbox.pickerInvocations.count == 1)
    }

    @Test func aRuleWhoseAppIsGoneIsKeptAndNamedEachTime() {
        rule("add", "example.org", "--app", "chromium")
        sandbox.uninstallApp("chromium.desktop")
        for _ in 0..<2 {
            let handled = sandbox.choosy("handle", "https://example.org/")
            #expect(handled.status == 0)
            #expect(
                handled.stderrLines == [
                    "choosy: warning: the site rule 'example.org' names chromium, which is not installed; deciding as usual"
                ])
        }
        #expect(sandbox.launched("firefox", count: 2).count == 2)
        #expect(sandbox.choosy("rule", "list").stdout == "example.org  chromium\n")
    }

    /// The third choice writes a rule for the registrable domain, and the type's default stays.
    @Test func alwaysForTheSiteWritesARule() {
        #expect(sandbox.choosy("reset", "browser").status == 0)
        let picked = sandbox.choosy(
            ["handle", "https://a.b.example.co.uk/x"], environment: ["PICK": "Chromium (always for example.co.uk)"])
        #expect(picked.status == 0 && picked.stderr == "")
        #expect(sandbox.choosy("rule", "list").stdout == "example.co.uk  chromium\n")
        #expect(sandbox.choosy("default", "browser").stdout == "")
        #expect(sandbox.choosy("handle", "https://www.example.co.uk/").status == 0)
        #expect(sandbox.launched("chromium", count: 2) == [["https://a.b.example.co.uk/x"], ["https://www.example.co.uk/"]])
        #expect(sandbox.pickerInvocations.count == 1)
        // A user's own site under a hosting platform's suffix is a site of its own.
        _ = sandbox.choosy(["handle", "https://alice.github.io/blog", "--no-remember"], environment: ["PICK": "Firefox"])
        _ = sandbox.choosy(["handle", "https://alice.github.io/blog"], environment: ["PICK": "Firefox"])
        #expect(
            sandbox.pickerInvocations.map(\.lines).suffix(2) == [
                Sandbox.choiceLines("Firefox", "Chromium", always: false),
                Sandbox.choiceLines("Firefox", "Chromium", site: "alice.github.io"),
            ])
    }

    @Test func aCorruptRulesFileDoesNotStopLinksButStopsRuleCommandsThatChangeIt() throws {
        let corrupt = "{\"version\": 1, \"rules\": [{\"site\": \"https://example.org\", \"app\": \"chromium\"}]}"
        sandbox.write(rulesPath, corrupt)
        let handled = sandbox.choosy("handle", "https://example.org/")
        #expect(handled.status == 0)
        #expect(
            handled.stderrLines.count == 1 && handled.stderr.hasPrefix("choosy: warning: \(rulesPath) is corrupt ("), "\(handled.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
        // Only a command that changes the file moves it: `rule list` after a click still sees it.
        #expect(sandbox.read(rulesPath) == corrupt)
        let listed = sandbox.choosy("rule", "list")
        #expect(listed.status == 0 && listed.stdout.isEmpty && listed.stderrLines.count == 1 && listed.stderr.contains("is corrupt"))
        #expect(sandbox.read(rulesPath) == corrupt)

        sandbox.write(rulesPath, "not json")
        let added = sandbox.choosy("rule", "add", "example.org", "--app", "chromium")
        #expect(added.status == 7)
        #expect(added.stderr.contains("was corrupt: moved it to \(rulesPath).corrupt-") && added.stderr.contains("nothing was changed"))
        #expect(!sandbox.exists(rulesPath))
        sandbox.write(rulesPath, "[]")
        #expect(sandbox.choosy("rule", "remove", "example.org").status == 7)
        // Each corrupt file is kept, even two in the same second.
        let aside = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy").filter {
            $0.hasPrefix("rules.json.corrupt-")
        }
        #expect(aside.count == 2, "\(aside)")
        #expect(sandbox.choosy("rule", "add", "example.org", "--app", "chromium").status == 0)
    }

    /// A catalog link that goes to the browser still honours `--app` and `--choose`, which come
    /// before rules; `--app` may name a browser for any link.
    @Test func appAndChooseComeBeforeRulesForLinksThatReachTheBrowser() {
        rule("add", "x.com", "--app", "chromium")
        #expect(sandbox.choosy("handle", "https://x.com/jack", "--app", "firefox").status == 0)
        #expect(sandbox.launched("firefox") == [["https://x.com/jack"]])
        #expect(sandbox.choosy("handle", "https://x.com/jack", "--app", "nonesuch").status == 3)
        #expect(sandbox.choosy(["handle", "https://x.com/jack", "--choose"], environment: ["PICK": "Firefox"]).status == 0)
        #expect(sandbox.pickerInvocations.last?.lines.first == "Firefox")
        #expect(sandbox.choosy("handle", "https://t.me/durov", "--app", "firefox").status == 0)
        #expect(sandbox.launched("firefox", count: 3).last == ["https://t.me/durov"])
        #expect(sandbox.recordedRuns("chromium").isEmpty)
    }

    /// The address a web app builds is no link of the user's: no *always for SITE* for it, and
    /// an http(s) `url=` a browser could not open is refused as `handle` refuses it.
    @Test func onlyTheUsersWebLinksHaveSites() {
        #expect(sandbox.choosy("reset", "browser").status == 0)
        let opened = sandbox.choosy(["open", "twitter", "show_profile", "profile_screenname=jack"], environment: ["PICK": "Firefox"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium"))
        let refused = sandbox.choosy("open", "browser", "browse", "url=https://exa mple.com/", "--dry-run")
        #expect(refused.status == 2 && refused.stderr.contains("is not a link a browser can open"), "\(refused.stderr)")
    }

    @Test func badSitesAppsAndUnknownRulesAreRefusedWithTheirStatus() {
        let jitsi = sandbox.choosy("rule", "add", "zoom.us", "--app", "jitsi_meet_desktop")
        #expect(
            jitsi.status == 3
                && jitsi.stderr.hasPrefix(
                    "choosy: Jitsi Meet (jitsi_meet_desktop) cannot take the links of zoom.us (apps that can: firefox, "),
            "\(jitsi.stderr)")
        let suffix = sandbox.choosy("rule", "add", "co.uk", "--app", "firefox")
        #expect(suffix.status == 2)
        #expect(
            suffix.stderrLines == [
                "choosy: 'co.uk' is a public suffix: a rule for it would cover every site under it; write the site itself, like 'example.co.uk'"
            ])
        #expect(sandbox.choosy("rule", "add", "github.io", "--app", "firefox").status == 2)
        for site in ["https://github.com", "", "git hub.com", "github.com:443"] {
            let output = sandbox.choosy("rule", "add", site, "--app", "firefox")
            #expect(
                output.status == 2 && output.stderrLines.count == 1 && output.stderr.hasPrefix("choosy: '\(site)' is not a site: "),
                "\(site)")
        }
        let unknown = sandbox.choosy("rule", "add", "example.org", "--app", "frefox")
        #expect(unknown.status == 3)
        #expect(
            unknown.stderrLines == [
                "choosy: unknown app 'frefox' for a rule of example.org: it must be an app of Browser (did you mean 'firefox'?)"
            ])
        let notInstalled = sandbox.choosy("rule", "add", "example.org", "--app", "vivaldi")
        #expect(notInstalled.status == 0)
        #expect(
            notInstalled.stderrLines == [
                "choosy: warning: Vivaldi (vivaldi) is not installed: the rule is kept, and links of example.org are decided as usual until it is"
            ])
        #expect(sandbox.choosy("rule", "add", "example.org", "--app", "firefox", "--profile", "-P").status == 2)
        #expect(sandbox.choosy("rule", "add", "example.org").status == 2)
        #expect(sandbox.choosy("rule", "add", "example.org", "--ask", "--app", "firefox").status == 2)
        let removed = sandbox.choosy("rule", "remove", "exmple.org")
        #expect(removed.status == 3)
        #expect(removed.stderrLines == ["choosy: no rule for 'exmple.org' (did you mean 'example.org'?); see 'choosy rule list'"])
        #expect(sandbox.choosy("rule", "remove", "Example.org.").status == 0)
        #expect(sandbox.choosy("rule", "list", "--json").stdout == "[]\n")
    }

    /// A site no followed link can have is refused (exit 2, one line) and nothing is
    /// written; DNS's longest label and name are still sites. (`*` alone is every link of a
    /// source, LinkSourceEndToEndTests.)
    @Test func sitesThatCanNeverMatchAreRefused() {
        let label63 = String(repeating: "a", count: 63)
        let tooLongHost = Array(repeating: label63, count: 4).joined(separator: ".") + ".org"
        let refused = [
            "*.example.com", "%2A.com", "*.com", "a*b.example.org", "xn--zz--.com",
            String(repeating: "a", count: 100_000) + ".com", label63 + "a.com", tooLongHost,
        ]
        for site in refused {
            let output = sandbox.choosy("rule", "add", site, "--app", "firefox")
            let quoted = site.count > 100 ? "'\(site.prefix(80))…' (\(site.count) characters)" : "'\(site)'"
            #expect(
                output.status == 2 && output.stderrLines.count == 1 && output.stderr.hasPrefix("choosy: \(quoted) is not a site: "),
                "\(site.prefix(80)): \(output.stderr.prefix(300))")
            #expect(output.stderr.utf8.count < 400)
        }
        #expect(!FileManager.default.fileExists(atPath: rulesPath))
        let longest = Array(repeating: label63, count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 61)
        #expect(longest.utf8.count == 253)
        rule("add", longest, "--app", "chromium")
        rule("add", label63 + ".example.org", "--app", "chromium")
        rule("add", "my_host.example.org", "--app", "chromium")
        #expect(sandbox.choosy("rule", "list").stdout.split(separator: "\n").count == 3)
    }

    @Test func ruleTestSaysWhichRuleAppAndArgvAndRunsNothing() {
        rule("add", "github.com", "--app", "chromium")
        rule("add", "example.org", "--ask")
        let before = sandbox.writtenFiles
        #expect(
            sandbox.choosy("rule", "test", "https://docs.github.com/x").stdout
                == "rule: github.com (chromium)\napp: chromium\nargv: chromium https://docs.github.com/x\n")
        #expect(sandbox.choosy("rule", "test", "https://example.org/").stdout == "rule: example.org (ask)\nthe picker is shown\n")
        #expect(sandbox.choosy("rule", "test", "https://example.net/").stdout == "rule: none\nno rule: the usual decision applies\n")
        #expect(sandbox.choosy("rule", "test", "mailto:ada@example.org").status == 2)
        #expect(sandbox.writtenFiles == before)
        #expect(sandbox.recordedRuns("chromium").isEmpty && sandbox.pickerInvocations.isEmpty)
        #expect(sandbox.choosy("__complete", "rule", "remove", "").stdout == "github.com\nexample.org\n")
    }
}
