/// Starts a refresh that outlives the current command (a detached `choosy __refresh`), so
/// that stale data never makes a command wait on the network.
public protocol BackgroundRefresher: Sendable {
    func refreshLater(_ key: String)
}

/// Every app type choosy knows, merged from the bundled catalog, the download cache and the
/// user's files (SPEC §2.2), refreshed from the network per SPEC §2.3.
public final class Catalog {
    public struct Summary: Equatable, Sendable {
        public var key: String
        public var name: String
    }

    /// How the network may be used; nil refresher means offline.
    public struct Network {
        public var refresher: CatalogRefresher
        public var freshness: CatalogFreshness
        public var background: BackgroundRefresher?

        public init(refresher: CatalogRefresher, freshness: CatalogFreshness, background: BackgroundRefresher?) {
            self.refresher = refresher
            self.freshness = freshness
            self.background = background
        }
    }

    /// Seconds between background attempts after a failed download (at most the TTL).
    static let retryInterval: Double = 15 * 60

    private let cache: CatalogCache
    private let userCatalog: UserCatalog
    private let network: Network?
    private let clock: Clock
    private let diagnostics: DiagnosticSink
    private var userRecordsLoaded: [AppTypeRecord]?
    private var merged: [String: AppType] = [:]

    public init(cache: CatalogCache, userCatalog: UserCatalog, network: Network?, clock: Clock, diagnostics: DiagnosticSink) {
        self.cache = cache
        self.userCatalog = userCatalog
        self.network = network
        self.clock = clock
        self.diagnostics = diagnostics
    }

    private var userRecords: [AppTypeRecord] {
        if let loaded = userRecordsLoaded { return loaded }
        let loaded = userCatalog.records(diagnostics: diagnostics)
        userRecordsLoaded = loaded
        return loaded
    }

    /// Key and name of every type any local source knows, sorted by name.
    public func summaries() -> [Summary] {
        var names: [String: String] = [:]
        for (key, name) in BundledCatalog.typeSummaries { names[key] = name }
        for (key, name) in cache.typeNames() { names[key] = name }
        for record in userRecords { names[record.key] = record.name ?? names[record.key] ?? record.key }
        return names.map { Summary(key: $0.key, name: $0.value) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The key for what the user typed: a key or a name in any case (`Twitter`, `twitter`,
    /// `music mixers`). A type no source knows is fetched once, unless offline.
    public func resolve(_ input: String) throws(ChoosyError) -> String {
        let lowered = input.lowercased()
        if isValidTypeKey(lowered) && isKnownLocally(lowered) { return lowered }
        let summaries = summaries()
        if let match = summaries.first(where: { $0.name.lowercased() == lowered }) { return match.key }
        let guessed = String(lowered.map { $0 == " " || $0 == "-" ? "_" : $0 })
        if isValidTypeKey(guessed) {
            if isKnownLocally(guessed) { return guessed }
            if let network {
                diagnostics.explain("app type '\(guessed)' is in no local source; fetching it")
                switch network.refresher.refresh(guessed, onlyIfStale: true, diagnostics: diagnostics) {
                case .updated, .notModified, .alreadyFresh:
                    return guessed
                case .notFound:
                    break
                case .failed(let reason):
                    diagnostics.warning("could not download app type '\(guessed)': \(reason)")
                }
            }
        }
        throw .unknown("unknown app type '\(input)'" + didYouMean(input, among: summaries.map(\.name)))
    }

    /// The merged app type. Stale or missing downloads are refreshed in the background; only
    /// development mode (every use) and a type with no data at all wait for the network.
    public func appType(_ key: String) throws(ChoosyError) -> AppType {
        if let type = merged[key] { return type }
        let bundled = bundledRecords(key)
        let user = userRecords.filter { $0.key == key }
        if let network {
            if network.freshness.developmentMode {
                report(key, network.refresher.refresh(key, onlyIfStale: false, diagnostics: diagnostics))
            } else if bundled.isEmpty && user.isEmpty && !cache.exists(key) {
                report(key, network.refresher.refresh(key, onlyIfStale: true, diagnostics: diagnostics))
            }
        }
        let cached = cache.entry(for: key, diagnostics: diagnostics)
        if let network, !network.freshness.developmentMode,
           cached.map({ !network.freshness.isFresh($0.metadata, now: clock.now()) }) ?? true {
            let retryAfter = min(network.freshness.ttl, Catalog.retryInterval)
            if let failed = cache.lastFailure(of: key), clock.now() - failed < retryAfter {
                diagnostics.explain("downloading '\(key)' failed \(Int(clock.now() - failed)) s ago; trying again later")
            } else {
                diagnostics.explain("downloaded data for '\(key)' is \(cached == nil ? "missing" : "stale"); refreshing it in the background")
                network.background?.refreshLater(key)
            }
        }
        diagnostics.explain("app type '\(key)': bundled \(bundled.isEmpty ? "no" : "yes"), downloaded \(cached == nil ? "no" : "yes"), user \(user.isEmpty ? "no" : "yes (\(userCatalog.directory))")")
        guard let type = CatalogMerger.merge(bundled + (cached?.records ?? []) + user) else {
            throw .unknown("unknown app type '\(key)'" + didYouMean(key, among: summaries().map(\.name)))
        }
        merged[key] = type
        return type
    }

    /// Downloads the given types now, ignoring the TTL (`choosy update`). With no keys: every
    /// type a local source knows.
    public func update(_ keys: [String]) -> [(key: String, outcome: CatalogRefresher.Outcome)] {
        let targets = keys.isEmpty ? summaries().map(\.key) : keys
        return targets.map { key in
            guard let network else { return (key, .failed("offline")) }
            let outcome = network.refresher.refresh(key, onlyIfStale: false, diagnostics: diagnostics)
            report(key, outcome)
            return (key, outcome)
        }
    }

    /// What the background `__refresh` does: fetch unless another process just did.
    public func refreshIfStale(_ key: String) {
        guard let network else { return }
        report(key, network.refresher.refresh(key, onlyIfStale: true, diagnostics: diagnostics))
    }

    private func report(_ key: String, _ outcome: CatalogRefresher.Outcome) {
        switch outcome {
        case .failed(let reason):
            diagnostics.warning("could not refresh app type '\(key)': \(reason); keeping the data already here")
        case .notFound:
            if cache.exists(key) || !bundledRecords(key).isEmpty {
                diagnostics.warning("could not refresh app type '\(key)': the catalog server does not have it; keeping the data already here")
            }
        case .updated, .notModified, .alreadyFresh:
            break
        }
    }

    private func isKnownLocally(_ key: String) -> Bool {
        BundledCatalog.json(for: key) != nil || cache.exists(key) || userRecords.contains { $0.key == key }
    }

    private func bundledRecords(_ key: String) -> [AppTypeRecord] {
        guard let json = BundledCatalog.json(for: key) else { return [] }
        let records = (try? CatalogDecoder.decode(Array(json.utf8), source: "bundled catalog", diagnostics: diagnostics)) ?? []
        return records.filter { $0.key == key }
    }
}
