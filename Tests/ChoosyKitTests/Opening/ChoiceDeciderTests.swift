import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The decision order of doc/desktop.md, rule by rule.
@Suite struct ChoiceDeciderTests {
    func decide(
        installed: [String] = ["firefox", "chromium"], candidates: [String]? = nil,
        default remembered: String? = nil, seen: [String]? = nil,
        app: String? = nil, choose: Bool = false, always: Bool = false
    ) -> ChoiceDecision {
        ChoiceDecider.decide(
            ChoiceSituation(
                installed: installed, candidates: candidates ?? installed,
                preference: TypePreference(defaultApp: remembered, seen: seen ?? installed),
                forcedApp: app, choose: choose, alwaysPicker: always
            ))
    }

    func isPick(_ decision: ChoiceDecision, _ keys: [String], forget: Bool) -> Bool {
        if case .pick(let candidates, let forgetDefault, _) = decision { return candidates == keys && forgetDefault == forget }
        return false
    }

    func launches(_ decision: ChoiceDecision, _ key: String) -> Bool {
        if case .launch(let app, _) = decision { return app == key }
        return false
    }

    /// doc/links-and-rules.md: beside a web link's browser, one app is a choice, not a decision.
    @Test func aSingleAppIsNotLaunchedWithoutAskingWhenTheWebPageIsOffered() {
        func situation(default remembered: String?) -> ChoiceSituation {
            ChoiceSituation(
                installed: ["mpv"], candidates: ["mpv"], preference: TypePreference(defaultApp: remembered, seen: ["mpv"]),
                offersWebPage: true)
        }
        #expect(isPick(ChoiceDecider.decide(situation(default: nil)), ["mpv"], forget: false))
        #expect(launches(ChoiceDecider.decide(situation(default: "mpv")), "mpv"))
        let browser = ChoiceDecider.preference(afterChoosingTheBrowser: true, installed: ["mpv"], TypePreference(defaultApp: "vlc"))
        #expect(browser == TypePreference(defaultApp: "vlc", seen: ["mpv"], linksInBrowser: true))
        #expect(
            ChoiceDecider.preference(afterChoosing: "mpv", always: true, installed: ["mpv"], browser)
                == TypePreference(defaultApp: "mpv", seen: ["mpv"]))
        #expect(ChoiceDecider.preference(afterChoosing: "mpv", always: false, installed: ["mpv"], browser) == browser)
    }

    @Test func appWinsOverEverything() {
        #expect(launches(decide(default: "firefox", app: "chromium", choose: true, always: true), "chromium"))
    }

    @Test func chooseKeepsTheDefaultAndPicksEvenWithOneApp() {
        #expect(isPick(decide(installed: ["firefox"], default: "firefox", choose: true), ["firefox"], forget: false))
        #expect(
            isPick(decide(installed: ["chromium", "firefox"], default: "firefox", choose: true), ["firefox", "chromium"], forget: false))
        #expect(isPick(decide(installed: ["firefox"], choose: true), ["firefox"], forget: false))
    }

    @Test func alwaysDisplayPickerPicksEveryTimeDefaultFirst() {
        #expect(isPick(decide(default: "chromium", always: true), ["chromium", "firefox"], forget: false))
        #expect(isPick(decide(installed: ["firefox"], always: true), ["firefox"], forget: false))
    }

    @Test func anInstalledDefaultWithNoNewAppLaunches() {
        #expect(launches(decide(default: "chromium"), "chromium"))
    }

    @Test func aRemovedDefaultIsForgottenAndThePickerShown() {
        #expect(isPick(decide(installed: ["firefox"], default: "chromium", seen: ["firefox", "chromium"]), ["firefox"], forget: true))
    }

    @Test func aNewAppShowsThePickerAgainDefaultFirst() {
        let decision = decide(installed: ["firefox", "chromium", "brave"], default: "chromium", seen: ["firefox", "chromium"])
        #expect(isPick(decision, ["chromium", "firefox", "brave"], forget: false))
    }

    @Test func aDefaultThatCannotDoTheActionIsKeptButNotUsed() {
        let decision = decide(installed: ["a", "b", "c"], candidates: ["b", "c"], default: "a")
        #expect(isPick(decision, ["b", "c"], forget: false))
    }

    @Test func withoutADefaultOneAppLaunchesAndMorePick() {
        #expect(launches(decide(installed: ["firefox"]), "firefox"))
        #expect(launches(decide(installed: ["a", "b"], candidates: ["b"]), "b"))
        #expect(isPick(decide(), ["firefox", "chromium"], forget: false))
    }

    @Test func nothingInstalled() {
        #expect(decide(installed: [], candidates: []) == .nothingInstalled)
    }

    @Test func profilesAreChoicesAndAPlainKeyStillLaunches() {
        let profiles = ["firefox@Work", "firefox@Home", "chromium"]
        func decide(_ remembered: String, installed: [String] = profiles, seen: [String] = profiles) -> ChoiceDecision {
            ChoiceDecider.decide(
                ChoiceSituation(
                    installed: installed, candidates: installed, preference: TypePreference(defaultApp: remembered, seen: seen),
                    unoffered: ["firefox"]
                ))
        }
        #expect(launches(decide("firefox@Work"), "firefox@Work"))
        // The app's own default profile is no choice offered, yet it is installed and launches.
        #expect(launches(decide("firefox"), "firefox"))
        // A new profile is a new app; a deleted one is forgotten like an uninstalled app.
        #expect(
            isPick(
                decide("firefox@Work", installed: profiles + ["firefox@Travel"]),
                ["firefox@Work", "firefox@Home", "chromium", "firefox@Travel"], forget: false))
        #expect(isPick(decide("firefox@Gone"), profiles, forget: true))
    }

    /// A plain-key default of an app offered per profile is offered first by `--choose`, the
    /// always-picker and the re-ask rule, though it is no choice of its own otherwise; not when
    /// its app cannot do what is asked.
    @Test func aPlainKeyDefaultIsOfferedFirstWhenThePickerIsShown() {
        let profiles = ["firefox", "chromium@Work", "chromium@Home"]
        func decide(candidates: [String] = profiles, seen: [String] = profiles, choose: Bool = false, always: Bool = false)
            -> ChoiceDecision
        {
            ChoiceDecider.decide(
                ChoiceSituation(
                    installed: profiles, candidates: candidates, preference: TypePreference(defaultApp: "chromium", seen: seen),
                    unoffered: ["chromium"], choose: choose, alwaysPicker: always
                ))
        }
        #expect(isPick(decide(choose: true), ["chromium"] + profiles, forget: false))
        #expect(isPick(decide(always: true), ["chromium"] + profiles, forget: false))
        #expect(isPick(decide(seen: ["firefox", "chromium@Work"]), ["chromium"] + profiles, forget: false))
        #expect(isPick(decide(candidates: ["firefox"], choose: true), ["firefox"], forget: false))
    }
}
