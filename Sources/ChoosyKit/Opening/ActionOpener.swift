/// Does what a plan says (doc/ARCHITECTURE.md, "The route of one request"): asks the picker
/// when the plan waits for the user (and has `OpenPlanner` complete the plan with the answer),
/// remembers what the plan writes, runs the prepare hooks and launches. It gets what it uses
/// from the composition root (`Choosy`) and nothing else.
final class ActionOpener {
    /// How a picker is found when one is needed (the terminal is only looked at then).
    struct Pickers {
        /// The picker to show for a preference.
        var picker: (PickerPreference) throws(ChoosyError) -> any Picker
        /// The picker of the config file, when `CHOOSY_PICKER` does not name one.
        var configured: () -> String?
        var environment: Environment
    }

    let planner: OpenPlanner
    private let preferences: PreferenceStore
    private let rules: SiteRuleStore
    /// How often each choice was picked, for `order_by_use`.
    private let useCounts: UseCountStore
    /// The user's `mimeapps.list`, for *always* on a local file's type no app type claims.
    private let desktopDefaults: MimeAppsEditor
    private let hooks: HookRunner
    private let pickers: Pickers
    private let launcher: Launcher
    /// `handle`'s promise when no picker can be shown.
    private let fallback: SystemHandlerFallback
    /// What runs and where, to focus a window before the hand-over (doc/running.md).
    private let whereabouts: () -> RunningWhereabouts?
    private let diagnostics: DiagnosticSink

    init(
        planner: OpenPlanner, preferences: PreferenceStore, rules: SiteRuleStore, useCounts: UseCountStore,
        desktopDefaults: MimeAppsEditor, hooks: HookRunner,
        pickers: Pickers, launcher: Launcher, fallback: SystemHandlerFallback, whereabouts: @escaping () -> RunningWhereabouts?,
        diagnostics: DiagnosticSink
    ) {
        self.planner = planner
        self.preferences = preferences
        self.rules = rules
        self.useCounts = useCounts
        self.desktopDefaults = desktopDefaults
        self.hooks = hooks
        self.pickers = pickers
        self.launcher = launcher
        self.fallback = fallback
        self.whereabouts = whereabouts
        self.diagnostics = diagnostics
    }

    func open(_ request: OpenRequest) throws(ChoosyError) -> OpenResult {
        var answers = PlanAnswers()
        var plan = try planner.plan(request, answers: answers)
        var written: [PlannedWrite] = []
        while let pending = plan.pendingChoice {
            let (step, isBrowser) = pending
            write(plan, skipping: &written)
            let picked: PickedChoice
            do {
                picked = try ask(step, plan: plan)
            } catch {
                guard let unpicked = error.unpicked else { throw error }
                // A web link's own picker offered the browser: it takes the link, as without choosy.
                if !isBrowser, !step.webPage.isEmpty {
                    answers.noPicker = unpicked.reason
                    plan = try planner.plan(request, answers: answers)
                    continue
                }
                return try fallBack(plan, request: request, step: step, unpicked: unpicked, error: error)
            }
            if isBrowser { answers.browserChoice = picked } else { answers.typeChoice = picked }
            plan = try planner.plan(request, answers: answers)
        }
        write(plan, skipping: &written)
        try prepare(&plan, request: request, answers: &answers)
        var result = plan.result
        guard request.purpose == .launch, let chosen = plan.launched, let entry = chosen.entry else { return result }
        if case .focus(let window) = plan.handOver?.action {
            if request.options.dryRun {
                diagnostics.explain("dry run: not focusing window \(singleLine(window.id))")
            } else {
                _ = whereabouts()?.focus(window)
            }
        }
        if request.options.dryRun {
            diagnostics.explain("dry run: not starting \(entry.id)")
            return result
        }
        result.argv = try launcher.launch(entry, argv: plan.argv, url: plan.launchedURL, localFile: plan.request.handledFile?.path)
        diagnostics.explain("started \(entry.id): \(shellQuoted(result.argv))")
        return result
    }

    /// The prepare hooks of the plan (SPEC §8.4): the type's action's, then the browser's on
    /// the way round; parameters a hook changes make the plan again.
    private func prepare(_ plan: inout OpenPlan, request: OpenRequest, answers: inout PlanAnswers) throws(ChoosyError) {
        let options = plan.request.options
        let typeChosen = plan.browser == nil || plan.browser?.webApp != nil
        if let action = plan.action, typeChosen, let chosen = plan.choice?.chosen {
            let context = HookContext(type: plan.type, action: action, app: chosen.app, parameters: plan.parameters)
            switch hooks.prepare(context, configure: options.configure) {
            case .proceed(let updated) where updated != plan.parameters:
                answers.parameters = updated
                plan = try planner.plan(request, answers: answers)
            case .proceed: break
            case .cancel(let reason): throw .noChoice("cancelled: \(reason)")
            }
        } else if options.configure != nil && plan.browser == nil {
            diagnostics.explain("--configure needs an action; not run")
        }
        if let browser = plan.browser, let chosen = browser.choice.chosen, let action = browser.choice.type.knownAction("browse") {
            let parameters = answers.browserParameters ?? ["url": browser.url]
            let context = HookContext(type: browser.choice.type, action: action, app: chosen.app, parameters: parameters)
            switch hooks.prepare(context) {
            case .proceed(let updated) where updated != parameters:
                answers.browserParameters = updated
                plan = try planner.plan(request, answers: answers)
            case .proceed: break
            case .cancel(let reason): throw .noChoice("cancelled: \(reason)")
            }
        }
    }

    /// `handle` with no picker to show: the link opens as if choosy were not there
    /// (`SystemHandlerFallback`), just once; a choice of the candidates opens as if picked
    /// (its `--app` given to the same request). An explicit web app's address, not the link,
    /// waits for a browser: it goes to the system's browser, through the browser type.
    private func fallBack(_ plan: OpenPlan, request: OpenRequest, step: ChoiceStep, unpicked: UnpickedChoice, error: ChoosyError)
        throws(ChoosyError) -> OpenResult
    {
        let system: SystemHandlerFallback.Handlers
        let url: String?
        let webApp = plan.browser.flatMap { $0.webApp != nil ? $0 : nil }
        if let file = plan.request.handledFile, case .localFile(let mimeTypes, _, _) = plan.found {
            url = file.url
            system = SystemHandlerFallback.Handlers(mimeTypes: mimeTypes, described: "\(mimeTypes[0]) files", localFile: file.path)
        } else if plan.request.handledLink == nil && plan.type.key == "browser" && plan.action == nil && plan.request.parameters.isEmpty {
            // The browser with no link (SPEC §6.1): as the desktop would start it.
            url = nil
            system = SystemHandlerFallback.Handlers(mimeTypes: ["x-scheme-handler/https"], described: "https: links", noLink: true)
        } else {
            guard let link = plan.request.handledLink else { throw error }
            let opened = webApp?.url ?? link
            url = opened
            guard let scheme = URLParts(opened)?.scheme.lowercased() else { throw error }
            system = SystemHandlerFallback.Handlers(mimeTypes: ["x-scheme-handler/" + scheme], described: "\(scheme): links")
        }
        let type = webApp != nil ? step.type.key : plan.type.key
        var result = try fallback.open(url, system: system, type: type, unpicked: unpicked, options: request.options) {
            key throws(ChoosyError) in
            var once =
                webApp.map {
                    OpenRequest(type: $0.choice.type.key, action: "browse", parameters: [("url", $0.url)], options: request.options)
                }
                ?? request
            once.options.app = key
            return try open(once)
        }
        result.source = plan.sourceDesktopID
        return result
    }

    /// Writes what the plan remembers, each once; in a dry run, nothing.
    private func write(_ plan: OpenPlan, skipping written: inout [PlannedWrite]) {
        func name(_ type: String) -> String {
            type == plan.type.key ? plan.type.name : plan.browser?.choice.type.name ?? type
        }
        for planned in plan.writes where !written.contains(planned) {
            written.append(planned)
            guard !plan.request.options.dryRun else { continue }
            switch planned {
            case .forgetDefault(let type):
                remember("what changed among the apps of \(name(type))") { () throws(ChoosyError) in
                    try preferences.update(type) { $0.defaultApp = nil }
                }
            case .choice(let type, let app, let always, let shown):
                remember("the choice of \(app)") { () throws(ChoosyError) in
                    try preferences.update(type) { $0 = ChoiceDecider.preference(afterChoosing: app, always: always, installed: shown, $0) }
                    if always { diagnostics.explain("remembered \(app) as the default for \(name(type))") }
                }
            case .browserForLinks(let type, let always, let shown):
                remember("the choice of the browser") { () throws(ChoosyError) in
                    try preferences.update(type) { $0 = ChoiceDecider.preference(afterChoosingTheBrowser: always, installed: shown, $0) }
                    if always { diagnostics.explain("remembered: \(name(type)) links stay in the browser") }
                }
            case .rule(let site, let choice, let privateWindow):
                remember("\(choice) for the links of \(site)") { () throws(ChoosyError) in
                    try rememberRule(site: site, choice: choice, privateWindow: privateWindow)
                }
            case .useCount(let type, let choice):
                remember("how often \(choice) was picked") { () throws(ChoosyError) in try useCounts.count(choice, of: type) }
            case .desktopDefault(let mimeType, let id):
                remember("\(id) as the default for \(mimeType)") { () throws(ChoosyError) in
                    try desktopDefaults.setDefaults([mimeType: [id]])
                    diagnostics.explain(
                        "remembered \(id) as the default for \(mimeType) in \(desktopDefaults.path), as xdg-mime default writes it")
                }
            }
        }
    }

    /// Remembering is a side effect of opening: when its file cannot be written (a corrupt one
    /// that cannot be moved aside, one a newer choosy wrote, a read-only directory) the link
    /// still opens, and a warning says what was not kept.
    private func remember(_ what: @autoclosure () -> String, _ write: () throws(ChoosyError) -> Void) {
        do {
            try write()
        } catch {
            diagnostics.warning("\(what()) was not remembered: \(error.message)")
        }
    }

    /// Shows the step's picker: its candidates, then the browsers for the web page ("Firefox (web page)").
    private func ask(_ step: ChoiceStep, plan: OpenPlan) throws(ChoosyError) -> PickedChoice {
        let candidates = step.candidates.map(\.choice)
        let pickerCandidates =
            step.candidates.map { candidate in
                PickerCandidate(
                    appKey: candidate.choice.key, displayName: candidate.choice.displayName + (candidate.running ? " (running)" : ""),
                    icon: candidate.choice.entry?.icon, isDefault: candidate.choice.key == step.defaultApp
                )
            }
            + step.webPage.map { browser in
                PickerCandidate(
                    appKey: browser.key, displayName: browser.displayName + " (web page)", icon: browser.entry?.icon, isDefault: false)
            }
        // --picker, then CHOOSY_PICKER, then the config file's picker, then auto.
        let options = plan.request.options
        let configured = pickers.environment["CHOOSY_PICKER"] == nil ? pickers.configured() : nil
        let preference = PickerPreference.resolve(option: options.picker ?? configured, environment: pickers.environment)
        let picker = try pickers.picker(preference)
        // The site is found only when the picker makes its lines; the link's host sizes the picker.
        let webLink = (try? WebLink(plan.request, type: plan.type, action: plan.action)) ?? nil
        let asked = PickerRequest(
            title: step.title, link: step.link, candidates: pickerCandidates, allowAlways: step.allowAlways,
            siteHost: webLink?.url.host.domainName, site: self.ruleSite(for: webLink))
        func choice(_ index: Int, always: Bool, site: String?) -> PickedChoice {
            let webPage = index >= candidates.count
            let key = webPage ? step.webPage[index - candidates.count].key : candidates[index].key
            return PickedChoice(key: key, always: always, site: site, webPage: webPage)
        }
        switch try picker.choose(asked) {
        case .justOnce(let index): return choice(index, always: false, site: nil)
        case .always(let index): return choice(index, always: step.allowAlways, site: nil)
        case .alwaysForSite(let index): return choice(index, always: false, site: asked.site)
        case .cancelled: throw .noChoice("cancelled: no app was chosen")
        case .notShown(let reason):
            // `handle` then opens the link in the user's own default as chosen (its profile
            // too), when it can take it; a container has no private window.
            let privateWindow = plan.request.options.privateWindow
            let launchable = (candidates + step.webPage).filter { !privateWindow || $0.profile?.container == nil }.compactMap {
                choice in choice.entry.map { UnpickedChoice.Candidate(key: choice.key, name: choice.displayName, desktopID: $0.id) }
            }
            let userDefault = launchable.first { $0.key == step.defaultApp }?.key
            var error = ChoosyError.noPickerAvailable(
                typeName: step.type.name, candidates: pickerCandidates, launchable: launchable, userDefault: userDefault, reason: reason)
            error.unpicked?.hiddenEntries = step.hiddenEntries
            throw error
        }
    }

    /// The site a picker's *always for SITE* writes a rule for: the web link's registrable
    /// domain by the Public Suffix List (libpsl is loaded only once a picker makes its lines).
    private func ruleSite(for link: WebLink?) -> String? {
        guard let link else { return nil }
        do {
            return try PublicSuffixList.load().registrableDomain(of: link.url.host)
        } catch {
            diagnostics.explain("no 'always for a site' choice: \(error.reason)")
            return nil
        }
    }

    /// *Always for SITE*: links of the site open with this choice (an app, or an app's
    /// profile) from now on, in a private window when this one was.
    private func rememberRule(site text: String, choice: String, privateWindow: Bool) throws(ChoosyError) {
        let site: Site
        do {
            site = try Site(parsing: text)
        } catch {
            throw .internal("the registrable domain '\(text)' is no site: \(error.reason)")
        }
        let (app, profile) = ChoiceKey.split(choice)
        try rules.modify(whenCorrupt: SiteRuleStore.goOnWithoutRules) { rules in
            rules.add(SiteRule(site: site, target: .app(key: app, profile: profile, privateWindow: privateWindow)))
        }
        diagnostics.explain("remembered \(choice) for the links of \(site.text) (a site rule in \(rules.path))")
    }
}
