import Glibc

/// The composition root: every side effect comes in here (environment, files, clock,
/// processes, network), and it builds the parts the commands (`ChoosyCommand`) run with, each
/// on first use.
public final class Choosy {
    package struct Settings: Sendable {
        package var verbose = false
        /// `--offline` or `CHOOSY_OFFLINE=1`: no network at all.
        package var offline = false
        /// choosy's own executable, so it never hands a URL to itself and can refresh in
        /// the background.
        package var executable: String
        /// Whether stale catalog data is refreshed by a detached `choosy __refresh` child; a
        /// Swift program using ChoosyKit is no `choosy` binary, so it refreshes explicitly.
        package var refreshInBackground = true
        /// `--dry-run`: nothing is written, moved aside or downloaded, by any part.
        package var dryRun = false
        /// The command line's arguments that were not UTF-8, as given: a link among them
        /// reaches its app byte for byte.
        package var givenBytes = GivenBytes.none

        package init(executable: String) {
            self.executable = executable
        }
    }

    package let environment: Environment
    package let settings: Settings
    package let fileSystem: FileSystem
    package let clock: Clock
    package let diagnostics: DiagnosticSink
    /// The corrupt files this command met, each reported once.
    package let corruptFiles: CorruptFileWarnings
    package let runner: ProcessRunner
    /// The activation token choosy was started with; `environment` no longer holds it.
    package let activation: ActivationToken
    /// Firefox's profile group stores, read through libsqlite3, which only a read loads.
    package let profileGroupStores: SQLiteReader = SQLiteLibraryReader()
    private let httpClient: @Sendable () -> HTTPClient
    /// `CHOOSY_SOURCE`, read before `environment` drops it for the children.
    package let declaredSource: String?

    package init(
        environment: Environment, settings: Settings, diagnostics: DiagnosticSink,
        fileSystem: FileSystem = LocalFileSystem(), clock: Clock = SystemClock(),
        runner: ProcessRunner = PosixProcessRunner(fileSystem: LocalFileSystem()),
        httpClient: (@Sendable () -> HTTPClient)? = nil
    ) {
        // Every child starts from an environment without the token and without the variables
        // of choosy's own launch (doc/desktop.md); the token goes to the one child that uses it.
        declaredSource = environment.value("CHOOSY_SOURCE")
        (self.environment, self.activation) = ActivationToken.split(environment)
        self.settings = settings
        self.diagnostics = diagnostics
        self.corruptFiles = CorruptFileWarnings(diagnostics: diagnostics)
        self.fileSystem = settings.dryRun ? DryRunFileSystem(reading: fileSystem) : fileSystem
        self.clock = clock
        self.runner = runner
        let showProgress = isatty(2) == 1
        self.httpClient = httpClient ?? { CurlHTTPClient(showProgress: showProgress) }
    }

    /// No network: asked for, or a dry run (which starts no download, not even in the background).
    package var isOffline: Bool { settings.offline || settings.dryRun || environment.flag("CHOOSY_OFFLINE") }

    // MARK: Parts, built on first use so each command pays only for what it touches.

    private var loadedConfiguration: Configuration?
    private var loadedLinkCleaner: LinkCleaner?
    /// The link cleaner with the rules found for this installation and user, read once.
    func linkCleaner() -> LinkCleaner {
        if let loadedLinkCleaner { return loadedLinkCleaner }
        let loadingStarted = threadCPUSeconds()
        let sources = CleaningRuleSources(executable: settings.executable, environment: environment)
        let cleaner = LinkCleaner(
            files: sources.load(fileSystem: fileSystem, diagnostics: diagnostics, keepsParsedRules: !settings.dryRun),
            removesReferralMarketing: configuration().cleanReferrals, timeLimit: cleaningTimeLimit(), loadingStarted: loadingStarted,
            warn: diagnostics.warning
        )
        loadedLinkCleaner = cleaner
        if !isOffline, let background = backgroundRefresher(), cleaningRulesRefresher().isDue {
            diagnostics.explain("the downloaded link-cleaning rules are missing or stale; refreshing them in the background")
            background.refreshLater(CleaningRulesRefresher.refreshWord)
        }
        return cleaner
    }

    /// The CPU seconds cleaning one link may take: `CHOOSY_CLEAN_TIME_LIMIT` (for valgrind, or a
    /// machine far slower than the default was made for), else the default.
    private func cleaningTimeLimit() -> Double {
        guard let value = environment.value("CHOOSY_CLEAN_TIME_LIMIT") else { return LinkCleaner.timeLimit }
        guard let seconds = Double(value), seconds > 0, !seconds.isNaN else {
            diagnostics.warning("ignoring CHOOSY_CLEAN_TIME_LIMIT='\(value)': expected a number of seconds")
            return LinkCleaner.timeLimit
        }
        return seconds
    }

    /// Downloads newer ClearURLs rules: `CHOOSY_CLEAN_RULES_URL` (for tests and mirrors), else
    /// where the add-on itself gets them.
    package func cleaningRulesRefresher() -> CleaningRulesRefresher {
        CleaningRulesRefresher(
            baseURL: environment.value("CHOOSY_CLEAN_RULES_URL") ?? CleaningRulesRefresher.publishedBaseURL,
            rulesPath: CleaningRuleSources(executable: settings.executable, environment: environment).downloadedRules,
            fileSystem: fileSystem, client: httpClient, freshness: CatalogFreshness(environment: environment, diagnostics: diagnostics),
            clock: clock
        )
    }

    /// What the background refreshes could not do, kept for a later command to say.
    package func refreshFailures() -> RefreshFailures {
        RefreshFailures(environment: environment, fileSystem: fileSystem, clock: clock)
    }

    private var loadedBackgroundRefresher: ProcessBackgroundRefresher?
    /// The one detached `choosy __refresh` child of this command, for catalog types and the
    /// link-cleaning rules alike; none for a Swift program using ChoosyKit.
    private func backgroundRefresher() -> ProcessBackgroundRefresher? {
        guard settings.refreshInBackground else { return nil }
        if let loadedBackgroundRefresher { return loadedBackgroundRefresher }
        let refresher = ProcessBackgroundRefresher(executable: settings.executable, environment: environment, runner: runner)
        loadedBackgroundRefresher = refresher
        return refresher
    }

    /// The link as `handle`, `open` and `rule test` pass it on: followed to where it leads when
    /// `linkUnshortener` says so, then cleaned when `--clean` (`asked` true), or `clean_links`
    /// without `--no-clean`, says so, and -v says how. Otherwise it is returned as it is, and no
    /// rules file is read and no library loaded.
    func linkToOpen(_ link: String, clean asked: Bool?, unshorten: Bool?) -> String {
        var link = link
        if let unshortener = linkUnshortener(asked: unshorten) {
            let unshortened = unshortener.unshorten(link)
            for line in unshortened.explanations { diagnostics.explain(line) }
            link = unshortened.link
        }
        guard asked ?? configuration().cleanLinks, (try? WebURL(parsing: link)) != nil else { return link }
        let cleaned = linkCleaner().clean(link)
        for line in cleaned.explanations { diagnostics.explain(line) }
        return cleaned.link
    }

    private var loadedUnshortener: LinkUnshortener??
    /// The unshortener, when this command follows shortened links: with `--unshorten` (`asked`
    /// true), or `unshorten` in the config without `--no-unshorten` and not in a dry run; never
    /// offline, and not without a readable shortener list.
    func linkUnshortener(asked: Bool?) -> LinkUnshortener? {
        guard asked ?? (!settings.dryRun && configuration().unshorten) else { return nil }
        if let loadedUnshortener { return loadedUnshortener }
        var unshortener: LinkUnshortener?
        if settings.offline || environment.flag("CHOOSY_OFFLINE") {
            diagnostics.explain("offline: shortened links are not followed")
        } else if let list = CleaningRuleSources(executable: settings.executable, environment: environment).shorteners(
            environment: environment, fileSystem: fileSystem, diagnostics: diagnostics)
        {
            unshortener = LinkUnshortener(shorteners: list, client: httpClient)
        }
        loadedUnshortener = .some(unshortener)
        return unshortener
    }

    package func configuration() -> Configuration {
        if let loadedConfiguration { return loadedConfiguration }
        let configuration = Configuration.load(environment: environment, fileSystem: fileSystem, warnings: corruptFiles)
        if let warning = configuration.unknownMembersWarning(path: Configuration.path(environment: environment)) {
            diagnostics.warning(warning)
        }
        loadedConfiguration = configuration
        return configuration
    }

    /// The remote catalog's base: `CHOOSY_CATALOG_URL`, the config's `catalog_url`, or the
    /// project's published tree.
    package func catalogBaseURL() -> String {
        if let url = environment.value("CHOOSY_CATALOG_URL") { return url }
        return configuration().catalogURL ?? Choosy.publishedCatalogURL
    }

    package static let publishedCatalogURL = "https://raw.githubusercontent.com/choosy-linux/choosy/main/catalog"

    private var loadedCatalog: Catalog?
    package func catalog() throws(ChoosyError) -> Catalog {
        if let loadedCatalog { return loadedCatalog }
        let cache = CatalogCache(environment: environment, fileSystem: fileSystem)
        var network: Catalog.Network?
        if !isOffline {
            let freshness = CatalogFreshness(environment: environment, diagnostics: diagnostics)
            let refresher = CatalogRefresher(
                baseURL: catalogBaseURL(), cache: cache, client: httpClient, freshness: freshness, clock: clock
            )
            network = Catalog.Network(refresher: refresher, freshness: freshness, background: backgroundRefresher())
        }
        let catalog = Catalog(
            cache: cache, userCatalog: UserCatalog(environment: environment, fileSystem: fileSystem),
            network: network, clock: clock, diagnostics: diagnostics
        )
        loadedCatalog = catalog
        return catalog
    }

    /// The local sources alone (bundled, downloaded, the user's), never refreshed, saying
    /// nothing: what `describe` checks a type's examples against and what completion reads on
    /// every Tab, without touching the network or the cache for the other types.
    func localCatalog() -> Catalog {
        Catalog(
            cache: CatalogCache(environment: environment, fileSystem: fileSystem),
            userCatalog: UserCatalog(environment: environment, fileSystem: fileSystem),
            network: nil, clock: clock, diagnostics: RecordingDiagnostics(verbose: false)
        )
    }

    private var loadedPreferences: PreferenceStore?
    package func preferences() -> PreferenceStore {
        if let loadedPreferences { return loadedPreferences }
        let store = PreferenceStore(environment: environment, fileSystem: fileSystem, warnings: corruptFiles, clock: clock)
        loadedPreferences = store
        return store
    }

    /// rules.json, read when a web link or a `rule` command first asks.
    package private(set) lazy var siteRules = SiteRuleStore(
        environment: environment, fileSystem: fileSystem, warnings: corruptFiles, clock: clock, keepsIndex: !settings.dryRun)

    private var foundSource: LinkSource??
    /// Where this command's link came from, looked for once, when first asked.
    package func linkSource() -> LinkSource? {
        if let foundSource { return foundSource }
        let finder = LinkSourceFinder(declared: declaredSource, fileSystem: fileSystem, diagnostics: diagnostics) {
            [unowned self] program in
            self.sourceEntry(running: program)
        }
        let found = finder.find()
        foundSource = .some(found)
        return found
    }

    /// What a SOURCE answers to: its desktop ID and the catalog's apps of that entry.
    package private(set) lazy var sourceNames: SourceNames = {
        let index = probe().index
        return SourceNames(
            apps: { [unowned self] in
                var apps: [(key: String, desktopIDs: [String])] = []
                guard let catalog = try? self.catalog() else { return apps }
                for summary in catalog.summaries() {
                    guard let type = try? catalog.appType(summary.key) else { continue }
                    apps += type.apps.filter { !$0.desktopIDs.isEmpty }.map { ($0.key, $0.desktopIDs) }
                }
                return apps
            }, entryExists: { index.entry(id: $0) != nil })
    }()

    /// The desktop ID of a usable entry that runs `program`: one a rule's source names, since
    /// a program such as `flatpak` runs many entries, else the first.
    private func sourceEntry(running program: String) -> String? {
        let ids = probe().index.usableEntries(running: program).map(\.id)
        // Most programs run one entry: the rules' sources are read only to choose among several.
        guard ids.count > 1 else { return ids.first }
        let sources = siteRules.sources()
        return sourceNames.first(of: ids, namedByAnyOf: sources) ?? ids.first
    }

    /// Ends the command: starts the catalog refreshes it asked for (one detached child).
    package func finish() {
        loadedBackgroundRefresher?.startPending()
    }

    /// The app type for what the user typed (key or name, any case): its catalog apps, then
    /// the installed handlers of its schemes that no catalog names.
    package func appType(_ input: String) throws(ChoosyError) -> AppType {
        try installedCatalog().appType(input)
    }

    private var loadedProbe: AppProbe?
    /// Desktop entries, excluding choosy's own (it must never be handed its own URLs).
    package func probe() -> AppProbe {
        if let loadedProbe { return loadedProbe }
        let index = DesktopEntryIndex(
            environment: environment, excludingExecutable: settings.executable, fileSystem: fileSystem, clock: clock)
        let probe = AppProbe(
            index: index, mimeApps: MimeAppsList(environment: environment, index: index, fileSystem: fileSystem),
            locale: DesktopLocale.messages(in: environment), diagnostics: diagnostics
        )
        loadedProbe = probe
        return probe
    }

    private var loadedInstalledCatalog: InstalledCatalog?
    /// The app types and which of their apps are installed, found once per command.
    package func installedCatalog() throws(ChoosyError) -> InstalledCatalog {
        if let loadedInstalledCatalog { return loadedInstalledCatalog }
        let installer = linkHandlerInstaller()
        let found = InstalledCatalog(
            catalog: try catalog(), probe: probe(),
            profileFinder: BrowserProfileFinder(
                environment: environment, fileSystem: fileSystem, diagnostics: diagnostics, stores: profileGroupStores),
            diagnostics: diagnostics
        ) { installer.previousHandler(for: $0) }
        loadedInstalledCatalog = found
        return found
    }

    /// The installed apps of a type, found once per command.
    package func installedApps(of type: AppType) throws(ChoosyError) -> [InstalledApp] {
        try installedCatalog().installedApps(of: type)
    }

    /// The launcher, made once: the planner, the opener and the fallback share it (it reads the
    /// locale). It may give the launched app the activation token, which only the app a link or
    /// action was for may have (a callback never does: `callbackLauncher`, doc/desktop.md).
    func launcher() -> Launcher {
        if let loadedLauncher { return loadedLauncher }
        let terminals = TerminalFinder(
            environment: environment, fileSystem: fileSystem,
            intents: IntentAppsList(environment: environment, index: probe().index, fileSystem: fileSystem),
            bus: { [environment, fileSystem] in SDBusMessageBus(sessionOf: environment, fileSystem: fileSystem) })
        let launcher = Launcher(
            environment: environment, runner: runner, fileSystem: fileSystem, diagnostics: diagnostics, activation: activation,
            givenBytes: settings.givenBytes, terminals: terminals
        )
        loadedLauncher = launcher
        return launcher
    }

    private var loadedLauncher: Launcher?

    /// Starts a callback's handler, which never gets the activation token.
    func callbackLauncher() -> Launcher {
        Launcher(
            environment: environment, runner: runner, fileSystem: fileSystem, diagnostics: diagnostics, activation: nil,
            givenBytes: settings.givenBytes)
    }

    /// Makes the plan of a request: what every command that opens or explains reads.
    func planner() throws(ChoosyError) -> OpenPlanner {
        OpenPlanner(
            apps: try installedCatalog(), preferences: preferences(), rules: siteRules,
            sources: LinkSources(
                source: { [unowned self] in self.linkSource() }, names: { [unowned self] in self.sourceNames.rule($0, names: $1) },
                desktopID: { [unowned self] in self.sourceNames.desktopID(of: $0) }),
            classifier: LinkClassifier(catalog: try catalog(), diagnostics: diagnostics), launcher: launcher(), mimeTypes: mimeDatabase,
            alwaysShowPicker: environment.flag("CHOOSY_ALWAYS_DISPLAY_PICKER"), whereabouts: { [unowned self] in self.whereabouts() },
            arrangement: ChoiceArrangement(configuration()), useCounts: useCounts(), diagnostics: diagnostics
        )
    }

    /// How often each choice was picked (`order_by_use`), read only when a picker is ordered by it.
    func useCounts() -> UseCountStore {
        UseCountStore(environment: environment, fileSystem: fileSystem, warnings: corruptFiles, clock: clock)
    }

    /// `$XDG_STATE_HOME/choosy/history`: the links given to choosy (SPEC §6.1).
    package func history() -> LinkHistory {
        LinkHistory(environment: environment, fileSystem: fileSystem, warnings: corruptFiles, clock: clock, userID: getuid())
    }

    /// Edits `config.json` for `hide` and `unhide`.
    func configurationEditor() -> ConfigurationEditor {
        ConfigurationEditor(environment: environment, fileSystem: fileSystem)
    }

    /// The shared-mime-info database: its files are read only when a local file is handled.
    private lazy var mimeDatabase = MimeDatabase(environment: environment, fileSystem: fileSystem)

    /// The local file `argument` of `handle` or `why` names (a path, relative to the working
    /// directory, or a `file:` URL; its bytes as given), or nil when it is a link.
    package func localFile(_ argument: String) throws(ChoosyError) -> LocalFile? {
        try LocalFile(
            argument: settings.givenBytes.original(of: argument) ?? Array(argument.utf8), workingDirectory: fileSystem.currentDirectory())
    }

    private var loadedWhereabouts: RunningWhereabouts??
    /// What runs and where (doc/running.md), made when a choice first asks, and only when the
    /// configuration asks for it: otherwise no `/proc` is read and no window system asked.
    func whereabouts() -> RunningWhereabouts? {
        if let loadedWhereabouts { return loadedWhereabouts }
        let configuration = configuration()
        let made =
            configuration.asksWhatRuns
            ? RunningWhereabouts(
                option: configuration.running, newWindowHere: configuration.newWindowHere,
                finder: RunningChoiceFinder(fileSystem: fileSystem, diagnostics: diagnostics),
                workspace: WorkspaceWindows(
                    system: SessionWindowSystem.find(
                        in: environment, sockets: UnixLocalSockets(), x11: XCBServer(),
                        bus: SDBusMessageBus(sessionOf: environment, fileSystem: fileSystem), fileSystem: fileSystem,
                        processID: getpid()),
                    fileSystem: fileSystem,
                    diagnostics: diagnostics)) : nil
        loadedWhereabouts = .some(made)
        return made
    }

    func actionOpener() throws(ChoosyError) -> ActionOpener {
        let pickers = ActionOpener.Pickers(
            picker: { [environment, runner, fileSystem, diagnostics, activation] preference throws(ChoosyError) in
                let extras = ExternalPickerExtras(
                    diagnostics: diagnostics, activation: activation,
                    iconFiles: IconFileFinder(environment: environment, fileSystem: fileSystem)
                )
                return try PickerSelector(
                    environment: environment, terminalAvailable: TTYPicker.isAvailable(), runner: runner, fileSystem: fileSystem,
                    probe: SocketDisplayProbe(), extras: extras
                ).picker(for: preference)
            },
            configured: { [unowned self] in self.configuration().picker },
            environment: environment
        )
        let installer = linkHandlerInstaller()
        let fallback = SystemHandlerFallback(
            probe: probe(), previousHandler: { installer.previousHandler(for: $0) }, launcher: launcher(),
            notifier: desktopNotifier(), diagnostics: diagnostics
        )
        return ActionOpener(
            planner: try planner(), preferences: preferences(), rules: siteRules, useCounts: useCounts(),
            desktopDefaults: MimeAppsEditor(environment: environment, fileSystem: fileSystem), hooks: hookRunner(), pickers: pickers,
            launcher: launcher(), fallback: fallback, whereabouts: { [unowned self] in self.whereabouts() }, diagnostics: diagnostics
        )
    }

    func desktopNotifier() -> DesktopNotifier {
        DesktopNotifier(environment: environment, runner: runner, fileSystem: fileSystem)
    }

    package func linkHandlerInstaller() -> LinkHandlerInstaller {
        LinkHandlerInstaller(environment: environment, fileSystem: fileSystem, executable: settings.executable, mimeApps: probe().mimeApps)
    }

    package func hookRunner() -> HookRunner {
        HookRunner(environment: environment, diagnostics: diagnostics, processRunner: runner, fileSystem: fileSystem)
    }
}
