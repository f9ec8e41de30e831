import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Cleaning the links `handle`, `open` and `rule test` route (doc/links-and-rules.md, "Cleaning
/// the links choosy opens"), with the real binary laid out as an installation and a recorder
/// browser: `clean_links` in the config, `--clean` and `--no-clean`.
@Suite struct CleanLinksEndToEndTests {
    let sandbox = Sandbox()
    let choosy: String

    /// Tracking links as the services hand them out, each with the link the ClearURLs add-on
    /// (and choosy's own rules, for Outlook) leaves of it.
    static let trackingLinks: [(given: String, cleaned: String)] = [
        (
            "https://www.google.com/url?sa=t&rct=j&q=&esrc=s&source=web&cd=&ved=2ahUKEwi&url=https%3A%2F%2Fexample.org%2Fpage%3Futm_source%3Dgoogle&usg=AOvVaw1",
            "https://example.org/page"
        ),
        ("https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2Fshop%3Ffbclid%3DIwAR3x&h=AT0abc", "https://example.org/shop"),
        (
            "https://www.amazon.com/Example-Product/dp/B08N5WRWNW/ref=sr_1_1?crid=2M1&keywords=example&qid=1700000000&sprefix=exa%2Caps%2C150&sr=8-1",
            "https://www.amazon.com/Example-Product/dp/B08N5WRWNW"
        ),
        ("https://youtu.be/dQw4w9WgXcQ?si=AbCdEfGhIjKl", "https://youtu.be/dQw4w9WgXcQ"),
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ&si=AbCdEfGhIjKl&feature=share", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Freport&data=05%7C01%7Cx&sdata=abc%3D&reserved=0",
            "https://example.org/report"
        ),
        ("https://example.com/page?utm_source=news&utm_medium=email&id=5&fbclid=abc&gclid=xyz#top", "https://example.com/page?id=5#top"),
    ]

    init() {
        choosy = sandbox.installedChoosy()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    private func run(_ arguments: String..., environment: [String: String] = [:]) -> Sandbox.Output {
        sandbox.choosy(arguments, environment: environment, binary: choosy)
    }

    /// The browser's runs for the tracking links, sorted: each launch is detached and records
    /// itself when it runs, so two launches one after the other can record in either order.
    private func launchedInAnyOrder() -> [[String]] {
        sandbox.launched("firefox", count: Self.trackingLinks.count).sorted(by: Self.argvOrder)
    }

    private static func argvOrder(_ a: [String], _ b: [String]) -> Bool { a.lexicographicallyPrecedes(b) }

    private func cleanLinksInTheConfig(_ on: Bool = true) {
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"clean_links": \#(on)}"#)
    }

    @Test func withCleanLinksOnHandleOpensEachCleanedLink() {
        cleanLinksInTheConfig()
        for link in Self.trackingLinks {
            let output = run("handle", link.given)
            #expect(output.status == 0 && output.stderr == "", "\(link.given): \(output.stderr)")
        }
        #expect(launchedInAnyOrder() == Self.trackingLinks.map { [$0.cleaned] }.sorted(by: Self.argvOrder))
    }

    /// Twitter's `t=` and `s=`: the link goes to the Twitter type (its web app, in the browser), cleaned.
    @Test func aTwitterLinkIsCleanedBeforeItIsReadAsATweet() {
        cleanLinksInTheConfig()
        #expect(run("handle", "https://twitter.com/jack/status/20?t=AbCdEf&s=19").status == 0)
        let launched = sandbox.launched("firefox").first?.first ?? ""
        #expect(launched.contains("/jack/status/20") && !launched.contains("t=AbCdEf") && !launched.contains("s=19"), "\(launched)")
    }

    @Test func withCleanLinksOffTheLinkIsUnchanged() {
        cleanLinksInTheConfig(false)
        for link in Self.trackingLinks { #expect(run("handle", link.given).status == 0) }
        #expect(launchedInAnyOrder() == Self.trackingLinks.map { [$0.given] }.sorted(by: Self.argvOrder))
    }

    @Test func noCleanBeatsTheConfigAndCleanTheDefault() {
        cleanLinksInTheConfig()
        let link = Self.trackingLinks[6]
        #expect(run("handle", link.given, "--no-clean").status == 0)
        // The last of the two given wins.
        #expect(run("handle", "--no-clean", link.given, "--clean").status == 0)
        sandbox.write(sandbox.configHome + "/choosy/config.json", "{}")
        #expect(run("handle", link.given, "--clean").status == 0)
        #expect(sandbox.launched("firefox", count: 3) == [[link.given], [link.cleaned], [link.cleaned]])
    }

    @Test func verboseSaysWhatWasRemoved() {
        let output = run("-v", "handle", "--clean", Self.trackingLinks[1].given)
        #expect(output.status == 0)
        #expect(output.stderrLines.contains("choosy: cleaned the link: facebook: unwrapped the link it redirects to"), "\(output.stderr)")
        #expect(output.stderrLines.contains("choosy: cleaned the link: globalRules: removed fbclid"), "\(output.stderr)")
        #expect(output.stderr.contains("/share/choosy/clean/data.min.json (205 providers)"))
    }

    /// The add-on would block the site: the link opens as it was given, and -v says why.
    @Test func aBlockedSitesLinkOpensAsItWas() {
        let link = "https://test.clearurls.xyz/void/block.svg?utm_source=x"
        let output = run("-v", "handle", "--clean", link)
        #expect(output.status == 0)
        #expect(
            output.stderrLines.contains("choosy: the rules of ClearURLsTestBlock2 block this site: the link is left as it is"),
            "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[link]])
    }

    /// Off costs nothing: no rules file is read (a broken one of the user's says nothing) and
    /// PCRE2 is never loaded (the dynamic loader's own log says what it loads).
    @Test func offReadsNoRulesAndLoadsNoLibrary() {
        sandbox.write(sandbox.configHome + "/choosy/clean/broken.json", "{")
        let off = run("-v", "handle", Self.trackingLinks[6].given, environment: ["LD_DEBUG": "libs"])
        #expect(off.status == 0)
        #expect(!off.stderr.contains("libpcre2-8") && !off.stderr.contains("broken.json") && !off.stderr.contains("cleaning rules"))
        let on = run("-v", "handle", "--clean", Self.trackingLinks[6].given, environment: ["LD_DEBUG": "libs"])
        #expect(on.status == 0)
        #expect(on.stderr.contains("libpcre2-8") && on.stderr.contains("broken.json"))
    }

    @Test func siteRulesSeeTheCleanedLink() {
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        #expect(run("rule", "add", "example.org", "--app", "chromium").status == 0)
        cleanLinksInTheConfig()
        #expect(run("handle", Self.trackingLinks[0].given).status == 0)
        #expect(sandbox.launched("chromium") == [["https://example.org/page"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    /// A Zoom link inside Outlook Safe Links is a Zoom link once unwrapped: the Zoom app takes it.
    @Test func catalogLinksSeeTheCleanedLink() {
        sandbox.installApp("Zoom.desktop", name: "Zoom", program: "zoom", mimeTypes: ["x-scheme-handler/zoommtg"])
        #expect(run("default", "video_call", "zoom").status == 0)
        let wrapped =
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fus06web.zoom.us%2Fj%2F123456789%3Fpwd%3Dsecret&data=05%7C02&reserved=0"
        let output = run("handle", "--clean", wrapped)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("zoom").first?.first?.hasPrefix("zoommtg://") == true)
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    /// A wrapped link whose target decodes to a terminal escape (OSC 52 sets the clipboard): a
    /// target that holds a control character is no link to open, so it is not unwrapped;
    /// nothing choosy prints holds a raw control byte, and the link opens (issue 39).
    static let escapeLink = "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%1B]52;c;aGVsbG8=%07&sa=D"

    private func holdsRawCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && DisplayText.isEscaped($0) }
    }

    @Test func aLinkWrappingAnEscapeSequencePrintsNoRawByteAndOpens() {
        let link = Self.escapeLink
        for arguments in [
            ["clean", link], ["clean", link, "--explain"], ["clean", link, "--json"], ["-v", "clean", link, "--explain"],
            ["-v", "handle", "--clean", "--dry-run", link], ["handle", "--clean", "--dry-run", "--json", link],
        ] {
            let output = sandbox.choosy(arguments, binary: choosy)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(
                !holdsRawCharacter(output.stdout) && !holdsRawCharacter(output.rawStderr), "\(arguments): \(output.stdout)\(output.stderr)")
        }
        #expect(run("clean", link).stdout == "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%1B]52;c;aGVsbG8=%07\n")
        let opened = run("-v", "handle", "--clean", link)
        #expect(opened.status == 0 && !holdsRawCharacter(opened.rawStderr), "\(opened.stderr)")
        #expect(sandbox.launched("firefox") == [["https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%1B]52;c;aGVsbG8=%07"]])
    }

    /// The same link, with a picker to choose among two browsers: what the picker is handed
    /// holds nothing raw either.
    @Test func aLinkWrappingAnEscapeSequenceReachesNoPickerRaw() {
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        let output = run(
            "handle", "--clean", "--choose", Self.escapeLink, environment: ["CHOOSY_PICKER": sandbox.pickerScript(), "PICK": "Chromium"])
        #expect(output.status == 0, "\(output.stderr)")
        let shown = sandbox.pickerInvocations
        #expect(shown.count == 1 && !shown.flatMap { [$0.title] + $0.lines }.contains(where: holdsRawCharacter), "\(shown)")
        #expect(sandbox.launched("chromium") == [["https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F%1B]52;c;aGVsbG8=%07"]])
    }

    /// Rules written to backtrack at every start position of a link, 2 MB of them (issue 39:
    /// 37 to 47 s a link): cleaning a link stops at its budget (95 ms of CPU time), and the
    /// link opens as it was, with one warning. The bound here only catches a hang.
    @Test func aRulesFileOfSlowPatternsCostsItsBudgetAndNoMore() {
        var providers: [String] = []
        var size = 0
        while size < 1_900_000 {
            // PCRE2 cannot tell from the link that it fails (no character it requires is
            // missing), and each pattern is another text, so each is compiled and tried.
            let provider = #""slow\#(providers.count)":{"urlPattern":"(?:.*){8}[&=]{9,\#(providers.count + 9)}"}"#
            providers.append(provider)
            size += provider.utf8.count + 1
        }
        sandbox.write(sandbox.configHome + "/choosy/clean/slow.json", #"{"providers":{"# + providers.joined(separator: ",") + "}}")
        let link = Self.trackingLinks[6].given
        for _ in 0..<2 {
            let started = Date()
            let output = sandbox.choosy(["handle", "--clean", link], timeout: 30, binary: choosy)
            #expect(Date().timeIntervalSince(started) < 15)
            #expect(output.status == 0)
            #expect(output.stderrLines.count == 1 && output.stderr.contains("took more than 95 ms"), "\(output.stderr)")
        }
        #expect(sandbox.launched("firefox", count: 2) == [[link], [link]])
    }

    /// `CHOOSY_CLEAN_TIME_LIMIT` sets the budget (for valgrind, which runs choosy fifty times
    /// slower); a value that is no number of seconds is warned about and the default stands.
    @Test func theBudgetCanBeSetForASlowerRun() {
        let link = Self.trackingLinks[6]
        let none = run("handle", "--clean", link.given, environment: ["CHOOSY_CLEAN_TIME_LIMIT": "1e-9"])
        #expect(none.status == 0 && none.stderr.contains("took more than 1 ms"), "\(none.stderr)")
        let odd = run("handle", "--clean", link.given, environment: ["CHOOSY_CLEAN_TIME_LIMIT": "soon"])
        #expect(
            odd.status == 0 && odd.stderrLines == ["choosy: warning: ignoring CHOOSY_CLEAN_TIME_LIMIT='soon': expected a number of seconds"]
        )
        #expect(sandbox.launched("firefox", count: 2) == [[link.given], [link.cleaned]])
    }

    @Test func openCleansItsLinkParameters() {
        let output = run("open", "browser", "browse", "url=https://example.com/a?utm_campaign=x&b=1", "--clean")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.com/a?b=1"]])
    }

    @Test func ruleTestShowsWhatTheCleanedLinkWouldRun() {
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        #expect(run("rule", "add", "example.org", "--app", "chromium").status == 0)
        let link = Self.trackingLinks[1].given
        let cleaned = run("rule", "test", link, "--clean")
        #expect(cleaned.status == 0 && cleaned.stdout.hasPrefix("rule: example.org"), "\(cleaned.stdout)\(cleaned.stderr)")
        #expect(cleaned.stdout.contains("https://example.org/shop"))
        let plain = run("rule", "test", link)
        #expect(plain.stdout.hasPrefix("rule: none"))
        #expect(run("rule", "list", "--clean").status == 2)
        #expect(sandbox.recordedRuns("chromium").isEmpty)
    }
}
