import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `choosy open` end to end (doc/desktop.md, doc/choosy.1): the real binary, real desktop entries whose
/// programs record their argv, and a `CMD` picker script that logs what it was offered.
@Suite struct OpenFlowTests {
    let sandbox = Sandbox()
    static let browseTitle = "Browser: Browse to a URL with…"

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
    }

    private func installBrowsers(_ keys: String...) {
        for key in keys {
            switch key {
            case "firefox": sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
            case "chromium": sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
            case "falkon": sandbox.installApp("org.kde.falkon.desktop", name: "Falkon", program: "falkon")
            default: Issue.record("no browser \(key)")
            }
        }
    }

    /// `choosy open browser browse url=<url> <extra…>`, answering the picker with `pick`.
    @discardableResult
    private func browse(_ url: String, _ extra: String..., pick: String? = nil, environment: [String: String] = [:]) -> Sandbox.Output {
        var variables = environment
        if let pick { variables["PICK"] = pick }
        return sandbox.choosy(["open", "browser", "browse", "url=\(url)"] + extra, environment: variables)
    }

    private func defaultApp(_ type: String) -> String {
        sandbox.choosy("default", type).stdout
    }

    // MARK: Deciding

    @Test func twoAppsAndNoDefaultAskAndAlwaysRemembersTheDefault() {
        installBrowsers("firefox", "chromium")
        let first = browse("https://example.org/1", pick: "Chromium (always)")
        #expect(first.status == 0)
        #expect(first.stdout == "" && first.stderr == "")
        #expect(
            sandbox.pickerInvocations == [
                .init(title: OpenFlowTests.browseTitle, lines: Sandbox.choiceLines("Firefox", "Chromium", site: "example.org"))
            ])
        #expect(sandbox.launched("chromium") == [["https://example.org/1"]])
        #expect(defaultApp("browser") == "chromium\n")

        // The default now opens without asking.
        #expect(browse("https://example.org/2").status == 0)
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched("chromium", count: 2) == [["https://example.org/1"], ["https://example.org/2"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func aNewAppOfTheTypeAsksAgainWithTheDefaultFirst() {
        installBrowsers("firefox", "chromium")
        #expect(browse("https://example.org/1", pick: "Chromium (always)").status == 0)
        installBrowsers("falkon")

        // Just once: Falkon opens this link, Chromium stays the default.
        #expect(browse("https://example.org/2", pick: "Falkon").status == 0)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Chromium", "Firefox", "Falkon", site: "example.org"))
        #expect(sandbox.launched("falkon") == [["https://example.org/2"]])
        #expect(defaultApp("browser") == "chromium\n")

        // The new app has been shown: no picker until the apps change again.
        #expect(browse("https://example.org/3").status == 0)
        #expect(sandbox.pickerInvocations.count == 2)
        #expect(sandbox.launched("chromium", count: 2).last == ["https://example.org/3"])
    }

    @Test func removingTheDefaultForgetsItAndAsksAgain() {
        installBrowsers("firefox", "chromium", "falkon")
        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        sandbox.uninstallApp("chromium.desktop")

        let cancelled = browse("https://example.org/1")
        #expect(cancelled.status == 5)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Falkon", site: "example.org"))
        #expect(defaultApp("browser") == "")

        #expect(browse("https://example.org/2", pick: "Falkon (always)").status == 0)
        #expect(sandbox.launched("falkon") == [["https://example.org/2"]])
        #expect(defaultApp("browser") == "falkon\n")
    }

    @Test func aSingleAppOpensWithoutAskingUnlessChooseIsGiven() {
        installBrowsers("firefox")
        #expect(browse("https://example.org/1").status == 0)
        #expect(sandbox.pickerInvocations.isEmpty)
        #expect(sandbox.launched("firefox") == [["https://example.org/1"]])

        // The long press: the picker even for one app.
        #expect(browse("https://example.org/2", "--choose", pick: "Firefox (always)").status == 0)
        #expect(
            sandbox.pickerInvocations == [
                .init(title: OpenFlowTests.browseTitle, lines: Sandbox.choiceLines("Firefox", site: "example.org"))
            ])
        #expect(sandbox.launched("firefox", count: 2).last == ["https://example.org/2"])
        #expect(defaultApp("browser") == "firefox\n")
    }

    @Test func chooseKeepsTheDefaultUnlessAnotherIsPickedAlways() {
        installBrowsers("firefox", "chromium")
        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        let cancelled = browse("https://example.org/1", "--choose")
        #expect(cancelled.status == 5)
        // The default is offered first, and a cancel keeps it.
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Chromium", "Firefox", site: "example.org"))
        #expect(defaultApp("browser") == "chromium\n")
        #expect(browse("https://example.org/2", "--choose", pick: "Firefox").status == 0)
        #expect(defaultApp("browser") == "chromium\n")
        #expect(browse("https://example.org/3", "--choose", pick: "Firefox (always)").status == 0)
        #expect(defaultApp("browser") == "firefox\n")
        #expect(sandbox.launched("firefox", count: 2) == [["https://example.org/2"], ["https://example.org/3"]])
    }

    @Test func resetForgetsTheDefaultSoThePickerAsksAgain() {
        installBrowsers("firefox", "chromium")
        #expect(browse("https://example.org/1", pick: "Chromium (always)").status == 0)
        #expect(sandbox.choosy("reset", "Browser").status == 0)
        #expect(defaultApp("browser") == "")
        #expect(browse("https://example.org/2", pick: "Firefox").status == 0)
        #expect(sandbox.pickerInvocations.count == 2)
        #expect(sandbox.launched("firefox") == [["https://example.org/2"]])

        // reset --all, then --choose: the picker shows even the one app left.
        sandbox.uninstallApp("chromium.desktop")
        #expect(sandbox.choosy("reset", "--all").status == 0)
        #expect(browse("https://example.org/3", "--choose", pick: "Firefox").status == 0)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", site: "example.org"))
    }

    @Test func theBrowserAMimeappsListMakesTheDefaultIsOfferedFirst() {
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.installApp(id, name: name, program: program, mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        }
        // Entries that merely list the scheme give no order: the catalog's stands.
        #expect(browse("https://example.org/1").status == 5)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", site: "example.org"))
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            "[Default Applications]\nx-scheme-handler/http=chromium.desktop;\nx-scheme-handler/https=chromium.desktop;\n")
        #expect(browse("https://example.org/2").status == 5)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Chromium", "Firefox", site: "example.org"))
    }

    @Test func appBypassesThePickerAndRemembersNothing() {
        installBrowsers("firefox", "chromium")
        #expect(browse("https://example.org/1", "--app", "firefox").status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.org/1"]])
        #expect(sandbox.pickerInvocations.isEmpty)
        #expect(sandbox.writtenFiles.filter { $0.contains("preferences") }.isEmpty)

        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        #expect(browse("https://example.org/2", "--app", "firefox").status == 0)
        #expect(sandbox.launched("firefox", count: 2).last == ["https://example.org/2"])
        #expect(defaultApp("browser") == "chromium\n")
        #expect(sandbox.pickerInvocations.isEmpty)
    }

    @Test(arguments: [
        ["PICK": ""],
        ["PICK": "Opera"],
        ["PICK": "Chromium", "PICK_STATUS": "1"],
    ])
    func aCancelledPickerExits5AndLaunchesNothing(answer: [String: String]) {
        installBrowsers("firefox", "chromium")
        let cancelled = browse("https://example.org/cancelled", environment: answer)
        #expect(cancelled.status == 5)
        #expect(cancelled.stderrLines == ["choosy: cancelled: no app was chosen"])
        #expect(defaultApp("browser") == "")
        // A later launch is the only one.
        #expect(browse("https://example.org/later", "--app", "chromium").status == 0)
        #expect(sandbox.launched("chromium") == [["https://example.org/later"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func noRememberOffersNoAlwaysAndWritesNothing() {
        installBrowsers("firefox", "chromium")
        let opened = browse("https://example.org/1", "--no-remember", pick: "Chromium")
        #expect(opened.status == 0)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", always: false))
        #expect(sandbox.launched("chromium") == [["https://example.org/1"]])
        #expect(sandbox.writtenFiles.filter { !$0.hasSuffix("desktop-entries.cache") } == [])

        // "(always)" is not a line it offered: a cancel.
        #expect(browse("https://example.org/2", "--no-remember", pick: "Chromium (always)").status == 5)
        #expect(sandbox.writtenFiles.filter { !$0.hasSuffix("desktop-entries.cache") } == [])
    }

    @Test func dryRunLaunchesNothingAndWritesNothing() {
        installBrowsers("firefox", "chromium")
        let dry = browse("https://example.org/a b?c=d&e", "--dry-run", pick: "Chromium")
        #expect(dry.status == 0)
        #expect(dry.stdout == "chromium 'https://example.org/a b?c=d&e'\n")
        #expect(sandbox.pickerInvocations.count == 1)
        // Nothing can be remembered, so "(always)" is not offered.
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", always: false))
        #expect(sandbox.writtenFiles == [])
        #expect(defaultApp("browser") == "")

        #expect(browse("https://example.org/later", "--app", "chromium").status == 0)
        #expect(sandbox.launched("chromium") == [["https://example.org/later"]])
    }

    @Test func alwaysDisplayPickerAsksEveryTimeWithTheDefaultFirst() {
        installBrowsers("firefox", "chromium")
        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        let always = ["CHOOSY_ALWAYS_DISPLAY_PICKER": "1"]
        #expect(browse("https://example.org/1", pick: "Firefox", environment: always).status == 0)
        #expect(browse("https://example.org/2", pick: "Chromium", environment: always).status == 0)
        #expect(
            sandbox.pickerInvocations.map(\.lines) == [
                Sandbox.choiceLines("Chromium", "Firefox", site: "example.org"),
                Sandbox.choiceLines("Chromium", "Firefox", site: "example.org"),
            ])
        #expect(sandbox.launched("firefox") == [["https://example.org/1"]])
        #expect(sandbox.launched("chromium") == [["https://example.org/2"]])
        #expect(defaultApp("browser") == "chromium\n")
    }

    @Test func withoutAPickerAChoiceFailsWith5AndNamesTheCandidates() {
        installBrowsers("firefox", "chromium")
        // No CHOOSY_PICKER: auto, and there is no terminal and no display.
        let auto = browse("https://example.org/1", environment: ["CHOOSY_PICKER": ""])
        #expect(auto.status == 5)
        #expect(
            auto.stderrLines == [
                "choosy: no picker available to choose a Browser app (candidates: firefox, chromium): no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset; pass --app KEY or --picker"
            ])
        let tty = browse("https://example.org/1", "--picker", "tty")
        #expect(tty.status == 5)
        #expect(tty.stderrLines.count == 1 && tty.stderr.hasPrefix("choosy: the tty picker needs a terminal"))
        // No choice needed: no picker needed.
        #expect(browse("https://example.org/2", "--app", "firefox", environment: ["CHOOSY_PICKER": ""]).status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.org/2"]])
    }

    @Test func verboseExplainsEachDecision() {
        installBrowsers("firefox", "chromium")
        let first = browse("https://example.org/1", "-v", pick: "Chromium (always)")
        #expect(first.status == 0)
        #expect(first.stderrLines.allSatisfy { $0.hasPrefix("choosy: ") })
        for explanation in [
            "choosy: firefox: installed as firefox.desktop",
            "choosy: librewolf: not installed",
            "choosy: showing the picker: no default, and 2 apps can do it",
            "choosy: remembered chromium as the default for Browser",
            "choosy: started chromium.desktop: chromium https://example.org/1",
        ] {
            #expect(first.stderr.contains(explanation), "\(explanation)")
        }
        let second = sandbox.choosy("-v", "open", "browser", "browse", "url=https://example.org/2")
        #expect(second.stderr.contains("choosy: 'chromium' is the default and no new app appeared"))
        #expect(browse("https://example.org/3").stderr == "")
    }

    // MARK: Output and errors

    @Test func jsonIsTheObjectOfTheSpec() throws {
        installBrowsers("firefox")
        let native = browse("https://example.org/a b", "--json")
        #expect(native.status == 0)
        #expect(native.stdout.hasSuffix("}\n") && native.stdout.split(separator: "\n").count == 1)
        let object = try #require(Sandbox.jsonObject(native.stdout))
        #expect(Set(object.keys) == ["type", "action", "app", "url", "argv", "desktop_id"])
        #expect(object["type"] as? String == "browser")
        #expect(object["action"] as? String == "browse")
        #expect(object["app"] as? String == "firefox")
        #expect(object["url"] as? String == "https://example.org/a b")
        #expect(object["argv"] as? [String] == ["firefox", "https://example.org/a b"])
        #expect(object["desktop_id"] as? String == "firefox.desktop")

        // A web app: opened by the browser, which `via` names.
        let web = sandbox.choosy("open", "twitter", "show_profile", "profile_screenname=choosy app", "--json")
        #expect(web.status == 0)
        let webObject = try #require(Sandbox.jsonObject(web.stdout))
        #expect(Set(webObject.keys) == ["type", "action", "app", "url", "argv", "desktop_id", "via"])
        let url = "https://x.com/intent/user?screen_name=choosy%20app"
        #expect(webObject["type"] as? String == "twitter")
        #expect(webObject["action"] as? String == "show_profile")
        #expect(webObject["app"] as? String == "x_web")
        #expect(webObject["url"] as? String == url)
        #expect(webObject["argv"] as? [String] == ["firefox", url])
        #expect(webObject["desktop_id"] as? String == "firefox.desktop")
        let via = try #require(webObject["via"] as? [String: String])
        #expect(via == ["type": "browser", "app": "firefox"])
        #expect(sandbox.launched("firefox", count: 2) == [["https://example.org/a b"], [url]])

        // Without an action a native app just starts: no URL; `action` and `url` are null.
        let bare = sandbox.dryRunBesideWhy(["open", "browser", "--json", "--dry-run"])
        let bareObject = try #require(Sandbox.jsonObject(bare.stdout))
        #expect(bareObject["action"] is NSNull)
        #expect(bareObject["url"] is NSNull)
        #expect(bareObject["argv"] as? [String] == ["firefox"])
        // A web app opens its own address.
        let home = try #require(Sandbox.jsonObject(sandbox.dryRunBesideWhy(["open", "twitter", "--json", "--dry-run"]).stdout))
        #expect(home["url"] as? String == "https://x.com")

        // Script and inline-data URLs never reach an app, whoever asks.
        for url in ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", "vbscript:msgbox"] {
            let refused = sandbox.choosy("open", "browser", "browse", "url=\(url)")
            #expect(refused.status == 2)
            #expect(refused.stderrLines.count == 1)
        }
        #expect(sandbox.launched("firefox", count: 2).count == 2, "nothing more was launched")
    }

    /// A template that gets none of its parameters opens its bare form, and says so first.
    @Test func anActionWithoutTheParametersItNeedsSaysSo() {
        installBrowsers("firefox")
        let output = sandbox.choosy("open", "twitter", "show_profile")
        #expect(output.status == 0)
        #expect(
            output.stderrLines == [
                "choosy: warning: show_profile needs profile_screenname or user_id, and none was given: x_web opens https://x.com/intent/user as it is"
            ], "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://x.com/intent/user"]])
        let given = sandbox.choosy("url", "twitter", "show_profile", "profile_screenname=jack")
        #expect(given.stdout == "https://x.com/intent/user?screen_name=jack\n" && given.stderr.isEmpty, "\(given.stderr)")
    }

    /// A missing link is named, not shown as an empty one ("firefox opens  as it is").
    @Test func aBrowseWithoutALinkSaysWhatIsMissing() {
        installBrowsers("firefox")
        let output = sandbox.choosy("open", "browser", "browse")
        #expect(output.status == 0)
        #expect(
            output.stderrLines == ["choosy: warning: browse needs url, and none was given: firefox starts without one"], "\(output.stderr)")
    }

    /// What is missing for a type of web apps alone is a browser, not the web app.
    @Test func nothingInstalledForWebAppsAloneAsksForABrowser() {
        let twitter = sandbox.choosy("open", "twitter", "show_profile", "profile_screenname=jack")
        #expect(twitter.status == 4)
        #expect(twitter.stderrLines == ["choosy: nothing installed can open Twitter (install a browser, in which X (web) opens)"])
        let chat = sandbox.choosy("open", "chat")
        #expect(
            chat.stderrLines == [
                "choosy: nothing installed can open Chat (install one of: Telegram Desktop, Signal, ZapZap; or a browser, in which WhatsApp (web) opens)"
            ], "\(chat.stderr)")
    }

    @Test func errorsAreOneLineWithTheirExitStatus() {
        installBrowsers("firefox")
        sandbox.desktopEntry(
            "org.mozilla.Thunderbird.desktop", sandbox.application(name: "Thunderbird", exec: sandbox.root + "/missing/thunderbird %u"))
        let cases: [([String], Int32, String)] = [
            (["open"], 2, "choosy: open needs an app type, e.g. 'choosy open Browser browse url=https://example.org'"),
            (["open", "browser", "browse", "url"], 2, "choosy: 'url' is not a parameter: write KEY=VALUE"),
            (["open", "browser", "browse", "=x"], 2, "choosy: '=x' has an empty parameter key: write KEY=VALUE"),
            (["open", "browser", "--choos"], 2, "choosy: unknown option '--choos' (did you mean '--choose'?)"),
            (["opne", "browser"], 2, "choosy: unknown command 'opne' (did you mean 'open'?); see 'choosy help'"),
            (["open", "Twiter", "show_profile"], 3, "choosy: unknown app type 'Twiter' (did you mean 'Twitter'?)"),
            (["open", "twitter", "show_profil"], 3, "choosy: unknown action 'show_profil' for Twitter (did you mean 'show_profile'?)"),
            (["open", "twitter", "show_profile", "--app", "x_wb"], 3, "choosy: unknown app 'x_wb' for Twitter (did you mean 'x_web'?)"),
            (["open", "browser", "browse", "--app", "chromium"], 4, "choosy: Chromium (chromium) is not installed"),
            (["open", "torrent", "add_magnet", "magnet_uri=magnet:?xt=1"], 4, "choosy: nothing installed can open Torrent Clients"),
            (
                ["open", "twitter", "show_profile", "profile_screename=x"], 2,
                "choosy: no app of Twitter uses parameter 'profile_screename' (did you mean 'profile_screenname'?)"
            ),
            (
                ["open", "email", "compose", "to=ada@example.org", "--app", "thunderbird"], 6,
                "choosy: cannot launch org.mozilla.Thunderbird.desktop: cannot start '\(sandbox.root)/missing/thunderbird'"
            ),
        ]
        for (arguments, status, message) in cases {
            let output = sandbox.choosy(arguments)
            #expect(output.status == status, "\(arguments)")
            #expect(output.stderrLines.count == 1 && output.stderr.hasPrefix(message), "\(arguments): \(output.stderr)")
            #expect(output.stdout == "", "\(arguments)")
        }
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func parametersReachTheAppAsOneArgument() {
        installBrowsers("firefox")
        let url = "https://example.org/a b?q=x&y=\"z\" $(touch pwned) 'é'"
        #expect(browse(url).status == 0)
        #expect(sandbox.launched("firefox") == [[url]])
    }

    // MARK: A new user

    @Test func aNewUserOpensATwitterProfileWithOnlyABrowser() {
        installBrowsers("firefox")
        sandbox.overrides["CHOOSY_PICKER"] = ""
        let opened = sandbox.choosy("open", "Twitter", "show_profile", "profile_screenname=x")
        #expect(opened.status == 0)
        #expect(opened.stdout == "" && opened.stderr == "")
        #expect(sandbox.launched("firefox") == [["https://x.com/intent/user?screen_name=x"]])
        #expect(
            sandbox.choosy("url", "twitter", "Show Profile", "profile_screenname=x", "unused=1").stdout
                == "https://x.com/intent/user?screen_name=x\n")
    }

    @Test func aNewUserWithOnlyHOMESet() {
        installBrowsers("firefox", "chromium")
        // The XDG variables at their defaults (XDG_DATA_DIRS stays: the machine's own apps must not count).
        for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_DIRS"] {
            sandbox.overrides[name] = ""
        }
        sandbox.overrides["LANG"] = "en_US.UTF-8"
        let opened = sandbox.choosy(["open", "Twitter", "show_profile", "profile_screenname=x"], environment: ["PICK": "Firefox (always)"])
        #expect(opened.status == 0)
        // The address the web app built is no link of the user's: no *always for x.com*.
        #expect(sandbox.pickerInvocations.map(\.lines) == [Sandbox.choiceLines("Firefox", "Chromium")])
        #expect(sandbox.launched("firefox") == [["https://x.com/intent/user?screen_name=x"]])
        #expect(sandbox.exists(sandbox.home + "/.config/choosy/preferences.json"))
        #expect(defaultApp("browser") == "firefox\n")
    }

    @Test func theTitleReachesThePicker() {
        installBrowsers("firefox", "chromium")
        #expect(browse("https://example.org/1", "--title", "Open the docs with…", pick: "Firefox").status == 0)
        #expect(sandbox.pickerInvocations.map(\.title) == ["Open the docs with…"])
    }

    @Test func aCorruptConfigIsTheDefaultsAndCorruptPreferencesAreMovedAsideWhenWritten() throws {
        installBrowsers("firefox")
        sandbox.write(sandbox.configHome + "/choosy/config.json", "{not json")
        let opened = browse("https://example.org/1")
        #expect(opened.status == 0)
        #expect(
            opened.stderrLines.count == 1
                && opened.stderr.hasPrefix("choosy: warning: \(sandbox.configHome)/choosy/config.json is not valid ("))
        #expect(sandbox.read(sandbox.configHome + "/choosy/config.json") == "{not json")
        try FileManager.default.removeItem(atPath: sandbox.configHome + "/choosy/config.json")

        installBrowsers("firefox", "chromium")
        sandbox.write(sandbox.configHome + "/choosy/preferences.json", "{\"types\": [")
        let picked = browse("https://example.org/2", pick: "Firefox (always)")
        #expect(picked.status == 0)
        #expect(
            picked.stderrLines.count == 2
                && picked.stderrLines[0].hasPrefix("choosy: warning: \(sandbox.configHome)/choosy/preferences.json is corrupt (")
                && picked.stderrLines[1].hasPrefix(
                    "choosy: warning: \(sandbox.configHome)/choosy/preferences.json was corrupt: moved it to "),
            "\(picked.stderr)")
        #expect(sandbox.launched("firefox", count: 2) == [["https://example.org/1"], ["https://example.org/2"]])
        #expect(defaultApp("browser") == "firefox\n")
        let kept = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy").filter {
            $0.hasPrefix("preferences.json.corrupt-")
        }
        #expect(kept.count == 1)
        #expect(sandbox.read(sandbox.configHome + "/choosy/" + kept[0]) == "{\"types\": [")
    }

    @Test func withoutABrowserAWebAppIsNotInstalled() {
        let output = sandbox.choosy("open", "Twitter", "show_profile", "profile_screenname=x")
        #expect(output.status == 4)
        #expect(output.stderrLines.count == 1 && output.stderr.hasPrefix("choosy: nothing installed can open Twitter"))
    }
}
