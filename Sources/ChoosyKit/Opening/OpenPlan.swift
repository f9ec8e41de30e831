/// One request, decided and not yet done (doc/ARCHITECTURE.md, "The route of one request"):
/// `OpenPlanner` makes it, reading only; `ActionOpener` does it (asks the picker when the plan
/// says so, remembers, runs the hooks, launches); `open`, `url`, `handle`, `route`, `rule
/// test`, `why`, `--dry-run`, `--json` and `-v` all read it.
package struct OpenPlan: Sendable {
    /// How the type and action were found (SPEC §7.1).
    package enum Finding: Equatable, Sendable {
        /// As the request named them (`open TYPE ACTION`).
        case named
        /// A web link that a catalog link's pattern matched.
        case catalogLink(pattern: String)
        /// A web link no catalog link matches: the browser's.
        case webLink
        /// A `mailto:` or `geo:` link, read as its RFC says.
        case schemeAction(String)
        /// A link of another scheme, given whole to the apps that claim it (`SchemeHandlers`).
        case schemeHandlers(scheme: String, claim: SchemeHandlers.Claim)
        /// A local file, by its MIME type and how that was found, given to the apps of the type
        /// that claims it or to the desktop's handlers of it (`FileHandlers`).
        /// `mimeTypes`: the file's type, then those it is a kind of.
        case localFile(mimeTypes: [String], reason: String, claim: FileHandlers.Claim)
    }

    package var request: OpenRequest
    package var found: Finding
    package var type: AppType
    package var action: Action?
    /// The request's parameters, as a prepare hook left them once one ran.
    package var parameters: [String: String]
    /// The link's source (SPEC §9.4), when it was looked for and found.
    package var source: LinkSource?
    /// The desktop ID that source stands for (an app key named by `CHOOSY_SOURCE` is its entry's).
    package var sourceDesktopID: String?
    /// The site rule of the link, when one matched.
    package var rule: RuleStep?
    /// The choice among the apps of `type`; nil when the link goes to the browser before any
    /// app of the type is considered (a rule names a browser, `--app` does, …).
    package var choice: ChoiceStep?
    /// The way round through the browser type: for a web app, or for the link as it is.
    package var browser: BrowserStep?
    /// When the link went to the browser before the type's choice, with `why`: the apps of the
    /// type, and why none took it.
    package var typeOthers: [NotCandidate] = []
    /// The URL the app gets; nil for an app started with no action, or before a choice.
    package var url: String?
    /// The command line that runs (empty for `url`, and until a choice is made).
    package var argv: [String] = []
    /// The URL as the argv carries it (a container's `ext+container:` link).
    package var launchedURL: String?
    /// What doing it writes (nothing for `url`, `--no-remember`; `--dry-run` and `why` only say it).
    package var writes: [PlannedWrite] = []
    /// What is done before the browser is handed the link (doc/running.md): nil when no running
    /// option asks, or the app launched is no browser.
    package var handOver: HandOverStep?
    /// The app launched opens a private window (`--private`, or a site rule's).
    package var privateWindow = false

    /// The site rule of the link opens nothing (`rule add SITE --none`).
    package var opensNothing: Bool {
        if case .nothing = rule?.rule.target, rule?.applies == true { return true }
        return false
    }

    /// The step that waits for the user, when one does: the type's choice, then the browser's.
    package var pendingChoice: (step: ChoiceStep, isBrowser: Bool)? {
        if let choice, case .ask = choice.outcome { return (choice, false) }
        if let step = browser?.choice, case .ask = step.outcome { return (step, true) }
        return nil
    }

    /// The choice that launches: the browser's on the way round, else the type's.
    package var launched: InstalledApp? {
        (browser?.choice ?? choice)?.chosen
    }

    /// What decided the app that launches, and why; nil while a picker is to ask.
    package var decision: (by: Decider, reason: String)? {
        if let browser, let sentBy = browser.sentBy {
            if case .chosen(_, let by, _) = browser.choice.outcome, by == .picker { return (.picker, browser.why) }
            return (sentBy, browser.why)
        }
        guard let step = choice ?? browser?.choice, case .chosen(_, let by, let reason) = step.outcome else { return nil }
        return (by, reason)
    }

    /// What the plan decided, as `open --json` and `why` say it.
    package var result: OpenResult {
        let launched = launched
        var result = OpenResult(
            type: type.key, action: action?.key, app: launched?.key ?? "", url: url, argv: argv, desktopID: launched?.entry?.id)
        if let browser {
            if let webApp = browser.webApp {
                result.app = webApp.key
                result.via = OpenResult.Via(type: browser.choice.type.key, app: launched?.key ?? "")
            } else {
                (result.type, result.action) = (browser.choice.type.key, "browse")
            }
        }
        result.source = sourceDesktopID
        result.privateWindow = privateWindow
        if opensNothing { result.nothingByRule = rule?.rule.name }
        return result
    }
}

/// What decided the app (SPEC §7.1).
package enum Decider: String, Equatable, Sendable {
    /// `--app KEY`, this once.
    case app
    /// A site rule.
    case rule
    /// The type's default.
    case defaultApp = "default"
    /// The only app that can do it.
    case onlyApp = "only"
    /// The user, in the picker.
    case picker
    /// No picker could be shown: the link opens as it would without choosy.
    case fallback
    /// The link itself: no app of its type takes it, or the user keeps the type's links in the browser.
    case link
    /// `"running": "use"`: the one candidate that runs, or the one of them with a window on the
    /// current workspace (doc/running.md).
    case running
}

/// The choice among the installed apps of one type.
package struct ChoiceStep: Sendable {
    package enum Outcome: Sendable {
        case chosen(InstalledApp, by: Decider, reason: String)
        /// The picker is shown, for this reason.
        case ask(reason: String)

        package var asks: Bool {
            if case .ask = self { return true }
            return false
        }
    }

    package var type: AppType
    /// In the order the picker offers them, each with why it is one.
    package var candidates: [ChoiceCandidate]
    /// The browsers offered after the apps for the link as it is ("Firefox (web page)").
    package var webPage: [InstalledApp] = []
    /// Every other app of the type, with why it is not a candidate; only when explaining.
    package var others: [NotCandidate] = []
    package var outcome: Outcome
    /// The installed choices the picker stands for: what `seen` records.
    package var shown: [String] = []
    /// The default, marked in the picker (nil once forgotten).
    package var defaultApp: String?
    /// The picker's title.
    package var title: String
    /// Whether the picker offers *always* (and *always for SITE* with `site`).
    package var allowAlways: Bool
    /// What the picker shows beside its title, as `LinkForDisplay` shows it (SPEC §6.1): the
    /// link or file the choice is for, else what the action is given; made only for a picker.
    package var link: String? = nil
    /// The desktop IDs the user hid whole (every choice of the entry): the no-picker fallback
    /// does not take them either (SPEC §6.1).
    package var hiddenEntries: [String] = []

    package var chosen: InstalledApp? {
        if case .chosen(let app, _, _) = outcome { return app }
        return nil
    }
}

/// An installed choice that the picker offers, and why.
package struct ChoiceCandidate: Sendable {
    package var choice: InstalledApp
    /// The action, when the request has one.
    package var action: String?
    /// No installed app supports the action, so each is offered.
    package var noneSupports: Bool
    /// It runs, and a running option asked: the picker marks it (doc/running.md).
    package var running = false

    /// Why it is a candidate, in words (made only when asked: `why`).
    package var why: String {
        var why = choice.entry.map { "installed as \($0.id)" } ?? "a web app, opened in the browser"
        if let profile = choice.profile { why += ", profile \(profile.shownName)" }
        if let action {
            why += noneSupports ? "; no installed app supports \(action), so each is offered, opened as it is" : "; supports \(action)"
        }
        if let entry = choice.entry, !entry.list("OnlyShowIn").isEmpty || !entry.list("NotShowIn").isEmpty {
            why += "; OnlyShowIn/NotShowIn only hide it from menus"
        }
        if running { why += "; running" }
        return why
    }
}

/// What is done before a running browser is handed the link, and why (doc/running.md).
package struct HandOverStep: Sendable {
    package var action: RunningDecision.HandOver
    package var reason: String
}

/// An app of the type that is not a candidate, and why (SPEC §7.1).
package struct NotCandidate: Sendable {
    package var key: String
    package var name: String
    package var reason: NotCandidateReason
}

/// The site rule a web link falls under, and what it meant.
package struct RuleStep: Sendable {
    package var rule: SiteRule
    /// In words: `decides`, `asks`, or why it does not apply now.
    package var outcome: String
    /// Whether it decides (its app, or the picker for `--ask`).
    package var applies: Bool
}

/// The way round through the browser type (SPEC §3, §8.1).
package struct BrowserStep: Sendable {
    /// Why the browser opens it.
    package var why: String
    /// What sent the link itself there (a rule, `--app`, the link, the picker's web page, the
    /// fallback); nil for a web app's way round.
    package var sentBy: Decider?
    /// The web app it opens for; nil when the link itself goes to the browser.
    package var webApp: InstalledApp?
    /// What the browser is given: the link as it is, or the address a web app built.
    package var url: String
    package var choice: ChoiceStep
}

/// What doing a plan writes (the preferences of SPEC §6, a site rule of §9.2).
package enum PlannedWrite: Equatable, Sendable {
    /// The default was uninstalled: forgotten before the picker is shown.
    case forgetDefault(type: String)
    /// A choice from the picker: *always* makes it the default; the apps shown become `seen`.
    case choice(type: String, app: String, always: Bool, shown: [String])
    /// The browser, picked for a web link of the type: *always* keeps its links there.
    case browserForLinks(type: String, always: Bool, shown: [String])
    /// *Always for SITE*: a site rule.
    case rule(site: String, choice: String, privateWindow: Bool)
    /// *Always* for a local file's MIME type no app type claims: the desktop's default for it,
    /// in the user's `mimeapps.list`, as `xdg-mime default` writes it.
    case desktopDefault(mimeType: String, desktopID: String)
    /// One more pick of the choice, for `order_by_use` (SPEC §6.1).
    case useCount(type: String, choice: String)
}

/// What the user answered in a picker, fed back to the planner so that it completes the plan.
package struct PickedChoice: Equatable, Sendable {
    package var key: String
    package var always: Bool
    /// *Always for SITE*.
    package var site: String?
    /// One of the browsers offered for the web page.
    package var webPage: Bool
}

/// What doing learned that planning could not know: the picker's answers, a picker that could
/// not be shown, the parameters a prepare hook left.
package struct PlanAnswers: Sendable {
    package var typeChoice: PickedChoice?
    package var browserChoice: PickedChoice?
    /// No picker could be shown for the type's choice of a web link: the browser takes it.
    package var noPicker: String?
    package var parameters: [String: String]?
    /// The parameters the browser's prepare hook left, on the way round through the browser.
    package var browserParameters: [String: String]?

    package init() {}
}
