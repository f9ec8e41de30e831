extension Choosy {
    /// What `rule test URL` found: the rule, and what opening the link would run.
    package struct RuleTest: Sendable {
        package var rule: SiteRule?
        /// What the rule leads to, in words (`ask`, `not installed: deciding as usual`).
        package var outcome: String
        /// The dry run of the rule's app, when the rule decides the app.
        package var result: OpenResult?
    }

    /// `choosy rule add SITE …`: the rule written, and whether it replaced the site's rule.
    package func addRule(_ siteText: String, target given: SiteRule.Target) throws(ChoosyError) -> (rule: SiteRule, replaced: Bool) {
        var target = given
        let site = try parsedSite(siteText)
        let suffixes: PublicSuffixList
        do {
            suffixes = try PublicSuffixList.load()
        } catch {
            throw .unavailable("cannot check '\(site.text)' against the Public Suffix List: \(error.reason)")
        }
        if suffixes.isPublicSuffix(site.host) {
            throw .usage("'\(site.text)' is a public suffix: a rule for it would cover every site under it; write the site itself, like 'example.\(site.host.domainName ?? "")'")
        }
        if case .app(var key, var profile, let privateWindow) = target {
            // `--app firefox@Work` is `--app firefox --profile Work`.
            if profile == nil { (key, profile) = ChoiceKey.split(key) }
            if let profile, let problem = SiteRule.problem(withProfile: profile) {
                throw .usage("--profile '\(singleLine(profile))': \(problem)")
            }
            try checkRuleApp(key, profile: profile, privateWindow: privateWindow, for: site)
            target = .app(key: key, profile: profile, privateWindow: privateWindow)
        }
        let rule = SiteRule(site: site, target: target)
        var replaced = false
        try siteRules.modify(whenCorrupt: .refuse) { rules in
            replaced = rules.rule(for: site) != nil
            rules.add(rule)
        }
        return (rule, replaced)
    }

    /// `choosy rule list`, in the order the rules were added.
    package func listRules() throws(ChoosyError) -> [SiteRule] {
        siteRules.rules().rules
    }

    /// `choosy rule remove SITE`: the rule removed; a site without one is exit 3.
    package func removeRule(_ siteText: String) throws(ChoosyError) -> SiteRule {
        let site = try parsedSite(siteText)
        var removed: SiteRule?
        try siteRules.modify(whenCorrupt: .refuse) { rules throws(ChoosyError) in
            removed = rules.rule(for: site)
            // Nothing to remove: the file is left as it is.
            guard rules.remove(site) else {
                throw .unknown("no rule for '\(site.text)'" + didYouMean(site.text, among: rules.rules.map(\.site.text)) + "; see 'choosy rule list'")
            }
        }
        return removed!
    }

    /// `choosy rule test URL`: which rule a link falls under and what it would run; launches
    /// nothing and writes nothing.
    package func testRule(_ link: String) throws(ChoosyError) -> RuleTest {
        guard case .action(let action) = try LinkClassifier(catalogLinks: catalogLinks(for:), diagnostics: diagnostics).classify(link),
              let origin = action.link else {
            throw .usage("rule test needs an http(s) link, like 'https://example.org/'")
        }
        let parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var options = OpenOptions()
        options.dryRun = true
        let request = OpenRequest(type: action.type, action: action.action, parameters: parameters, options: options, link: origin)
        let type = try appType(action.type)
        guard let web = try WebLink(request, type: type, action: type.knownAction(action.action)) else {
            throw .usage("rule test needs an http(s) link, like 'https://example.org/'")
        }
        guard let rule = siteRules.rules().match(web.url) else {
            return RuleTest(rule: nil, outcome: "no rule: the usual decision applies", result: nil)
        }
        let opener = try actionOpener()
        let installed = origin.allowed(try installedApps(of: type), type: type)
        switch try opener.siteRuleRouter().decide(web, type: type, installed: installed, options: options) {
        case .none:
            return RuleTest(rule: rule, outcome: "its app is not installed or cannot take this link: the usual decision applies", result: nil)
        case .ask:
            return RuleTest(rule: rule, outcome: "the picker is shown", result: nil)
        case .app, .browser:
            return RuleTest(rule: rule, outcome: "opens", result: try opener.open(request))
        }
    }

    private func parsedSite(_ text: String) throws(ChoosyError) -> Site {
        do {
            return try Site(parsing: text)
        } catch {
            throw .usage("'\(singleLine(text))' is not a site: \(error.reason) (write it like example.org, =www.example.org or github.com/work-org)")
        }
    }

    /// A rule's app is a browser, or an app that may take the site's catalog links (README,
    /// "Site rules"); it need not be installed. When it is, its profile must exist and, for
    /// `--private`, it must open private windows (exit 3 otherwise).
    private func checkRuleApp(_ key: String, profile: String?, privateWindow: Bool, for site: Site) throws(ChoosyError) {
        let browser = try appType("browser")
        var owners: [(type: AppType, apps: [String])] = [(browser, browser.apps.map(\.key))]
        for summary in try catalog().summaries() where summary.key != browser.key {
            let links = try catalog().links(of: summary.key).filter { LinkPattern.hostPattern(of: $0.pattern).map(site.overlaps) ?? false }
            guard !links.isEmpty else { continue }
            let type = try appType(summary.key)
            let limited = links.contains { $0.apps == nil } ? nil : Set(links.flatMap { $0.apps ?? [] })
            owners.append((type, type.apps.map(\.key).filter { limited?.contains($0) ?? true }))
        }
        guard let owner = owners.first(where: { $0.apps.contains(key) })?.type, let app = owner.app(key) else {
            // An app of a linked type that the site's links do not allow (Jitsi for zoom.us).
            if let type = owners.first(where: { $0.type.app(key) != nil })?.type {
                throw .unknown("\(type.app(key)!.name) (\(key)) cannot take the links of \(site.text) (apps that can: \(owners.flatMap(\.apps).joined(separator: ", ")))")
            }
            let names = owners.map(\.type.name).joined(separator: " or ")
            let near = owners.lazy.compactMap { $0.type.suggestedApp(for: key, among: $0.apps) }.first
            throw .unknown("unknown app '\(key)' for a rule of \(site.text): it must be an app of \(names)" + didYouMean(near))
        }
        let installed = try installedApps(of: owner)
        guard let found = installed.first(where: { $0.app.key == key }) else {
            diagnostics.warning("\(app.name) (\(key)) is not installed: the rule is kept, and links of \(site.text) are decided as usual until it is")
            return
        }
        if let profile { _ = try installedCatalog().choice(key, profile: profile, in: owner) }
        if privateWindow && !found.isWebApp { try found.requirePrivateWindow(among: installed, typeName: owner.name) }
    }
}
