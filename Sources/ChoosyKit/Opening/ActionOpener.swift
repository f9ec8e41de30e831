/// The open flow: resolve the type and action, find the installed apps, decide (default,
/// picker, …), remember, run the prepare hooks, build the URL with only the parameters the
/// chosen app supports, and launch it, web apps through the browser type. It gets what it
/// uses from the composition root (`Choosy`) and nothing else.
final class ActionOpener {
    /// How a picker is found when one is needed (the terminal is only looked at then).
    struct Pickers {
        /// The picker to show for a preference.
        var picker: (PickerPreference) throws(ChoosyError) -> any Picker
        /// The picker of the config file, when `CHOOSY_PICKER` does not name one.
        var configured: () -> String?
        var environment: Environment
    }

    private let apps: InstalledAppDirectory
    private let preferences: PreferenceStore
    private let rules: SiteRuleStore
    private let sources: LinkSources
    private let hooks: HookRunner
    private let pickers: Pickers
    private let launcher: Launcher
    /// `CHOOSY_ALWAYS_DISPLAY_PICKER=1`.
    private let alwaysShowPicker: Bool
    private let diagnostics: DiagnosticSink

    init(
        apps: InstalledAppDirectory, preferences: PreferenceStore, rules: SiteRuleStore, sources: LinkSources, hooks: HookRunner,
        pickers: Pickers, launcher: Launcher, alwaysShowPicker: Bool, diagnostics: DiagnosticSink
    ) {
        self.apps = apps
        self.preferences = preferences
        self.rules = rules
        self.sources = sources
        self.hooks = hooks
        self.pickers = pickers
        self.launcher = launcher
        self.alwaysShowPicker = alwaysShowPicker
        self.diagnostics = diagnostics
    }

    func open(_ request: OpenRequest) throws(ChoosyError) -> OpenResult {
        var request = request
        let type = try apps.appType(request.type)
        let action = try resolveAction(request.action, in: type)
        var parameters = try collect(request.parameters, for: type)
        var installed = try apps.installedApps(of: type)
        if let link = request.link { installed = link.allowed(installed, type: type) }
        if let link = try WebLink(request, type: type, action: action) {
            let decision = try siteRuleRouter().decide(link, type: type, installed: installed, options: request.options, from: request.from)
            switch decision {
            case .none: break
            case .ask: request.options.choose = true
            case .app(let rule): request.options.apply(rule)
            case .browser(let rule):
                var ruled = request
                ruled.options.apply(rule)
                return try openInBrowser(link.text, request: ruled, browser: ruled.options.app)
            }
        }
        if let link = request.link, type.key != "browser" {
            // `--app` with a browser: it gets the link as it is.
            if let key = request.options.app, type.app(ChoiceKey.split(key).app) == nil {
                diagnostics.explain("--app \(key) is no app of \(type.name): opening the link as it is in that browser")
                return try openInBrowser(link.url, request: request, browser: key, choose: request.options.choose)
            }
            // A web app of the type is the browser by another name: with no native app that
            // can do what the link means, the browser gets it as it is (and `--choose` asks
            // there), unless `--app` names a web app of another service.
            let nativeCanTakeIt =
                action.map { action in installed.contains { !$0.isWebApp && $0.app.urlFormat(for: action.key) != nil } } ?? false
            if !nativeCanTakeIt {
                let named = try request.options.app.map { key throws(ChoosyError) in try apps.choice(key, in: type) }
                // A choice is kept or refused, never swapped for the browser.
                if let named, !named.isWebApp, let action, named.app.urlFormat(for: action.key) == nil {
                    throw .unavailable(
                        "\(named.app.name) (\(named.app.key)) cannot \(action.key) this link; leave out --app to open it in the browser")
                }
                if named.map({ !$0.isWebApp || $0.app.isOwnService(of: link.web) }) ?? true {
                    diagnostics.explain("no installed app of \(type.name) takes this link; opening it in the browser")
                    return try openInBrowser(link.url, request: request, choose: request.options.choose)
                }
            }
            if request.options.app == nil, !request.options.choose, preferences.preference(for: type.key).linksInBrowser {
                diagnostics.explain("the browser was picked always for \(type.name) links (choosy reset \(type.key) forgets it)")
                return try openInBrowser(link.url, request: request)
            }
        }
        // Never worse than the browser (doc/links-and-rules.md): a web link's picker offers it too.
        let webPage = request.link != nil && type.key != "browser" && request.options.app == nil
        let chosen: InstalledApp
        do {
            chosen = try choose(type: type, action: action, installed: installed, request: request, offersWebPage: webPage)
        } catch {
            guard error.unpicked != nil, webPage, let link = request.link else { throw error }
            diagnostics.explain("no picker available: the link opens in the browser, as it would without choosy")
            return try openInBrowser(link.url, request: request)
        }
        // Only the browsers offered as the web page are apps of another type.
        if let link = request.link, type.app(chosen.app.key) == nil {
            diagnostics.explain("\(chosen.key) was picked: the link opens as it is in that browser")
            return try openInBrowser(link.url, request: request, browser: chosen.key)
        }

        if let action {
            let context = HookContext(type: type, action: action, app: chosen.app, parameters: parameters)
            switch hooks.prepare(context, configure: request.options.configure) {
            case .proceed(let updated): parameters = updated
            case .cancel(let reason): throw .noChoice("cancelled: \(reason)")
            }
        } else if request.options.configure != nil {
            diagnostics.explain("--configure needs an action; not run")
        }

        if chosen.isWebApp, let link = request.link, !chosen.app.isOwnService(of: link.web) {
            // A web app of another service (OpenStreetMap for a Google Maps link) gets its own
            // URL for the action, or the choice is refused, never silently swapped.
            guard let action, chosen.app.urlFormat(for: action.key) != nil else {
                throw .unavailable(
                    "\(chosen.app.name) (\(chosen.app.key)) has no address for \(action?.key ?? "this link"); the link was not opened")
            }
            diagnostics.explain("\(chosen.app.key) is a web app of another site: it gets its own address for \(action.key)")
        } else if chosen.isWebApp, let link = request.link {
            diagnostics.explain("\(chosen.app.key) is a web app: opening the link as it is in the browser")
            var result = try openInBrowser(link.url, request: request)
            result.via = OpenResult.Via(type: result.type, app: result.app)
            (result.type, result.action, result.app) = (type.key, action?.key, chosen.app.key)
            return result
        }
        let url = try buildURL(for: chosen, action: action?.key, parameters: parameters, type: type)
        var result = OpenResult(type: type.key, action: action?.key, app: chosen.key, url: url, argv: [], desktopID: chosen.entry?.id)
        guard request.purpose == .launch else { return result }

        if chosen.entry != nil {
            result.argv = try launch(chosen, url: url, options: request.options)
        } else if let url {
            let browser = try openInBrowser(url, request: request, builtByWebApp: true)
            result.argv = browser.argv
            result.desktopID = browser.desktopID
            result.via = OpenResult.Via(type: browser.type, app: browser.app)
        }
        return result
    }

    /// A whole link for one of `candidates` (apps of `type` registered for its scheme): the
    /// app gets the link unchanged.
    func open(link: String, type: AppType, candidates: [InstalledApp], options: OpenOptions) throws(ChoosyError) -> OpenResult {
        if let problem = LaunchableURL.problem(with: link) {
            throw .usage("refusing to open '\(link.prefix(60))': \(problem)")
        }
        let request = OpenRequest(type: type.key, action: nil, parameters: [], options: options)
        let chosen = try choose(type: type, action: nil, installed: candidates, request: request, offersWebPage: false)
        guard let entry = chosen.entry else { throw .internal("\(chosen.app.key) has no desktop entry") }
        let argv = try launch(chosen, url: link, options: options)
        return OpenResult(type: type.key, action: nil, app: chosen.key, url: link, argv: argv, desktopID: entry.id)
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
        let used = Set(
            type.parameters.map(\.key) + type.apps.flatMap { app in app.actions.flatMap { URLTemplate($0.urlFormat).placeholders } })
        for (key, value) in pairs {
            if !used.contains(key), let near = suggestion(for: key, among: Array(used)) {
                throw .usage("no app of \(type.name) uses parameter '\(key)' (did you mean '\(near)'?)")
            }
            parameters[key] = value
        }
        return parameters
    }

    /// `offersWebPage`: the picker offers the browser's choices too, after the apps.
    private func choose(type: AppType, action: Action?, installed: [InstalledApp], request: OpenRequest, offersWebPage: Bool)
        throws(ChoosyError) -> InstalledApp
    {
        let chosen = try decide(type: type, action: action, installed: installed, request: request, offersWebPage: offersWebPage)
        // A web app's private window is the browser's, decided when it goes round through it.
        if request.options.privateWindow && !chosen.isWebApp {
            try chosen.requirePrivateWindow(among: installed, typeName: type.name)
        }
        return chosen
    }

    private func decide(type: AppType, action: Action?, installed: [InstalledApp], request: OpenRequest, offersWebPage: Bool)
        throws(ChoosyError) -> InstalledApp
    {
        let options = request.options
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
        if let action {
            let supporting = candidates.filter { $0.app.urlFormat(for: action.key) != nil }
            if supporting.isEmpty {
                diagnostics.explain("no installed app supports '\(action.key)'; offering every installed app, opened as it is")
            } else {
                candidates = supporting
            }
        }
        if options.privateWindow {
            // Only apps that open private windows are offered; a default that cannot is refused.
            let able = candidates.filter { $0.isWebApp || $0.opensPrivateWindows }
            if able.isEmpty, let first = candidates.first {
                try first.requirePrivateWindow(among: installed, typeName: type.name)
            }
            if forced == nil, !options.choose, let remembered = preferences.preference(for: type.key).defaultApp,
                let current = choices.choice(remembered), !current.isWebApp, !current.opensPrivateWindows
            {
                try current.requirePrivateWindow(among: installed, typeName: type.name)
            }
            candidates = able
        }
        candidates = apps.systemDefaultFirst(candidates)

        let remembers = request.purpose == .launch && !options.dryRun && !options.noRemember
        let preference = preferences.preference(for: type.key)
        let shown = choices.offered.map(\.key)
        let situation = ChoiceSituation(
            installed: shown, candidates: candidates.map(\.key), preference: preference, unoffered: choices.unofferedKeys,
            forcedApp: forced?.key, choose: options.choose, alwaysPicker: alwaysShowPicker, offersWebPage: offersWebPage
        )
        let decision = ChoiceDecider.decide(situation)
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
            if let forced { return forced }
            return candidates.first { $0.key == key } ?? choices.choice(key)!
        case .pick(let keys, let forgetDefault, let reason):
            diagnostics.explain("showing the picker: \(reason)")
            if remembers, let updated = ChoiceDecider.preferenceBeforePicking(decision, preference) {
                remember("what changed among the apps of \(type.name)") { () throws(ChoosyError) in
                    try preferences.update(type.key) { $0 = updated }
                }
            }
            // The default may be a key that is not offered by itself (`ChoiceDecider.first`).
            // By key once, so that thousands of candidates cost n log n, not n² (doc/security.md).
            let byKey = Dictionary(candidates.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            let ordered = keys.compactMap { key in byKey[key] ?? choices.choice(key) }
            let browsers = offersWebPage ? try apps.choices(of: try apps.appType("browser")).offered.filter { !$0.isWebApp } : []
            let remembered = forgetDefault ? nil : preference.defaultApp
            let answer = try pick(ordered, webPage: browsers, type: type, action: action, defaultApp: remembered, request: request)
            let chosen = answer.index < ordered.count ? ordered[answer.index] : browsers[answer.index - ordered.count]
            let isWebPage = answer.index >= ordered.count
            if remembers {
                remember("the choice of \(chosen.key)") { () throws(ChoosyError) in
                    try preferences.update(type.key) { current in
                        current =
                            isWebPage
                            ? ChoiceDecider.preference(afterChoosingTheBrowser: answer.always, installed: shown, current)
                            : ChoiceDecider.preference(afterChoosing: chosen.key, always: answer.always, installed: shown, current)
                    }
                    if answer.always {
                        diagnostics.explain(
                            isWebPage
                                ? "remembered: \(type.name) links stay in the browser"
                                : "remembered \(chosen.key) as the default for \(type.name)")
                    }
                }
            }
            if let site = answer.site {
                remember("\(chosen.key) for the links of \(site)") { () throws(ChoosyError) in
                    try rememberRule(site: site, choice: chosen.key, privateWindow: request.options.privateWindow)
                }
            }
            return chosen
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

    func siteRuleRouter() -> SiteRuleRouter {
        SiteRuleRouter(apps: apps, rules: rules, sources: sources, diagnostics: diagnostics)
    }

    /// `webPage`: browsers offered after the apps, for the link as it is ("Firefox (web page)").
    private func pick(
        _ candidates: [InstalledApp], webPage: [InstalledApp], type: AppType, action: Action?, defaultApp: String?, request: OpenRequest
    ) throws(ChoosyError) -> (index: Int, always: Bool, site: String?) {
        let options = request.options
        // "(always)" is offered only when the answer can be remembered.
        let allowAlways = request.purpose == .launch && !options.noRemember && !options.dryRun
        let title = options.title ?? "\(type.name): \(action?.name ?? "Open") with…"
        let pickerCandidates =
            candidates.map { installed in
                PickerCandidate(
                    appKey: installed.key, displayName: installed.displayName,
                    icon: installed.entry?.icon, isDefault: installed.key == defaultApp
                )
            }
            + webPage.map { browser in
                PickerCandidate(
                    appKey: browser.key, displayName: browser.displayName + " (web page)", icon: browser.entry?.icon, isDefault: false)
            }
        // --picker, then CHOOSY_PICKER, then the config file's picker, then auto.
        let configured = pickers.environment["CHOOSY_PICKER"] == nil ? pickers.configured() : nil
        let preference = PickerPreference.resolve(option: options.picker ?? configured, environment: pickers.environment)
        let picker = try pickers.picker(preference)
        // The site is found only when the picker makes its lines.
        let asked = PickerRequest(
            title: title, candidates: pickerCandidates, allowAlways: allowAlways,
            site: self.ruleSite(for: request, type: type, action: action))
        switch try picker.choose(asked) {
        case .justOnce(let index): return (index, false, nil)
        case .always(let index): return (index, allowAlways, nil)
        case .alwaysForSite(let index): return (index, false, asked.site)
        case .cancelled: throw .noChoice("cancelled: no app was chosen")
        case .notShown(let reason):
            // `handle` then opens the link in the user's own default as chosen (its profile
            // too), when it can take it; a container has no private window.
            let launchable = (candidates + webPage).filter { !options.privateWindow || $0.profile?.container == nil }.compactMap {
                choice in choice.entry.map { UnpickedChoice.Candidate(key: choice.key, name: choice.displayName, desktopID: $0.id) }
            }
            let userDefault = launchable.first { $0.key == defaultApp }?.key
            throw .noPickerAvailable(
                typeName: type.name, candidates: pickerCandidates, launchable: launchable, userDefault: userDefault, reason: reason)
        }
    }

    /// The site a picker's *always for SITE* writes a rule for: the web link's registrable
    /// domain by the Public Suffix List (libpsl is loaded only once a picker makes its lines).
    private func ruleSite(for request: OpenRequest, type: AppType, action: Action?) -> String? {
        guard let link = (try? WebLink(request, type: type, action: action)) ?? nil else { return nil }
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

    private func launch(_ chosen: InstalledApp, url: String?, options: OpenOptions) throws(ChoosyError) -> [String] {
        guard let entry = chosen.entry else { throw .internal("\(chosen.app.key) has no desktop entry") }
        let form = chosen.launchForm(privateWindow: options.privateWindow)
        let url = url.map { chosen.profile?.launchedURL($0) ?? $0 }
        if let container = chosen.profile?.container {
            diagnostics.explain("container: \(container), by the extension's ext+container: link")
        }
        if let action = form.action { diagnostics.explain("private window: \(entry.id)'s action '\(action.key)'") }
        if options.dryRun {
            let argv = try launcher.argv(for: entry, url: url, form: form)
            diagnostics.explain("dry run: not starting \(entry.id)")
            return argv
        }
        let argv = try launcher.launch(entry, url: url, form: form)
        diagnostics.explain("started \(entry.id): \(shellQuoted(argv))")
        return argv
    }

    /// Web apps open in the browser type's app: its default, or its picker.
    /// `browser`: the browser a site rule or `--app` names. `builtByWebApp`: the URL is an
    /// address a web app built, not a link the user opened, so site rules do not apply.
    private func openInBrowser(
        _ url: String, request: OpenRequest, browser: String? = nil, choose: Bool = false, builtByWebApp: Bool = false
    ) throws(ChoosyError) -> OpenResult {
        var options = OpenOptions()
        options.app = browser
        options.choose = choose
        options.picker = request.options.picker
        options.noRemember = request.options.noRemember
        options.dryRun = request.options.dryRun
        options.privateWindow = request.options.privateWindow
        diagnostics.explain("web app: opening \(url) through the browser type")
        var browse = OpenRequest(type: "browser", action: "browse", parameters: [("url", url)], options: options, link: request.link)
        browse.builtByWebApp = builtByWebApp
        return try open(browse)
    }
}

func isWebURL(_ url: String) -> Bool {
    let lowered = url.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
}

extension App {
    /// A web app is the link's own service when the link's host lies within the app's
    /// (`www.` aside): matrix.to for a matrix.to link, x.com for `mobile.x.com`.
    func isOwnService(of link: WebURL) -> Bool {
        guard let host = (try? WebURL(parsing: urlScheme))?.host.domainName else { return false }
        let site = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        return link.host.isWithin(.domain(site))
    }
}
