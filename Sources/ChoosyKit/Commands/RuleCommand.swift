/// `choosy rule add|list|remove|test`: site rules, the app for the links of a site.
struct RuleCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "rule", "site rules: the app for the links of a site",
        arguments: [.one(of: .choice(["add", "list", "remove", "test"])), .optional("SITE|URL", .chosenBy(["remove": .ruleSite]))],
        options: [
            .value("--app", "KEY", .browserApp, "the app for the site's links: a browser, or an app of the site's links") {
                $0.open.app = $1
            },
            .value("--profile", "NAME", .text, "open the site in this profile of the browser") { $0.profile = $1 },
            .flag("--private", "open the site in a private window") { $0.open.privateWindow = true },
            .flag("--ask", "always show the picker for the site") { $0.ask = true },
            .flag("--none", "open nothing for the site's links") { $0.openNothing = true },
            .value("--from", "SOURCE", .source, "only for links from this app: a desktop ID or an app key") { $0.from = $1 },
            CommandGrammar.json,
        ] + CommandGrammar.cleaning,
        misuse: "rule needs add, list, remove or test, e.g. 'choosy rule add github.com --app firefox'",
        help: """
            Site rules say which app opens the links of a site: only --app and --choose
            come before them, catalog links and type defaults after.
              rule add SITE --app KEY [--profile NAME] [--private]   open SITE with KEY
              rule add SITE --ask        always show the picker for SITE
              rule add SITE --none       open nothing for SITE (choosy again opens it)
              rule add SITE --from SOURCE …   only for links from SOURCE (SITE may be *)
              rule list [--json]         the rules, in the order added
              rule remove SITE [--from SOURCE]   forget the rule of SITE
              rule test URL [--from SOURCE] [--json]   which rule, app and argv (runs nothing)
            SITE: example.org (and subdomains), =www.example.org (that host only), either
            with a path prefix (github.com/work-org); never a public suffix (co.uk).
            SOURCE: the app a link came from, a desktop ID (org.gnome.Evolution) or an app
            key (thunderbird); a rule with --from comes before every rule without.
            """
    )

    enum Action {
        case add(site: String, target: SiteRule.Target, from: String?)
        case list
        case remove(site: String, from: String?)
        /// `unshorten`: only with `--unshorten`, as in a dry run (a test runs nothing).
        case test(url: String, from: String?, clean: Bool?, unshorten: Bool)
    }

    let action: Action

    /// Each of add, list, remove and test takes its own of the rule options.
    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        let arguments = line.arguments
        let options = line.options
        let site = arguments.count == 2 ? arguments[1] : nil
        let given = [
            ("--app", options.open.app != nil), ("--profile", options.profile != nil), ("--private", options.open.privateWindow),
            ("--ask", options.ask), ("--none", options.openNothing), ("--from", options.from != nil), ("--json", options.json),
            ("--clean", options.clean == true),
            ("--no-clean", options.clean == false), ("--unshorten", options.unshorten == true),
            ("--no-unshorten", options.unshorten == false),
        ].filter(\.1).map(\.0)
        func only(_ allowed: [String]) throws(ChoosyError) {
            if let stray = given.first(where: { !allowed.contains($0) }) {
                throw .usage("rule \(arguments[0]) does not take \(stray)")
            }
        }
        if site == "*" && options.from == nil && ["add", "remove"].contains(arguments[0]) {
            throw .usage("the site '*' is only for a rule with --from SOURCE: every link from that app")
        }
        switch arguments[0] {
        case "add":
            guard let site else { throw .usage("rule add needs a SITE, e.g. 'choosy rule add github.com --app firefox'") }
            if options.ask || options.openNothing {
                try only([options.ask ? "--ask" : "--none", "--from"])
                action = .add(site: site, target: options.ask ? .ask : .nothing, from: options.from)
                return
            }
            try only(["--app", "--profile", "--private", "--from"])
            guard let app = options.open.app else { throw .usage("rule add needs --app KEY, --ask or --none") }
            action = .add(
                site: site, target: .app(key: app, profile: options.profile, privateWindow: options.open.privateWindow), from: options.from)
        case "list":
            guard site == nil else { throw .usage("rule list takes no SITE") }
            try only(["--json"])
            action = .list
        case "remove":
            guard let site else { throw .usage("rule remove needs a SITE (see 'choosy rule list')") }
            try only(["--from"])
            action = .remove(site: site, from: options.from)
        default:
            guard let site else { throw .usage("rule test needs a URL, e.g. 'choosy rule test https://github.com/'") }
            try only(["--from", "--clean", "--no-clean", "--unshorten", "--no-unshorten", "--json"])
            action = .test(url: site, from: options.from, clean: options.clean, unshorten: options.unshorten == true)
        }
    }

    /// `rule test` runs as `--dry-run`: it writes nothing, not even the rules' index.
    static func options(_ line: ParsedCommandLine) -> OptionValues {
        var options = line.options
        if line.arguments.first == "test" { options.open.dryRun = true }
        return options
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        switch action {
        case .add(let site, let target, let from):
            let (rule, replaced) = try Self.add(site, target: target, from: from, in: choosy)
            guard context.interactive else { return CommandOutput() }
            let links = (rule.site.map { "links of \($0.text)" } ?? "every link") + (rule.from.map { " from \($0)" } ?? "")
            return CommandOutput((replaced ? "Replaced the rule: " : "Added a rule: ") + "\(links) open with \(rule.targetDescription).\n")
        case .list:
            // In the order the rules were added.
            return CommandOutput(Self.listed(choosy.siteRules.rules().rules, json: context.options.json))
        case .remove(let site, let from):
            let rule = try Self.remove(site, from: from, in: choosy)
            return CommandOutput(context.interactive ? "Removed the rule of \(singleLine(rule.name)) (\(rule.targetDescription)).\n" : "")
        case .test(let url, let from, let clean, let unshorten):
            let link = choosy.linkToOpen(url, clean: clean, unshorten: unshorten)
            let test = try Self.test(link, from: from, in: choosy)
            return CommandOutput(context.options.json ? test.json.rendered() + "\n" : Self.text(test, style: context.style))
        }
    }

    /// What `rule test URL` found: the rule, and what opening the link would run.
    struct Test: Sendable {
        var rule: SiteRule?
        /// What the rule leads to, in words (`ask`, `not installed: deciding as usual`).
        var outcome: String
        /// The dry run of the rule's app, when the rule decides the app.
        var result: OpenResult?

        /// `--json`: what the text says, as one object: the rule as rules.json holds it (or
        /// null), what it leads to, and the app and argv (null when the rule decides no app).
        var json: JSONValue {
            .object([
                ("rule", rule?.json ?? .null), ("outcome", .string(outcome)), ("app", .optional(result.map { $0.via?.app ?? $0.app })),
                ("argv", result.map { .strings($0.argv) } ?? .null),
            ])
        }
    }

    /// `rule add SITE …`: the rule written, and whether it replaced the site's rule.
    private static func add(_ siteText: String, target given: SiteRule.Target, from: String?, in choosy: Choosy) throws(ChoosyError) -> (
        rule: SiteRule, replaced: Bool
    ) {
        var target = given
        let source = try from.map { text throws(ChoosyError) in try knownSource(text, in: choosy) }
        guard siteText != "*" else {
            if case .app(let key, let profile, let privateWindow) = target {
                target = try checkedApp(key, profile: profile, privateWindow: privateWindow, for: nil, in: choosy)
            }
            return try write(SiteRule(site: nil, target: target, from: source), in: choosy)
        }
        let site = try parsedSite(siteText)
        if let problem = site.neverMatches {
            throw .usage("\(quoted(siteText)) is not a site: \(problem)")
        }
        let suffixes: PublicSuffixList
        do {
            suffixes = try PublicSuffixList.load()
        } catch {
            throw .unavailable("cannot check '\(site.text)' against the Public Suffix List: \(error.reason)")
        }
        if suffixes.isPublicSuffix(site.host) {
            throw .usage(
                "'\(site.text)' is a public suffix: a rule for it would cover every site under it; write the site itself, like 'example.\(site.host.domainName ?? "")'"
            )
        }
        if case .app(let key, let profile, let privateWindow) = target {
            target = try checkedApp(key, profile: profile, privateWindow: privateWindow, for: site, in: choosy)
        }
        return try write(SiteRule(site: site, target: target, from: source), in: choosy)
    }

    /// `--app firefox@Work` is `--app firefox --profile Work`; the app checked for the site (nil: `*`).
    private static func checkedApp(_ given: String, profile named: String?, privateWindow: Bool, for site: Site?, in choosy: Choosy)
        throws(ChoosyError) -> SiteRule.Target
    {
        var (key, profile) = (given, named)
        if profile == nil { (key, profile) = ChoiceKey.split(key) }
        if let profile, let problem = SiteRule.problem(withProfile: profile) {
            throw .usage("--profile '\(singleLine(profile))': \(problem)")
        }
        try checkRuleApp(key, profile: profile, privateWindow: privateWindow, for: site, in: choosy)
        return .app(key: key, profile: profile, privateWindow: privateWindow)
    }

    private static func write(_ rule: SiteRule, in choosy: Choosy) throws(ChoosyError) -> (rule: SiteRule, replaced: Bool) {
        var replaced = false
        try choosy.siteRules.modify(whenCorrupt: .refuse) { rules in
            replaced = rules.rule(for: rule.site, from: rule.from) != nil
            rules.add(rule)
        }
        return (rule, replaced)
    }

    /// The SOURCE of `--from` as rules store it; one that names no desktop entry or app is exit 3.
    private static func knownSource(_ text: String, in choosy: Choosy) throws(ChoosyError) -> String {
        guard let source = choosy.sourceNames.canonical(text) else {
            throw .unknown(
                "no desktop entry or app is '\(singleLine(text))': --from takes a desktop ID (org.gnome.Evolution) or an app key, as 'choosy list' shows them"
            )
        }
        return source
    }

    /// `rule remove SITE [--from SOURCE]`: the rule removed; a site without one is exit 3.
    private static func remove(_ siteText: String, from given: String?, in choosy: Choosy) throws(ChoosyError) -> SiteRule {
        let site = siteText == "*" && given != nil ? nil : try parsedSite(siteText)
        // A source the desktop no longer has still names its rules.
        let from = given.map { choosy.sourceNames.canonical($0) ?? $0 }
        var removed: SiteRule?
        try choosy.siteRules.modify(whenCorrupt: .refuse) { rules throws(ChoosyError) in
            removed = rules.rule(for: site, from: from)
            // Nothing to remove: the file is left as it is.
            guard rules.remove(site, from: from) else {
                let name = (site?.text ?? "*") + (from.map { " --from \($0)" } ?? "")
                throw .unknown(
                    "no rule for '\(singleLine(name))'" + didYouMean(name, among: rules.rules.map(\.name)) + "; see 'choosy rule list'")
            }
        }
        return removed!
    }

    /// `rule test URL`: which rule a link falls under and what it would run, read from the
    /// plan of `handle URL --dry-run`; launches nothing and writes nothing.
    private static func test(_ link: String, from given: String?, in choosy: Choosy) throws(ChoosyError) -> Test {
        guard isWebURL(link) else { throw .usage("rule test needs an http(s) link, like 'https://example.org/'") }
        var options = OpenOptions()
        options.dryRun = true
        var request = OpenRequest.handling(link, options: options)
        // `--from`: as it is written, so a source the desktop no longer has is still one.
        request.from = given.map { choosy.sourceNames.canonical($0) ?? $0 }
        let plan = try choosy.planner().plan(request)
        guard let step = plan.rule else { return Test(rule: nil, outcome: "no rule: the usual decision applies", result: nil) }
        guard step.applies, plan.pendingChoice == nil else { return Test(rule: step.rule, outcome: step.outcome, result: nil) }
        return Test(rule: step.rule, outcome: step.outcome, result: plan.result)
    }

    private static func parsedSite(_ text: String) throws(ChoosyError) -> Site {
        do {
            return try Site(parsing: text)
        } catch {
            throw .usage(
                "\(quoted(text)) is not a site: \(error.reason) (write it like example.org, =www.example.org or github.com/work-org)")
        }
    }

    /// A site as an error quotes it: one line, and its start only when it is long (a 100,000
    /// character label is refused in a line one can read).
    private static func quoted(_ text: String) -> String {
        let line = singleLine(text)
        guard line.count > 100 else { return "'\(line)'" }
        return "'\(line.prefix(80))…' (\(text.count) characters)"
    }

    /// A rule's app is a browser, or an app that may take the site's catalog links
    /// (doc/links-and-rules.md, "Site rules"); it need not be installed. When it is, its profile must exist and, for
    /// `--private`, it must open private windows (exit 3 otherwise).
    private static func checkRuleApp(_ key: String, profile: String?, privateWindow: Bool, for site: Site?, in choosy: Choosy)
        throws(ChoosyError)
    {
        let siteText = site?.text ?? "*"
        let browser = try choosy.appType("browser")
        var owners: [(type: AppType, apps: [String])] = [(browser, browser.apps.map(\.key))]
        // Only a browser takes every link (`*`).
        for summary in try choosy.catalog().summaries() where summary.key != browser.key {
            guard let site else { continue }
            let links = try choosy.catalog().links(of: summary.key).filter {
                LinkPattern.hostPattern(of: $0.pattern).map(site.overlaps) ?? false
            }
            guard !links.isEmpty else { continue }
            let type = try choosy.appType(summary.key)
            let limited = links.contains { $0.apps == nil } ? nil : Set(links.flatMap { $0.apps ?? [] })
            owners.append((type, type.apps.map(\.key).filter { limited?.contains($0) ?? true }))
        }
        guard let owner = owners.first(where: { $0.apps.contains(key) })?.type, let app = owner.app(key) else {
            // An app of a linked type that the site's links do not allow (Jitsi for zoom.us).
            if let type = owners.first(where: { $0.type.app(key) != nil })?.type {
                throw .unknown(
                    "\(type.app(key)!.name) (\(key)) cannot take the links of \(siteText) (apps that can: \(owners.flatMap(\.apps).joined(separator: ", ")))"
                )
            }
            let names = owners.map(\.type.name).joined(separator: " or ")
            let near = owners.lazy.compactMap { $0.type.suggestedApp(for: key, among: $0.apps) }.first
            throw .unknown("unknown app '\(key)' for a rule of \(siteText): it must be an app of \(names)" + didYouMean(near))
        }
        let installed = try choosy.installedApps(of: owner)
        guard let found = installed.first(where: { $0.app.key == key }) else {
            choosy.diagnostics.warning(
                "\(app.name) (\(key)) is not installed: the rule is kept, and links of \(siteText) are decided as usual until it is")
            return
        }
        if let profile {
            let choice = try choosy.installedCatalog().choice(key, profile: profile, in: owner)
            if privateWindow { try choice.refuseContainerInPrivateWindow() }
        }
        if privateWindow && !found.isWebApp { try found.requirePrivateWindow(among: installed, typeName: owner.name) }
    }

    /// `rule list`: one rule a line, `SITE [--from SOURCE]  APP`; `--json`: the rules as rules.json holds them.
    private static func listed(_ rules: [SiteRule], json: Bool) -> String {
        if json { return JSONValue.array(rules.map(\.json)).rendered() + "\n" }
        let width = rules.map { singleLine($0.name).count }.max() ?? 0
        return rules.map { "\(pad(singleLine($0.name), width))  \(singleLine($0.targetDescription))\n" }.joined()
    }

    /// `rule test`: which rule, what it does, and the app and argv it would run.
    private static func text(_ test: Test, style: TerminalStyle) -> String {
        var lines = ["rule: " + (test.rule.map { "\(singleLine($0.name)) (\(singleLine($0.targetDescription)))" } ?? "none")]
        if let result = test.result {
            lines.append(
                "app: \(singleLine(result.via?.app ?? result.app))"
                    + (result.via == nil ? "" : style.dim(" (for \(singleLine(result.app)))")))
            lines.append("argv: " + shellQuoted(result.argv))
        } else {
            lines.append(style.dim(test.outcome))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
