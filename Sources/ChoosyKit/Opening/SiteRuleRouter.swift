/// A web link that site rules apply to: from `handle` (any http(s) link) or from
/// `open browser browse url=…`.
struct WebLink: Sendable {
    /// As the user gave it; a browser gets it unchanged.
    let text: String
    let url: WebURL

    init(_ link: LinkOrigin) {
        (text, url) = (link.url, link.web)
    }

    /// The request's web link, if it has one; an http(s) `url=` a browser could not open is
    /// refused (exit 2), as `handle` refuses it.
    init?(_ request: OpenRequest, type: AppType, action: Action?) throws(ChoosyError) {
        if let link = request.link {
            self.init(link)
            return
        }
        let browsed = type.key == "browser" && action?.key == "browse" ? request.parameters.last { $0.0 == "url" }?.1 : nil
        guard let text = browsed, isWebURL(text) else { return nil }
        do {
            self.init(LinkOrigin(url: text, web: try WebURL(parsing: text)))
        } catch {
            throw .usage("'\(text.prefix(80))' is not a link a browser can open: \(error.reason)")
        }
    }
}

/// What the site rule of a link means for the open flow (doc/links-and-rules.md, "Site rules"): rules come
/// after `--app` and `--choose`, before catalog links and type defaults.
enum SiteRuleDecision {
    /// No rule, or one that cannot apply now (its app is gone, or takes no such link): the
    /// usual decision.
    case none
    /// `--ask`: the picker, as with `--choose`.
    case ask(SiteRule)
    /// `--none`: nothing opens.
    case nothing(SiteRule)
    /// An installed app of the link's own type takes the action.
    case app(SiteRule)
    /// An installed browser opens the original link unchanged.
    case browser(SiteRule)
}

/// Where links come from, for the rules that name a source: looked for only when a rule does.
struct LinkSources {
    /// The source of this command's link (found once).
    var source: () -> LinkSource?
    /// Whether a rule's `from` names a source.
    var names: (_ from: String, _ source: String) -> Bool
    /// The desktop ID a source stands for, as `--json` names it (SPEC §9.4).
    var desktopID: (_ source: String) -> String?

    /// Looks for the source of the plan's link, and names it by desktop ID.
    func find(into plan: inout OpenPlan) {
        plan.source = source()
        plan.sourceDesktopID = plan.source.flatMap { desktopID($0.id) }
    }
}

/// Finds the rule of a web link and says what it means, warning when its app is gone.
struct SiteRuleRouter {
    let apps: InstalledAppDirectory
    let rules: SiteRuleStore
    let sources: LinkSources
    let diagnostics: DiagnosticSink

    /// `type` and `installed`: the link's own type (a catalog link's, or the browser) and its
    /// installed apps, already limited to the link's `apps`. `from`: the source `rule test
    /// --from` names, instead of the one found. With the decision, the rule that matched and
    /// what became of it.
    func decide(_ link: WebLink, type: AppType, installed: [InstalledApp], options: OpenOptions, from given: String? = nil)
        throws(ChoosyError) -> (decision: SiteRuleDecision, step: RuleStep?)
    {
        guard options.app == nil, !options.choose else { return (.none, nil) }
        let candidates = rules.rules(for: link.url)
        // Finding the source reads /proc: only for rules that need it.
        let source = given ?? (candidates.haveSources ? sources.source()?.id : nil)
        guard let rule = candidates.match(link.url, from: source.map { source in { sources.names($0, source) } }) else {
            return (.none, nil)
        }
        func passed(_ why: String) -> (SiteRuleDecision, RuleStep?) {
            (.none, RuleStep(rule: rule, outcome: why + ": the usual decision applies", applies: false))
        }
        let key: String
        let profile: String?
        switch rule.target {
        case .ask:
            diagnostics.explain("the site rule '\(rule.name)' asks: the picker is shown")
            return (.ask(rule), RuleStep(rule: rule, outcome: "the picker is shown", applies: true))
        case .nothing:
            diagnostics.explain("the site rule '\(rule.name)' opens nothing for this link")
            return (.nothing(rule), RuleStep(rule: rule, outcome: "nothing opens (choosy again opens it)", applies: true))
        case .app(let app, let appProfile, _):
            (key, profile) = (app, appProfile)
        }
        let browser = type.key == "browser" ? type : try apps.appType("browser")
        let owner = type.app(key) != nil ? type : browser.app(key) != nil ? browser : nil
        guard let owner else {
            diagnostics.explain("the site rule '\(rule.name)' names \(key), which cannot take this link; deciding as usual")
            return passed("its app \(key) cannot take this link")
        }
        let ownerInstalled = owner.key == type.key ? installed : try apps.installedApps(of: owner)
        guard ownerInstalled.contains(where: { $0.app.key == key }) else {
            diagnostics.warning("the site rule '\(rule.name)' names \(key), which is not installed; deciding as usual")
            return passed("its app \(key) is not installed")
        }
        // A profile that is gone is an app that is gone (doc/profiles.md).
        if let profile, (try? apps.choice(key, profile: profile, in: owner)) == nil {
            diagnostics.warning(
                "the site rule '\(rule.name)' names the profile '\(singleLine(profile))' of \(key), which is gone; deciding as usual")
            return passed("the profile '\(singleLine(profile))' of \(key) is gone")
        }
        diagnostics.explain("the site rule '\(rule.name)' decides: \(rule.targetDescription)")
        let step = RuleStep(rule: rule, outcome: "opens", applies: true)
        return (owner.key == type.key ? .app(rule) : .browser(rule), step)
    }
}

extension LinkOrigin {
    /// Of `installed` (apps of `type`), those that may take the link; any browser may.
    func allowed(_ installed: [InstalledApp], type: AppType) -> [InstalledApp] {
        guard let apps, type.key != "browser" else { return installed }
        return installed.filter { apps.contains($0.app.key) }
    }
}

extension OpenOptions {
    /// The one place a rule's app reaches the open flow: as if `--app` were given, a profile
    /// as the app key `KEY@PROFILE` and a private window as `--private`
    /// (doc/profiles.md).
    mutating func apply(_ rule: SiteRule) {
        guard case .app(let key, let profile, let privateWindow) = rule.target else { return }
        app = ChoiceKey.make(app: key, profile: profile)
        self.privateWindow = self.privateWindow || privateWindow
    }
}
