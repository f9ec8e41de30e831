import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The open flow with every side effect faked: which app is launched with which argv, when the
/// picker is shown, and what is remembered. Nothing touches the disk or starts a process.
@Suite struct ActionOpenerTests {
    let fileSystem = FakeFileSystem()
    let runner = FakeProcessRunner()
    let apps = FakeAppDirectory()
    let environment = Environment(["HOME": "/home/ada", "DISPLAY": ":0", "PATH": "/usr/bin"])
    let diagnostics = RecordingDiagnostics(verbose: true)

    static let firefox = App(
        key: "firefox", name: "Firefox", urlScheme: "http:", desktopIDs: ["firefox.desktop"],
        actions: [AppAction(key: "browse", urlFormat: "{{url}}")])
    static let chromium = App(
        key: "chromium", name: "Chromium", urlScheme: "http:", desktopIDs: ["chromium.desktop"],
        actions: [AppAction(key: "browse", urlFormat: "{{url}}")])
    static let lynx = App(
        key: "lynx", name: "Lynx", urlScheme: "http:", desktopIDs: ["lynx.desktop"],
        actions: [AppAction(key: "browse", urlFormat: "{{url}}")])

    init() {
        apps.types["browser"] = AppType(
            key: "browser", name: "Browser", parameters: [Parameter(key: "url", name: "URL")],
            actions: [Action(key: "browse", name: "Browse")], apps: [Self.firefox, Self.chromium, Self.lynx]
        )
        apps.install(Self.firefox, of: "browser", program: "firefox")
        apps.install(Self.chromium, of: "browser", program: "chromium")
    }

    var preferences: PreferenceStore {
        PreferenceStore(
            environment: environment, fileSystem: fileSystem, warnings: CorruptFileWarnings(diagnostics: diagnostics), clock: FakeClock())
    }

    var rules: SiteRuleStore {
        SiteRuleStore(
            environment: environment, fileSystem: fileSystem, warnings: CorruptFileWarnings(diagnostics: diagnostics), clock: FakeClock())
    }

    /// `/proc` as the fixture trees of `fileSystem` hold it.
    var sources: LinkSources {
        LinkSources(
            source: { [fileSystem, diagnostics] in
                LinkSourceFinder(declared: nil, fileSystem: fileSystem, diagnostics: diagnostics) { _ in nil }.find()
            },
            names: { SourceNames(apps: { [("slack", ["com.slack.Slack.desktop"])] }, entryExists: { _ in true }).rule($0, names: $1) },
            desktopID: { $0 }
        )
    }

    /// What the user hid and ordered (config.json), for the planner.
    var arrangement = ChoiceArrangement(hidden: [], order: [], orderByUse: false)

    var useCounts: UseCountStore {
        UseCountStore(
            environment: environment, fileSystem: fileSystem, warnings: CorruptFileWarnings(diagnostics: diagnostics), clock: FakeClock())
    }

    func opener(_ picker: ScriptedPicker) -> ActionOpener {
        let launcher = Launcher(environment: environment, runner: runner, fileSystem: fileSystem, diagnostics: diagnostics)
        let index = DesktopEntryIndex(environment: environment, fileSystem: fileSystem, clock: FakeClock())
        let probe = AppProbe(
            index: index, mimeApps: MimeAppsList(environment: environment, index: index, fileSystem: fileSystem), locale: nil)
        let catalog = Catalog(
            cache: CatalogCache(environment: environment, fileSystem: fileSystem),
            userCatalog: UserCatalog(environment: environment, fileSystem: fileSystem), network: nil, clock: FakeClock(),
            diagnostics: diagnostics)
        return ActionOpener(
            planner: OpenPlanner(
                apps: apps, preferences: preferences, rules: rules, sources: sources,
                classifier: LinkClassifier(catalog: catalog, diagnostics: diagnostics), launcher: launcher,
                mimeTypes: MimeDatabase(environment: environment, fileSystem: fileSystem), alwaysShowPicker: false,
                whereabouts: { nil }, arrangement: arrangement, useCounts: useCounts, diagnostics: diagnostics),
            preferences: preferences, rules: rules, useCounts: useCounts,
            desktopDefaults: MimeAppsEditor(environment: environment, fileSystem: fileSystem),
            hooks: HookRunner(environment: environment, diagnostics: diagnostics, processRunner: runner, fileSystem: fileSystem),
            pickers: ActionOpener.Pickers(picker: { _ in picker }, configured: { nil }, environment: environment),
            launcher: launcher,
            fallback: SystemHandlerFallback(
                probe: probe, previousHandler: { _ in nil }, launcher: launcher,
                notifier: DesktopNotifier(environment: environment, runner: runner, fileSystem: fileSystem), diagnostics: diagnostics),
            whereabouts: { nil }, diagnostics: diagnostics
        )
    }

    func browse(_ url: String, _ picker: ScriptedPicker, options: OpenOptions = OpenOptions()) throws(ChoosyError) -> OpenResult {
        try opener(picker).open(OpenRequest(type: "browser", action: "browse", parameters: [("url", url)], options: options))
    }

    var spawned: [[String]] { runner.spawned.withLock { $0 } }

    func addRules(_ added: SiteRule...) throws {
        try rules.modify(whenCorrupt: .refuse) { rules in for rule in added { rules.add(rule) } }
    }

    static func rule(_ site: String, _ app: String, from: String? = nil) throws -> SiteRule {
        SiteRule(site: site == "*" ? nil : try Site(parsing: site), target: .app(key: app, profile: nil, privateWindow: false), from: from)
    }

    @Test func withoutARuleThatNamesASourceNothingOfProcIsRead() throws {
        let proc = ProcFixture(selfParent: 40, in: fileSystem)
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["slack"], environment: LinkSourceFinderTests.gio)
        try addRules(try Self.rule("example.org", "chromium"))
        fileSystem.looked.withLock { $0.removeAll() }
        #expect(try browse("https://example.org/", ScriptedPicker()).app == "chromium")
        #expect(!fileSystem.looked.withLock { $0 }.contains { $0.hasPrefix("/proc") })
        try addRules(try Self.rule("*", "firefox", from: "thunderbird.desktop"))
        #expect(try browse("https://example.org/", ScriptedPicker()).app == "chromium", "a rule for another source")
        #expect(fileSystem.looked.withLock { $0 }.contains("/proc/40/environ"), "once a rule names a source, it is looked for")
    }

    @Test func aRuleForTheLinksSourceDecidesBeforeTheSiteRuleAndAnOtherSourceFollowsTheSiteRule() throws {
        let proc = ProcFixture(selfParent: 40, in: fileSystem)
        proc.process(40, parent: 1, exe: "/app/bin/slack", arguments: ["slack"], environment: LinkSourceFinderTests.gio)
        try addRules(try Self.rule("example.org", "firefox"), try Self.rule("*", "chromium", from: "slack"))
        #expect(try browse("https://example.org/", ScriptedPicker()).app == "chromium")
        #expect(diagnostics.explanations.contains("the site rule '* --from slack' decides: chromium"))
        var request = OpenRequest(type: "browser", action: "browse", parameters: [("url", "https://example.org/")])
        request.from = "thunderbird.desktop"
        #expect(try opener(ScriptedPicker()).open(request).app == "firefox", "the source named instead of the one found")
        var forced = OpenOptions()
        forced.app = "firefox"
        #expect(try browse("https://example.org/", ScriptedPicker(), options: forced).app == "firefox", "--app first")
    }

    @Test func theFirstChoiceIsAskedRememberedAndThenUsed() throws {
        let picker = ScriptedPicker(.always(1))
        let result = try browse("https://example.org/1", picker)
        #expect(picker.shownNames == [["Firefox", "Chromium"]])
        #expect(result.app == "chromium" && result.argv == ["chromium", "https://example.org/1"])
        #expect(preferences.preference(for: "browser") == TypePreference(defaultApp: "chromium", seen: ["firefox", "chromium"]))

        let again = ScriptedPicker()
        #expect(try browse("https://example.org/2", again).app == "chromium")
        #expect(again.shownNames.isEmpty)
        #expect(spawned == [["chromium", "https://example.org/1"], ["chromium", "https://example.org/2"]])
        #expect(runner.ran.withLock { $0 }.isEmpty, "no hook, no process")
    }

    @Test mutating func hiddenChoicesAreLeftOutAndOrderAndPicksArrangeTheRest() throws {
        apps.install(Self.lynx, of: "browser", program: "lynx")
        arrangement = ChoiceArrangement(hidden: ["chromium"], order: ["lynx"], orderByUse: true)
        let picker = ScriptedPicker(.justOnce(1), .justOnce(1), .justOnce(0))
        #expect(try browse("https://example.org/1", picker).app == "firefox")
        #expect(try browse("https://example.org/2", picker).app == "firefox")
        #expect(useCounts.counts(for: "browser") == ["firefox": 2])
        // Hiding Lynx too leaves Firefox alone: it opens without asking.
        arrangement = ChoiceArrangement(hidden: ["chromium", "lynx.desktop"], order: [], orderByUse: false)
        #expect(try browse("https://example.org/3", picker).app == "firefox")
        #expect(picker.shownNames == [["Lynx", "Firefox"], ["Lynx", "Firefox"]])
        // A hidden default is still the default.
        try preferences.update("browser") { $0.defaultApp = "chromium" }
        try preferences.update("browser") { $0.seen = ["firefox", "chromium", "lynx"] }
        #expect(try browse("https://example.org/4", ScriptedPicker()).app == "chromium")
    }

    @Test mutating func orderByUseKeepsTheDefaultFirst() throws {
        apps.install(Self.lynx, of: "browser", program: "lynx")
        arrangement = ChoiceArrangement(hidden: [], order: [], orderByUse: true)
        try useCounts.count("lynx", of: "browser")
        try preferences.update("browser") { $0.defaultApp = "chromium" }
        var options = OpenOptions()
        options.choose = true
        let picker = ScriptedPicker(.justOnce(0))
        _ = try browse("https://example.org/", picker, options: options)
        #expect(picker.shownNames == [["Chromium", "Lynx", "Firefox"]])
    }

    @Test func aNewAppAsksAgainWithTheDefaultFirstAndJustOnceKeepsIt() throws {
        _ = try browse("https://example.org/1", ScriptedPicker(.always(0)))
        apps.install(Self.lynx, of: "browser", program: "lynx")
        let picker = ScriptedPicker(.justOnce(2))
        #expect(try browse("https://example.org/2", picker).app == "lynx")
        #expect(picker.shownNames == [["Firefox", "Chromium", "Lynx"]])
        // The default stays, and the new app is no longer new.
        #expect(preferences.preference(for: "browser") == TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium", "lynx"]))
        #expect(try browse("https://example.org/3", ScriptedPicker()).app == "firefox")
    }

    @Test func aRemovedDefaultIsForgottenAndTheUserAsked() throws {
        _ = try browse("https://example.org/1", ScriptedPicker(.always(1)))
        apps.installed["browser"]!.removeAll { $0.app.key == "chromium" }
        apps.install(Self.lynx, of: "browser", program: "lynx")
        let picker = ScriptedPicker(.cancelled)
        #expect(throws: ChoosyError.noChoice("cancelled: no app was chosen")) { try browse("https://example.org/2", picker) }
        #expect(preferences.preference(for: "browser").defaultApp == nil)
        #expect(spawned.count == 1)
    }

    @Test func appAndDryRunRememberNothingAndDryRunStartsNothing() throws {
        var options = OpenOptions()
        options.app = "chromium"
        #expect(try browse("https://example.org/1", ScriptedPicker(), options: options).argv == ["chromium", "https://example.org/1"])
        options = OpenOptions()
        options.dryRun = true
        let picker = ScriptedPicker(.justOnce(0))
        #expect(try browse("https://example.org/2", picker, options: options).argv == ["firefox", "https://example.org/2"])
        #expect(picker.shown.withLock { $0.first?.allowAlways } == false)
        #expect(spawned == [["chromium", "https://example.org/1"]])
        #expect(fileSystem.writes.withLock { $0 }.isEmpty)
    }

    @Test func anAppThatIsNotInstalledOrUnknownIsRefused() {
        var options = OpenOptions()
        options.app = "lynx"
        #expect(throws: ChoosyError.unavailable("Lynx (lynx) is not installed")) {
            try browse("https://example.org/", ScriptedPicker(), options: options)
        }
        options.app = "lnyx"
        #expect(throws: ChoosyError.unknown("unknown app 'lnyx' for Browser (did you mean 'lynx'?)")) {
            try browse("https://example.org/", ScriptedPicker(), options: options)
        }
        #expect(spawned.isEmpty)
    }

    // MARK: The plan

    /// Planning reads only: a choice still to make is a plan that waits for the picker, and the
    /// answer completes it with what doing it would write; nothing is written or started.
    @Test func planningReadsOnlyAndTheAnswerCompletesThePlan() throws {
        let request = OpenRequest(type: "browser", action: "browse", parameters: [("url", "https://example.org/")])
        let planner = opener(ScriptedPicker()).planner
        let waiting = try planner.plan(request)
        #expect(waiting.pendingChoice?.step.candidates.map(\.choice.key) == ["firefox", "chromium"])
        #expect(waiting.launched == nil && waiting.argv.isEmpty && waiting.writes.isEmpty)
        var answers = PlanAnswers()
        answers.typeChoice = PickedChoice(key: "chromium", always: true, site: nil, webPage: false)
        let answered = try planner.plan(request, answers: answers)
        #expect(answered.decision?.by == .picker)
        #expect(answered.argv == ["chromium", "https://example.org/"])
        #expect(answered.writes == [.choice(type: "browser", app: "chromium", always: true, shown: ["firefox", "chromium"])])
        #expect(fileSystem.writes.withLock { $0 }.isEmpty && spawned.isEmpty)
    }

    /// `why`: every other app of the type, with why it is not a candidate.
    @Test func explainingNamesTheAppsThatAreNoCandidates() throws {
        var options = OpenOptions()
        options.app = "firefox"
        let request = OpenRequest(type: "browser", action: "browse", parameters: [("url", "https://example.org/")], options: options)
        let plan = try opener(ScriptedPicker()).planner.plan(request, explaining: true)
        #expect(plan.decision?.by == .app)
        #expect(plan.choice?.others.map(\.key) == ["lynx"])
        #expect(try opener(ScriptedPicker()).planner.plan(request).choice?.others.isEmpty == true, "only when explaining")
    }
}
