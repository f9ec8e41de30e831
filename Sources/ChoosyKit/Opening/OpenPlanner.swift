/// Turns a request into an `OpenPlan`, reading only: no launch, no write, no picker. It finds
/// the type and action (a `handle` link through `LinkClassifier` or `SchemeHandlers`), the site
/// rule, the candidates and the decision (`ChoiceDecider`), the way round through the browser
/// type, the URL and the argv. What doing learned (the picker's answer, a hook's parameters)
/// comes back in `PlanAnswers`, and the same planning completes the plan with it.
final class OpenPlanner {
    private let apps: InstalledAppDirectory
    private let preferences: PreferenceStore
    private let rules: SiteRuleStore
    private let sources: LinkSources
    private let classifier: LinkClassifier
    private let launcher: Launcher
    /// A local file's MIME type (read only when a file is handled).
    private let mimeTypes: MimeDatabase
    /// `CHOOSY_ALWAYS_DISPLAY_PICKER=1`.
    private let alwaysShowPicker: Bool
    /// What runs and where, when a running option asks (doc/running.md); nil otherwise, and
    /// then nothing of it is read. Made when a choice first needs it.
    private let whereabouts: () -> RunningWhereabouts?
    /// What the user hid and ordered (SPEC §6.1).
    private let arrangement: ChoiceArrangement
    /// How often each choice of a type was picked, read only for `order_by_use`.
    private let useCounts: UseCountStore
    private let diagnostics: DiagnosticSink

    init(
        apps: InstalledAppDirectory, preferences: PreferenceStore, rules: SiteRuleStore, sources: LinkSources, classifier: LinkClassifier,
        launcher: Launcher, mimeTypes: MimeDatabase, alwaysShowPicker: Bool, whereabouts: @escaping () -> RunningWhereabouts?,
        arrangement: ChoiceArrangement, useCounts: UseCountStore, diagnostics: DiagnosticSink
    ) {
        self.arrangement = arrangement
        self.useCounts = useCounts
        self.apps = apps
        self.preferences = preferences
        self.rules = rules
        self.sources = sources
        self.classifier = classifier
        self.launcher = launcher
        self.mimeTypes = mimeTypes
        self.alwaysShowPicker = alwaysShowPicker
        self.whereabouts = whereabouts
        self.diagnostics = diagnostics
    }

    /// The plan of `request`, completed with what doing learned. `explaining` (`why`): every
    /// other app of each type is listed with why it is not a candidate, and the source is looked for.
    func plan(_ request: OpenRequest, answers: PlanAnswers = PlanAnswers(), explaining: Bool = false) throws(ChoosyError) -> OpenPlan {
        var planning = Planning(request: request, answers: answers, explaining: explaining)
        if let file = request.handledFile { return try planFile(file, request: request, &planning) }
        guard let link = request.handledLink else { return try planAction(request, found: .named, &planning) }
        switch try classifier.classify(link) {
        case .action(let action):
            diagnostics.explain("\(link) is \(action.type) \(action.action)")
            var opened = request
            opened.handledLink = nil
            (opened.type, opened.action, opened.link) = (action.type, action.action, action.link)
            opened.parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            let found: OpenPlan.Finding =
                if let pattern = action.pattern { .catalogLink(pattern: pattern) } else if action.link != nil { .webLink } else {
                    .schemeAction(URLParts(link)?.scheme.lowercased() ?? "")
                }
            var plan = try planAction(opened, found: found, &planning)
            plan.request.handledLink = link
            return plan
        case .route:
            throw .usage("\(singleLine(String(link.prefix(80)))) is an x-callback-url request: 'choosy route' answers it")
        case .scheme(let scheme):
            return try planSchemeLink(link, scheme: scheme, request: request, &planning)
        }
    }

    /// What one planning carries from step to step.
    private struct Planning {
        var request: OpenRequest
        var answers: PlanAnswers
        var explaining: Bool
        /// What doing writes: nothing for `url` and `--no-remember`.
        var remembers: Bool { request.purpose == .launch && !request.options.noRemember }
    }

    // MARK: An action on a type

    private func planAction(_ request: OpenRequest, found: OpenPlan.Finding, _ planning: inout Planning) throws(ChoosyError) -> OpenPlan {
        let type = try apps.appType(request.type)
        let action = try resolveAction(request.action, in: type)
        var parameters = planning.answers.parameters ?? [:]
        if planning.answers.parameters == nil { parameters = try collect(request.parameters, for: type) }
        var plan = OpenPlan(request: request, found: found, type: type, action: action, parameters: parameters)
        if planning.explaining || request.reportsSource { sources.find(into: &plan) }
        var options = request.options
        let all = try apps.installedApps(of: type)
        let installed = request.link.map { $0.allowed(all, type: type) } ?? all
        let webLink = try WebLink(request, type: type, action: action)
        var rule: SiteRule?
        if let webLink {
            let (decision, step) = try siteRuleRouter().decide(
                webLink, type: type, installed: installed, options: options, from: request.from)
            plan.rule = step
            switch decision {
            case .none: break
            case .ask: options.choose = true
            case .nothing:
                // `plan.rule` says it; nothing is chosen, launched or written.
                return plan
            case .app(let matched):
                options.apply(matched)
                rule = matched
            case .browser(let matched):
                options.apply(matched)
                try goToBrowser(
                    &plan, url: webLink.text, why: "the site rule '\(matched.name)' names a browser", sentBy: .rule, options: options,
                    forced: (options.app, .rule), &planning)
                return plan
            }
        }
        if let link = request.link, type.key != "browser" {
            // `--app` with a browser: it gets the link as it is.
            if let key = options.app, type.app(ChoiceKey.split(key).app) == nil {
                let why = "--app \(key) is no app of \(type.name): opening the link as it is in that browser"
                diagnostics.explain(why)
                try goToBrowser(
                    &plan, url: link.url, why: why, sentBy: .app, options: options, forced: (key, .app), choose: options.choose, &planning)
                return plan
            }
            // A web app of the type is the browser by another name: with no native app that
            // can do what the link means, the browser gets it as it is (and `--choose` asks
            // there), unless `--app` names a web app.
            let nativeCanTakeIt =
                action.map { action in installed.contains { !$0.isWebApp && $0.app.urlFormat(for: action.key) != nil } } ?? false
            if !nativeCanTakeIt {
                let named = try options.app.map { key throws(ChoosyError) in try apps.choice(key, in: type) }
                // A choice is kept or refused, never swapped for the browser.
                if let named, !named.isWebApp, let action, named.app.urlFormat(for: action.key) == nil {
                    throw .unavailable(
                        "\(named.app.name) (\(named.app.key)) cannot \(action.key) this link; leave out --app to open it in the browser")
                }
                if named.map({ !$0.isWebApp }) ?? true {
                    let why = "no installed app of \(type.name) takes this link; opening it in the browser"
                    diagnostics.explain(why)
                    try goToBrowser(&plan, url: link.url, why: why, sentBy: .link, options: options, choose: options.choose, &planning)
                    return plan
                }
            }
            if options.app == nil, !options.choose, preferences.preference(for: type.key).linksInBrowser {
                let why = "the browser was picked always for \(type.name) links (choosy reset \(type.key) forgets it)"
                diagnostics.explain(why)
                try goToBrowser(&plan, url: link.url, why: why, sentBy: .link, options: options, &planning)
                return plan
            }
        }
        // Never worse than the browser (doc/links-and-rules.md): a web link's picker offers it too.
        let webPage = request.link != nil && type.key != "browser" && options.app == nil
        if webPage, let link = request.link, let reason = planning.answers.noPicker {
            let why = "no picker available (\(reason)): the link opens in the browser, as it would without choosy"
            diagnostics.explain(why)
            try goToBrowser(&plan, url: link.url, why: why, sentBy: .fallback, options: options, &planning)
            return plan
        }
        let step = try choiceStep(
            type: type, action: action, installed: installed, all: all, considered: type.apps, options: options,
            offersWebPage: webPage, answer: planning.answers.typeChoice, rule: rule, &plan, &planning)
        plan.choice = step
        guard let chosen = step.chosen else { return plan }
        // Only the browsers offered as the web page are apps of another type.
        if let link = request.link, planning.answers.typeChoice?.webPage == true {
            let why = "\(chosen.key) was picked: the link opens as it is in that browser"
            diagnostics.explain(why)
            try goToBrowser(&plan, url: link.url, why: why, sentBy: .picker, options: options, forced: (chosen.key, .picker), &planning)
            return plan
        }
        // A web app's private window is the browser's, decided on the way round through it.
        if options.privateWindow && !chosen.isWebApp { try chosen.requirePrivateWindow(among: installed, typeName: type.name) }
        if chosen.isWebApp, let link = request.link {
            // A web link reaches a web app as it is: never a rebuild that could lose its detail (SPEC §8.1).
            let why = "\(chosen.app.key) is a web app: opening the link as it is in the browser"
            diagnostics.explain(why)
            try goToBrowser(&plan, url: link.url, why: why, webApp: chosen, options: options, &planning)
            return plan
        }
        plan.url = try buildURL(for: chosen, action: action?.key, parameters: plan.parameters, type: type)
        guard request.purpose == .launch else { return plan }
        if chosen.entry != nil {
            try launch(chosen, &plan, options: options, browser: type.key == "browser")
        } else if let url = plan.url {
            // The address a web app built (`open email compose` in Gmail): no site rule is the user's for it.
            try goToBrowser(
                &plan, url: url, why: "\(chosen.app.key) is a web app: its address opens in the browser", webApp: chosen,
                options: options, rulesApply: false, &planning)
        }
        return plan
    }

    /// The way round through the browser type (SPEC §3): the link as it is, or a web app's
    /// address, to the browser `forced` names or the browser type's own choice. `choose`: the
    /// picker is shown there; a site rule that asks for the link asks there too.
    private func goToBrowser(
        _ plan: inout OpenPlan, url: String, why: String, sentBy: Decider? = nil, webApp: InstalledApp? = nil, options: OpenOptions,
        forced: (key: String?, by: Decider)? = nil, choose: Bool = false, rulesApply: Bool = true,
        _ planning: inout Planning
    ) throws(ChoosyError) {
        if planning.explaining, plan.choice == nil, plan.type.key != "browser" {
            // The type's own apps, and why none took the link.
            let all = try apps.installedApps(of: plan.type)
            let installed = plan.request.link.map { $0.allowed(all, type: plan.type) } ?? all
            let declined = installed.filter { !$0.isWebApp }.map { app in
                NotCandidate(
                    key: app.key, name: app.displayName, reason: plan.action.map { .noSupport(action: $0.key) } ?? .notForLink)
            }
            plan.typeOthers = notCandidates(declined, type: plan.type, installed: installed, all: all, considered: plan.type.apps)
        }
        diagnostics.explain("web app: opening \(url) through the browser type")
        let type = try apps.appType("browser")
        let action = type.knownAction("browse")
        var browsing = OpenOptions()
        (browsing.app, browsing.choose, browsing.picker) = (forced?.key, choose, options.picker)
        (browsing.noRemember, browsing.dryRun, browsing.privateWindow) = (options.noRemember, options.dryRun, options.privateWindow)
        let installed = try apps.installedApps(of: type)
        var forced = forced
        // The link's site rule applies in the browser too: asking, or naming a browser.
        if rulesApply, let link = plan.request.link {
            switch try siteRuleRouter().decide(WebLink(link), type: type, installed: installed, options: browsing, from: plan.request.from)
                .decision
            {
            case .ask: browsing.choose = true
            case .app(let rule), .browser(let rule):
                browsing.apply(rule)
                forced = (browsing.app, .rule)
            // A rule that opens nothing ended the plan before the way round.
            case .none, .nothing: break
            }
        }
        var step = try choiceStep(
            type: type, action: action, installed: installed, all: installed, considered: type.apps, options: browsing,
            offersWebPage: false, answer: planning.answers.browserChoice, rule: nil, &plan, &planning)
        if let forced, case .chosen(let app, .app, _) = step.outcome { step.outcome = .chosen(app, by: forced.by, reason: why) }
        plan.browser = BrowserStep(why: why, sentBy: sentBy, webApp: webApp, url: url, choice: step)
        guard let chosen = step.chosen else { return }
        if options.privateWindow && !chosen.isWebApp { try chosen.requirePrivateWindow(among: installed, typeName: type.name) }
        let parameters = planning.answers.browserParameters ?? ["url": url]
        plan.url = try buildURL(for: chosen, action: action?.key, parameters: parameters, type: type)
        if plan.request.purpose == .launch { try launch(chosen, &plan, options: browsing, browser: true) }
    }

    // MARK: A link of another scheme

    private func planSchemeLink(_ link: String, scheme: String, request: OpenRequest, _ planning: inout Planning) throws(ChoosyError)
        -> OpenPlan
    {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let found = try SchemeHandlers(apps: apps, diagnostics: diagnostics).find(scheme)
        var plan = OpenPlan(
            request: request, found: .schemeHandlers(scheme: scheme, claim: found.claim), type: found.type, action: nil, parameters: [:])
        if planning.explaining || request.reportsSource { sources.find(into: &plan) }
        let step = try choiceStep(
            type: found.type, action: nil, installed: found.installed, all: found.installed,
            considered: found.type.apps.filter { !$0.isWebApp && $0.scheme == scheme }, options: request.options, offersWebPage: false,
            answer: planning.answers.typeChoice, rule: nil, &plan, &planning)
        plan.choice = step
        guard let chosen = step.chosen else { return plan }
        if request.options.privateWindow { try chosen.requirePrivateWindow(among: found.installed, typeName: found.type.name) }
        plan.url = link
        try launch(chosen, &plan, options: request.options, browser: false)
        return plan
    }

    // MARK: A local file

    /// A local file (SPEC §9.6), given as its `file://` URL (its path for `%f`) to the apps of
    /// the app type that claims its MIME type, chosen as for any type; else to the desktop's
    /// handlers of it, whose default is the desktop's and whose *always* writes it there.
    private func planFile(_ file: LocalFile, request: OpenRequest, _ planning: inout Planning) throws(ChoosyError) -> OpenPlan {
        let found = try FileHandlers(apps: apps, mimeTypes: mimeTypes, diagnostics: diagnostics).find(file)
        var plan = OpenPlan(
            request: request, found: .localFile(mimeTypes: found.mimeTypes, reason: found.fileType.reason, claim: found.claim),
            type: found.type, action: nil, parameters: [:])
        if planning.explaining || request.reportsSource { plan.source = sources.source() }
        let desktops = found.claim == .associations
        // The desktop's choice stands for a type of the desktop's: its default, and no new app to ask about.
        let preference = desktops ? TypePreference(defaultApp: found.desktopDefault, seen: found.installed.map(\.key)) : nil
        let step = try choiceStep(
            type: found.type, action: nil, installed: found.installed, all: found.installed,
            considered: desktops ? [] : found.type.apps.filter { !$0.isWebApp }, options: request.options, offersWebPage: false,
            answer: planning.answers.typeChoice, rule: nil, preference: preference, &plan, &planning)
        if desktops {
            // *Always* is the desktop's default for the type, as `xdg-mime default` sets it; nothing else is kept.
            plan.writes = plan.writes.compactMap { write in
                guard case .choice(_, let app, true, _) = write, let id = found.installed.first(where: { $0.key == app })?.entry?.id
                else { return nil }
                return .desktopDefault(mimeType: found.fileType.type, desktopID: id)
            }
        }
        plan.choice = step
        guard let chosen = step.chosen else { return plan }
        if request.options.privateWindow { try chosen.requirePrivateWindow(among: found.installed, typeName: found.type.name) }
        plan.url = file.url
        if request.purpose == .launch { try launch(chosen, &plan, options: request.options, browser: found.type.key == "browser") }
        return plan
    }

    // MARK: Steps

    /// An action by key or name, any case; actions an app supports but the type does not
    /// declare count too.
    private func resolveAction(_ input: String?, in type: AppType) throws(ChoosyError) -> Action? {
        guard let input else { return nil }
        if let action = type.knownAction(input) { return action }
        throw .unknown("unknown action '\(input)' for \(type.name)" + didYouMean(input, among: type.knownActions.map(\.key)))
    }

    /// Parameters as a dictionary (a later duplicate wins). A key that is a near miss of a
    /// declared parameter is refused (status 2), since it would silently reach no app.
    private func collect(_ pairs: [(String, String)], for type: AppType) throws(ChoosyError) -> [String: String] {
        var parameters: [String: String] = [:]
        let declared = Set(type.parameters.map(\.key))
        // The apps' templates are read only for a key the type does not declare (a link's are all declared).
        var used: Set<String>?
        for (key, value) in pairs {
            if !declared.contains(key) {
                let known =
                    used ?? declared.union(type.apps.flatMap { app in app.actions.flatMap { URLTemplate($0.urlFormat).placeholders } })
                used = known
                if !known.contains(key), let near = suggestion(for: key, among: Array(known)) {
                    throw .usage("no app of \(type.name) uses parameter '\(key)' (did you mean '\(near)'?)")
                }
            }
            parameters[key] = value
        }
        return parameters
    }

    /// The choice among the installed apps of `type` (SPEC §6): the candidates, the decision,
    /// and what it writes. `all`: the type's installed apps before the link's `apps` limited
    /// them; `considered`: the apps whose absence `why` explains. `offersWebPage`: the picker
    /// offers the browser's choices too, after the apps. `rule`: the site rule that named the app.
    /// `preference`: what stands for the type's remembered one (the desktop's, for its own type).
    private func choiceStep(
        type: AppType, action: Action?, installed: [InstalledApp], all: [InstalledApp], considered: [App], options: OpenOptions,
        offersWebPage: Bool, answer: PickedChoice?, rule: SiteRule?, preference remembered: TypePreference? = nil, _ plan: inout OpenPlan,
        _ planning: inout Planning
    ) throws(ChoosyError) -> ChoiceStep {
        var forced: InstalledApp?
        if let key = options.app {
            let app = try apps.choice(key, in: type)
            guard installed.contains(where: { $0.app.key == app.app.key }) else {
                throw .unavailable("\(app.app.name) (\(app.app.key)) cannot open this")
            }
            if options.privateWindow { try app.refuseContainerInPrivateWindow() }
            forced = app
        }
        // Profile lists are read when the choice needs them, and only for apps that have some.
        let choices = InstalledChoices(installed) { [apps] app in forced == nil ? apps.profiles(of: app) : [] }
        var candidates = choices.offered
        // Why the others are not candidates, only for `why`.
        var others: [NotCandidate] = []
        func leaveOut(_ apps: [InstalledApp], _ reason: NotCandidateReason) {
            if planning.explaining { others += apps.map { NotCandidate(key: $0.key, name: $0.displayName, reason: reason) } }
        }
        var noneSupports = false
        if let action {
            let supporting = candidates.filter { $0.app.urlFormat(for: action.key) != nil }
            if supporting.isEmpty {
                noneSupports = true
                diagnostics.explain("no installed app supports '\(action.key)'; offering every installed app, opened as it is")
            } else {
                leaveOut(candidates.filter { $0.app.urlFormat(for: action.key) == nil }, .noSupport(action: action.key))
                candidates = supporting
            }
        }
        let preference = remembered ?? preferences.preference(for: type.key)
        if options.privateWindow {
            // Only apps that open private windows are offered; a default that cannot is refused.
            let able = candidates.filter { $0.isWebApp || $0.opensPrivateWindows }
            if able.isEmpty, let first = candidates.first {
                try first.requirePrivateWindow(among: installed, typeName: type.name)
            }
            if forced == nil, !options.choose, let remembered = preference.defaultApp,
                let current = choices.choice(remembered), !current.isWebApp, !current.opensPrivateWindows
            {
                try current.requirePrivateWindow(among: installed, typeName: type.name)
            }
            leaveOut(candidates.filter { !($0.isWebApp || $0.opensPrivateWindows) }, .noPrivateWindow)
            candidates = able
        }
        candidates = apps.systemDefaultFirst(candidates)
        // What the user hid is never offered (SPEC §6.1); `--app` and the default still reach it.
        var hiddenEntries: [String] = []
        var shownChoices = choices.offered
        if forced == nil, arrangement.hidesAny {
            func hiding(_ choice: InstalledApp) -> String? {
                choice.key == preference.defaultApp ? nil : arrangement.hiding(choice)
            }
            for choice in candidates { if let entry = hiding(choice) { leaveOut([choice], .hiddenByUser(entry: entry)) } }
            let before = candidates.count
            candidates.removeAll { hiding($0) != nil }
            shownChoices.removeAll { hiding($0) != nil }
            hiddenEntries = arrangement.hiddenEntries(of: choices.offered, keeping: preference.defaultApp)
            if candidates.isEmpty && before > 0 {
                throw .unavailable(
                    "every app of \(type.name) that can open this is hidden (\"hidden\" in config.json; choosy unhide CHOICE offers one again)"
                )
            }
        }

        let shown = shownChoices.map(\.key)
        let situation = ChoiceSituation(
            installed: shown, candidates: candidates.map(\.key), preference: preference, unoffered: choices.unofferedKeys,
            forcedApp: forced?.key, choose: options.choose, alwaysPicker: alwaysShowPicker, offersWebPage: offersWebPage
        )
        let decision = ChoiceDecider.decide(situation)
        // The browsers (their profiles and containers) are read only for a picker, its answer, or `why`.
        let asks = if case .pick = decision { true } else { false }
        let browsers =
            offersWebPage && (asks || answer != nil || planning.explaining)
            ? try apps.choices(of: try apps.appType("browser")).offered.filter { !$0.isWebApp && arrangement.hiding($0) == nil } : []
        var step = ChoiceStep(
            type: type, candidates: [], webPage: browsers, outcome: .ask(reason: ""), shown: shown, defaultApp: preference.defaultApp,
            title: options.title ?? "\(type.name): \(action?.name ?? "Open") with…",
            allowAlways: planning.remembers && !options.dryRun)
        step.hiddenEntries = hiddenEntries
        var offered = candidates
        // What runs of the candidates, read only for a picker a running option marks or orders.
        var running = RunningChoices.none
        switch decision {
        case .nothingInstalled:
            // A web app is installed with a browser: when one is missing, it is the browser.
            let natives = type.apps.filter { !$0.isWebApp }.map(\.name).joined(separator: ", ")
            let web = type.apps.filter(\.isWebApp).map(\.name).joined(separator: ", ")
            let browser = web.isEmpty ? "" : "a browser, in which \(web) opens"
            let install = natives.isEmpty ? browser : "one of: \(natives)" + (web.isEmpty ? "" : "; or \(browser)")
            throw .unavailable("nothing installed can open \(type.name)" + (install.isEmpty ? "" : " (install \(install))"))
        case .launch(let key, let reason):
            diagnostics.explain(reason)
            let chosen = forced ?? candidates.first { $0.key == key } ?? choices.choice(key)!
            let by: Decider = forced != nil ? (rule != nil ? .rule : .app) : key == preference.defaultApp ? .defaultApp : .onlyApp
            step.outcome = .chosen(chosen, by: by, reason: rule.map { "the site rule '\($0.name)' names it" } ?? reason)
        case .pick(let keys, let forgetDefault, let reason):
            if forgetDefault {
                step.defaultApp = nil
                if planning.remembers { plan.writes.append(.forgetDefault(type: type.key)) }
            }
            // The default may be a key that is not offered by itself (`ChoiceDecider.first`).
            // By key once, so that thousands of candidates cost n log n, not n² (doc/security.md).
            let byKey = Dictionary(candidates.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            offered = keys.compactMap { key in byKey[key] ?? choices.choice(key) }
            offered = arrangement.ordered(offered, defaultApp: step.defaultApp) { useCounts.counts(for: type.key) }
            step.outcome = .ask(reason: reason)
            step.link = Self.shownLink(of: plan.request)
            if let whereabouts = whereabouts() {
                running = whereabouts.running(among: offered)
                offered = orderedByRunning(offered, running: running, option: whereabouts.option, defaultApp: step.defaultApp)
                // The user's own ways to see the picker, and the picker's answer, come first.
                if whereabouts.option == .use, answer == nil, !options.choose, !alwaysShowPicker {
                    let used = RunningDecision.use(candidates, running: running, windowHere: whereabouts.hasWindowHere)
                    diagnostics.explain("running: \(used.reason)")
                    if let chosen = used.chosen { step.outcome = .chosen(chosen, by: .running, reason: used.reason) }
                }
            }
            if answer == nil, case .ask = step.outcome { diagnostics.explain("showing the picker: \(reason)") }
        }
        step.candidates = offered.map { choice in
            let runs = running.isRunning(choice)
            return ChoiceCandidate(choice: choice, action: action?.key, noneSupports: noneSupports, running: runs)
        }
        if let answer {
            // The user's answer decides, whatever the decision would be now (the default it
            // forgot, say, is gone from the preferences the plan reads again).
            let chosen = answer.webPage ? browsers.first { $0.key == answer.key } : offered.first { $0.key == answer.key }
            guard let chosen = chosen ?? choices.choice(answer.key) else { throw .internal("the picked choice \(answer.key) is gone") }
            step.outcome = .chosen(chosen, by: .picker, reason: "picked " + (answer.always ? "always" : "just once"))
            if planning.remembers {
                plan.writes.append(
                    answer.webPage
                        ? .browserForLinks(type: type.key, always: answer.always, shown: shown)
                        : .choice(type: type.key, app: chosen.key, always: answer.always, shown: shown))
                if arrangement.orderByUse { plan.writes.append(.useCount(type: type.key, choice: chosen.key)) }
                if let site = answer.site {
                    plan.writes.append(.rule(site: site, choice: chosen.key, privateWindow: options.privateWindow))
                }
            }
        }
        if planning.explaining {
            step.others = notCandidates(others, type: type, installed: installed, all: all, considered: considered)
        }
        return step
    }

    /// `others` (installed, and left out), then the installed apps the link's family leaves out,
    /// then the `considered` apps that are not installed, and the entries whose association
    /// with a scheme of the type a `mimeapps.list` removed, each with why.
    private func notCandidates(
        _ others: [NotCandidate], type: AppType, installed: [InstalledApp], all: [InstalledApp], considered: [App]
    ) -> [NotCandidate] {
        let installedKeys = Set(all.map(\.app.key))
        let allowed = Set(installed.map(\.app.key))
        return others
            + all.filter { !allowed.contains($0.app.key) }.map { NotCandidate(key: $0.key, name: $0.displayName, reason: .notForLink) }
            + considered.filter { !installedKeys.contains($0.key) && !(type.key == "browser" && $0.isWebApp) }.map {
                NotCandidate(key: $0.key, name: $0.name, reason: apps.whyNotInstalled($0))
            }
            + apps.removedHandlers(of: type).map {
                NotCandidate(
                    key: InstalledAppFinder.key(forDesktopID: $0.entry.id), name: $0.entry.name ?? $0.entry.id,
                    reason: .associationRemoved(desktopID: $0.entry.id, scheme: $0.scheme))
            }
    }

    /// The offered choices as a running option orders them: with `first` or `use`, the ones
    /// that run first, each part in its order; a default the picker shows first stays first.
    private func orderedByRunning(
        _ offered: [InstalledApp], running: RunningChoices, option: Configuration.RunningOption?, defaultApp: String?
    ) -> [InstalledApp] {
        guard option == .first || option == .use, !offered.isEmpty else { return offered }
        if let defaultApp, offered[0].key == defaultApp {
            return [offered[0]] + RunningDecision.runningFirst(Array(offered.dropFirst()), running: running)
        }
        return RunningDecision.runningFirst(offered, running: running)
    }

    /// What a picker shows beside its title (SPEC §6.1): the link `handle` was given (as
    /// cleaned) or a local file's path, else the link an action takes (`url`), else the first
    /// parameter it is given (`profile_screenname=jack`).
    static func shownLink(of request: OpenRequest) -> String? {
        if let file = request.handledFile { return LinkForDisplay.text(file.text) }
        if let link = request.handledLink ?? request.link?.url { return LinkForDisplay.text(link) }
        if let url = request.parameters.last(where: { $0.0 == "url" })?.1 { return LinkForDisplay.text(url) }
        return request.parameters.first.map { LinkForDisplay.text("\($0.0)=\($0.1)") }
    }

    func siteRuleRouter() -> SiteRuleRouter {
        SiteRuleRouter(apps: apps, rules: rules, sources: sources, diagnostics: diagnostics)
    }

    /// The URL for the chosen app, or nil for a native app opened with no action (it just
    /// starts). A URL that is no URL, or would run script or inline data, is refused.
    private func buildURL(for chosen: InstalledApp, action: String?, parameters: [String: String], type: AppType) throws(ChoosyError)
        -> String?
    {
        let app = chosen.app
        let url: String
        if let action {
            let passed = app.parameterKeys(for: action)
            let dropped = parameters.keys.filter { !passed.contains($0) }.sorted()
            if !dropped.isEmpty {
                diagnostics.explain("\(app.key) does not take: \(dropped.joined(separator: ", "))")
            }
            url = app.url(for: action, parameters: parameters)
            let needed = app.urlFormat(for: action).map { URLTemplate($0).placeholders } ?? []
            if !needed.isEmpty, needed.allSatisfy({ (parameters[$0] ?? "").isEmpty }) {
                let opens = url.isEmpty ? "\(app.key) starts without one" : "\(app.key) opens \(url.prefix(80)) as it is"
                diagnostics.warning("\(action) needs \(needed.joined(separator: " or ")), and none was given: \(opens)")
                diagnostics.explain("pass one as KEY=VALUE (choosy describe \(type.key) lists the parameters)")
            }
        } else if chosen.isWebApp {
            diagnostics.explain("no action: opening the web app's address \(app.urlScheme)")
            url = app.urlScheme
        } else {
            diagnostics.explain("no action: starting \(app.key) without a URL")
            return nil
        }
        if let problem = LaunchableURL.problem(with: url) {
            throw .usage("refusing to open '\(url.prefix(60))' with \(app.key): \(problem)")
        }
        if chosen.isWebApp && !isWebURL(url) {
            throw .usage("refusing to open '\(url.prefix(60))' from web app \(app.key): only http(s) URLs go to the browser")
        }
        diagnostics.explain("URL: \(url)")
        return url
    }

    /// The command line that starts the choice with the plan's URL, and that URL as it gets it;
    /// for a `browser`, when a running option asks, what is done before it is handed the link.
    private func launch(_ chosen: InstalledApp, _ plan: inout OpenPlan, options: OpenOptions, browser: Bool) throws(ChoosyError) {
        guard let entry = chosen.entry else { throw .internal("\(chosen.app.key) has no desktop entry") }
        plan.privateWindow = options.privateWindow
        var form = chosen.launchForm(privateWindow: options.privateWindow)
        form.localFile = plan.request.handledFile?.path
        if browser, let whereabouts = whereabouts() {
            let runs = whereabouts.running(among: [chosen]).isRunning(chosen)
            let (action, reason) = RunningDecision.handOver(
                chosen, runs: runs, windows: runs ? whereabouts.windows(of: chosen) : nil, newWindowHere: whereabouts.newWindowHere,
                privateWindow: options.privateWindow)
            diagnostics.explain("before the hand-over: \(reason)")
            plan.handOver = HandOverStep(action: action, reason: reason)
            if case .newWindow(let arguments) = action { form.arguments += arguments }
        }
        if let container = chosen.profile?.container {
            diagnostics.explain("container: \(container), by the extension's ext+container: link")
        }
        if let action = form.action { diagnostics.explain("private window: \(entry.id)'s action '\(action.key)'") }
        plan.launchedURL = plan.url.map { chosen.profile?.launchedURL($0) ?? $0 }
        plan.argv = try launcher.argv(for: entry, url: plan.launchedURL, form: form)
    }
}

func isWebURL(_ url: String) -> Bool {
    let lowered = url.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
}
