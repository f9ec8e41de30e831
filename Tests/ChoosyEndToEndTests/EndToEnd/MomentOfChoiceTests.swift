import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The moment of choice with the real binary and recorder apps (SPEC §6.1, doc/configuration.md):
/// hidden and ordered choices, `order_by_use`, the history and `choosy again`, `handle` with no
/// link, and a site rule that opens nothing; for `handle`, `route` and `open`.
@Suite struct MomentOfChoiceTests {
    let sandbox = Sandbox()
    var configPath: String { sandbox.configHome + "/choosy/config.json" }
    var historyPath: String { sandbox.stateHome + "/choosy/history" }

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/https"])
        sandbox.installApp("org.kde.falkon.desktop", name: "Falkon", program: "falkon", mimeTypes: ["x-scheme-handler/https"])
    }

    func succeeds(_ arguments: String..., environment: [String: String] = [:]) -> Sandbox.Output {
        let output = sandbox.choosy(arguments, environment: environment)
        #expect(output.status == 0, "\(arguments): \(output.stderr)")
        return output
    }

    func history() throws -> [[String: Any]] {
        let output = sandbox.choosy("history", "--json")
        #expect(output.status == 0, "\(output.stderr)")
        return try #require((try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8))) as? [[String: Any]])
    }

    // MARK: Hide, pin, order

    @Test func aHiddenChoiceIsNeverOfferedButAppDefaultsAndRulesReachIt() throws {
        _ = succeeds("hide", "chromium")
        #expect(sandbox.read(configPath)?.contains("\"chromium\"") == true)
        let listed = succeeds("list", "browser").stdout
        #expect(listed.split(separator: "\n").contains { $0.contains("chromium") && $0.hasSuffix("(hidden)") }, "\(listed)")
        // handle, open and route: the picker leaves it out.
        _ = succeeds("handle", "https://example.org/1", environment: ["PICK": "Falkon"])
        _ = succeeds("open", "browser", "browse", "url=https://example.org/2", environment: ["PICK": "Falkon"])
        _ = succeeds(
            "route", "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org%2F3",
            environment: ["PICK": "Falkon"])
        #expect(sandbox.pickerInvocations.count == 3)
        for invocation in sandbox.pickerInvocations {
            #expect(invocation.lines == Sandbox.choiceLines("Firefox", "Falkon", site: "example.org"), "\(invocation.lines)")
        }
        #expect(sandbox.launched("falkon", count: 3).count == 3)
        // --app, a rule and the default still open it.
        _ = succeeds("handle", "https://example.org/4", "--app", "chromium")
        _ = succeeds("rule", "add", "example.net", "--app", "chromium")
        _ = succeeds("handle", "https://example.net/5")
        _ = succeeds("default", "browser", "chromium")
        _ = succeeds("handle", "https://example.com/6")
        #expect(
            sandbox.launched("chromium", count: 3) == [["https://example.org/4"], ["https://example.net/5"], ["https://example.com/6"]])
        // why names it, and unhide offers it again.
        _ = succeeds("reset", "browser")
        let why = succeeds("why", "https://example.org/7").stdout
        #expect(why.contains("chromium  Chromium  hidden by the user"), "\(why)")
        _ = succeeds("unhide", "chromium")
        _ = succeeds("handle", "https://example.org/8", environment: ["PICK": "Falkon"])
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", "Falkon", site: "example.org"))
    }

    /// `why` says what the picker would show beside its title, in text and JSON.
    @Test func whySaysTheLinkThePickerShows() throws {
        let text = succeeds("why", "https://xn--bcher-kva.example/a\u{1B}b").stdout
        #expect(text.contains("\nthe picker shows: https://bücher.example [xn--bcher-kva.example]/a%1Bb\n"), "\(text)")
        let json = try #require(Sandbox.jsonObject(succeeds("why", "https://example.org/x", "--json").stdout))
        #expect(json["picker_link"] as? String == "https://example.org/x", "\(json)")
        _ = succeeds("default", "browser", "firefox")
        let decided = try #require(Sandbox.jsonObject(succeeds("why", "https://example.org/x", "--json").stdout))
        #expect(decided["picker_link"] is NSNull)
    }

    @Test func hideTakesOnlyChoicesThatExist() {
        let unknown = sandbox.choosy("hide", "chromum")
        #expect(unknown.status == 3)
        #expect(unknown.stderrLines.count == 1 && unknown.stderr.contains("'chromum'"), "\(unknown.stderr)")
        #expect(!sandbox.exists(configPath))
        // A desktop ID is a choice too, with or without .desktop; hiding twice keeps one entry.
        _ = succeeds("hide", "org.kde.falkon.desktop")
        _ = succeeds("hide", "org.kde.falkon.desktop")
        #expect(sandbox.read(configPath)?.components(separatedBy: "org.kde.falkon.desktop").count == 2)
        _ = succeeds("handle", "https://example.org/", environment: ["PICK": "Firefox"])
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", site: "example.org"))
    }

    @Test func hideKeepsEveryOtherMemberOfTheConfigFileAndRefusesABrokenOne() {
        sandbox.write(configPath, "{\"picker\": \"rofi\", \"future\": [1, 2]}\n")
        _ = succeeds("hide", "falkon")
        let written = sandbox.read(configPath) ?? ""
        #expect(written.contains("\"picker\" : \"rofi\"") && written.contains("\"future\"") && written.contains("\"falkon\""), "\(written)")
        sandbox.write(configPath, "{\"hidden\": [\"falkon\",]\n")
        let broken = sandbox.choosy("hide", "chromium")
        #expect(broken.status == 7 && broken.stderrLines.last?.hasSuffix("fix it first; nothing was changed") == true, "\(broken.stderr)")
        #expect(sandbox.read(configPath) == "{\"hidden\": [\"falkon\",]\n")
    }

    @Test func theNoPickerFallbackSkipsHiddenChoices() {
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        sandbox.write(configPath, "{\"hidden\": [\"chromium\"]}\n")
        let output = sandbox.choosy(["handle", "https://example.org/"], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
        #expect(sandbox.recordedRuns("chromium").isEmpty)
    }

    @Test func orderPutsChoicesFirstAndOrderByUseTheRestByPicks() {
        sandbox.write(configPath, "{\"order\": [\"falkon\"], \"order_by_use\": true}\n")
        _ = succeeds("handle", "https://example.org/", "--no-remember", environment: ["PICK": "Falkon"])
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Falkon", "Firefox", "Chromium", always: false))
        // Two picks of Chromium put it before Firefox; with --no-remember nothing is counted.
        for _ in 0..<2 { _ = succeeds("handle", "https://example.org/", environment: ["PICK": "Chromium"]) }
        _ = succeeds("handle", "https://example.org/", environment: ["PICK": "Chromium"])
        let lines = sandbox.pickerInvocations.last?.lines ?? []
        #expect(lines.filter { !$0.contains("(") } == ["Falkon", "Chromium", "Firefox"], "\(lines)")
        let counts = sandbox.read(sandbox.stateHome + "/choosy/use-counts.json") ?? ""
        #expect(counts.contains("\"chromium\" : 3") && !counts.contains("falkon"), "\(counts)")
    }

    // MARK: History and again

    @Test func everyLinkIsKeptWithWhatBecameOfItAndAgainOpensIt() throws {
        _ = succeeds("handle", "https://example.org/opened", environment: ["PICK": "Firefox"])
        #expect(sandbox.choosy(["handle", "https://example.org/cancelled"], environment: ["PICK": ""]).status == 5)
        _ = succeeds(
            "route", "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org%2Froute",
            environment: ["PICK": "Falkon"])
        // Not kept: a dry run, a private window.
        _ = succeeds("handle", "https://example.org/dry", "--dry-run", "--app", "firefox")
        _ = succeeds("handle", "https://example.org/private", "--private", "--app", "firefox")
        let entries = try history()
        #expect(
            entries.map { $0["link"] as? String } == [
                "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org%2Froute",
                "https://example.org/cancelled", "https://example.org/opened",
            ])
        #expect(entries.map { $0["outcome"] as? String } == ["opened", "cancelled", "opened"])
        #expect(entries.map { $0["choice"] as? String } == ["falkon", nil, "firefox"])
        #expect(entries.map { $0["command"] as? String } == ["route", "handle", "handle"])
        #expect(entries.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
        let mode = try FileManager.default.attributesOfItem(atPath: historyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let text = succeeds("history", "2").stdout.split(separator: "\n")
        #expect(text.count == 2 && text[1].contains("cancelled") && text[1].hasSuffix("https://example.org/cancelled"), "\(text)")
        // again 2: the cancelled link, with the picker shown even though a default exists.
        _ = succeeds("default", "browser", "firefox")
        _ = succeeds("again", "2", environment: ["PICK": "Chromium"])
        #expect(sandbox.launched("chromium") == [["https://example.org/cancelled"]])
        #expect(try history().first?["link"] as? String == "https://example.org/cancelled")
        let none = sandbox.choosy("again", "9")
        #expect(none.status == 4 && none.stderr.contains("the history holds 4 links"), "\(none.stderr)")
        _ = succeeds("history", "--clear")
        #expect(!sandbox.exists(historyPath))
        #expect(sandbox.choosy("again").status == 4)
    }

    @Test func historyOffKeepsNothingAndRemovesTheFile() {
        _ = succeeds("handle", "https://example.org/", "--app", "firefox")
        #expect(sandbox.exists(historyPath))
        sandbox.write(configPath, "{\"history\": false}\n")
        _ = succeeds("handle", "https://example.org/", "--app", "firefox")
        #expect(!sandbox.exists(historyPath))
        #expect(succeeds("history").stdout == "")
    }

    @Test func aCorruptOrForeignHistoryNeverStopsALink() throws {
        sandbox.write(
            historyPath,
            "{\"time\": 1, \"command\": \"handle\", \"link\": \"https://a.example/\", \"outcome\": \"opened\"}\nnot json\n\u{1}\u{2}")
        _ = succeeds("handle", "https://example.org/1", "--app", "firefox")
        let entries = try history()
        #expect(entries.map { $0["link"] as? String } == ["https://example.org/1", "https://a.example/"])
        // A link in its place is never followed: it is moved aside.
        try FileManager.default.removeItem(atPath: historyPath)
        let elsewhere = sandbox.write(sandbox.root + "/elsewhere", "keep me\n")
        try FileManager.default.createSymbolicLink(atPath: historyPath, withDestinationPath: elsewhere)
        _ = succeeds("handle", "https://example.org/2", "--app", "firefox")
        #expect(sandbox.read(elsewhere) == "keep me\n")
        #expect(sandbox.launched("firefox", count: 2).count == 2)
        #expect(try history().map { $0["link"] as? String } == ["https://example.org/2"])
    }

    /// 200 `handle` at once: the newest 100 lines stay, each whole, the file 0600.
    @Test(.timeLimit(.minutes(5))) func twoHundredParallelHandlesKeepTheLastHundredWholeLines() throws {
        let count = 200
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let output = sandbox.choosy("handle", "https://example.org/\(index)", "--app", "firefox")
            #expect(output.status == 0, "\(output.stderr)")
        }
        let text = try #require(sandbox.read(historyPath))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "" && lines.count == 101)
        var links = Set<String>()
        for line in lines.dropLast() {
            let object = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], "\(line)")
            links.insert(try #require(object["link"] as? String))
        }
        #expect(links.count == 100)
        let mode = try FileManager.default.attributesOfItem(atPath: historyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(sandbox.launched("firefox", count: count).count == count)
    }

    // MARK: No link

    @Test func handleWithNoLinkStartsTheBrowserAsItWould() {
        _ = succeeds("handle", environment: ["PICK": "Falkon"])
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched("falkon") == [[]])
        _ = succeeds("default", "browser", "chromium")
        _ = succeeds("handle")
        #expect(sandbox.launched("chromium") == [[]])
        // With no picker and no default, the handler of https: links starts.
        _ = succeeds("reset", "browser")
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=firefox.desktop;\n")
        let output = sandbox.choosy(["handle"], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("the browser opened with Firefox"), "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[]])
    }

    /// choosy's own desktop entry, started by GIO with no URL (`gio launch`, as the desktop's
    /// "web browser" key does): `%u` expands to nothing, and the browser starts.
    @Test func itsDesktopEntryLaunchedWithNoURLStartsTheBrowser() throws {
        try #require(access("/usr/bin/gio", X_OK) == 0, "make test installs libglib2.0-bin")
        _ = succeeds("install", "--default-handler")
        _ = succeeds("default", "browser", "falkon")
        let launched = sandbox.run(["gio", "launch", sandbox.dataHome + "/applications/choosy.desktop"])
        #expect(launched.status == 0, "\(launched.stderr)")
        #expect(sandbox.launched("falkon") == [[]])
        #expect(sandbox.pickerInvocations.isEmpty)
    }

    // MARK: A rule that opens nothing

    @Test func aNoneRuleOpensNothingSaysSoAndAgainOpensIt() throws {
        _ = succeeds("default", "browser", "firefox")
        _ = succeeds("rule", "add", "tracker.example", "--none")
        #expect(succeeds("rule", "list").stdout == "tracker.example  nothing\n")
        let output = sandbox.choosy("handle", "https://ads.tracker.example/x")
        #expect(output.status == 0)
        #expect(
            output.stderrLines == [
                "choosy: the site rule 'tracker.example' opens nothing for https://ads.tracker.example/x; 'choosy again' opens it"
            ])
        #expect(try history().first?["outcome"] as? String == "none")
        let why = succeeds("why", "https://ads.tracker.example/x").stdout
        #expect(why.contains("nothing opens"), "\(why)")
        _ = succeeds("again", environment: ["PICK": "Chromium"])
        #expect(sandbox.launched("chromium") == [["https://ads.tracker.example/x"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
        // Every link from one source.
        _ = succeeds("rule", "add", "*", "--from", "org.kde.falkon.desktop", "--none")
        let fromFalkon = sandbox.choosy(["handle", "https://example.org/"], environment: ["CHOOSY_SOURCE": "org.kde.falkon.desktop"])
        #expect(fromFalkon.status == 0 && fromFalkon.stderr.contains("opens nothing"), "\(fromFalkon.stderr)")
        #expect(sandbox.recordedRuns("firefox").isEmpty)
        #expect(sandbox.choosy("rule", "add", "x.example", "--none", "--app", "firefox").status == 2)
    }
}
