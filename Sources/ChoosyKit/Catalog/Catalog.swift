/// Starts a refresh that outlives the current command (a detached `choosy __refresh`), so
/// that stale data never makes a command wait on the network.
package protocol BackgroundRefresher: Sendable {
    /// Notes a type to refresh; nothing starts before `startPending`.
    func refreshLater(_ key: String)
    /// Starts one refresh for every type noted, so that a command costs one child process and
    /// at most one warning however many types it found stale.
    func startPending()
}

/// Every app type choosy knows, merged from the bundled catalog, the download cache and the
/// user's files, refreshed from the network (doc/configuration.md, "The catalog").
package final class Catalog {
    package struct Summary: Equatable, Sendable {
        package var key: String
        package var name: String
    }

    /// How the network may be used; nil refresher means offline.
    package struct Network {
        package var refresher: CatalogRefresher
        package var freshness: CatalogFreshness
        package var background: BackgroundRefresher?

        package init(refresher: CatalogRefresher, freshness: CatalogFreshness, background: BackgroundRefresher?) {
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
    private var cachedSummariesLoaded: [(key: String, name: String, linkHosts: [String]?, mimeTypes: [String]?)]?
    private var merged: [String: AppType] = [:]
    /// The records of each downloaded type read so far (nil: no download).
    private var cachedRecords: [String: [AppTypeRecord]?] = [:]
    /// By type key, and `KEY examples` for the links with their bundled examples.
    private var mergedLinks: [String: [CatalogLink]] = [:]
    /// An unreachable server costs at most one warning line per command.
    private var warnedAboutNetwork = false

    package init(cache: CatalogCache, userCatalog: UserCatalog, network: Network?, clock: Clock, diagnostics: DiagnosticSink) {
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

    private var cachedSummaries: [(key: String, name: String, linkHosts: [String]?, mimeTypes: [String]?)] {
        if let loaded = cachedSummariesLoaded { return loaded }
        let loaded = cache.typeSummaries()
        cachedSummariesLoaded = loaded
        return loaded
    }

    /// Key and name of every type any local source knows, sorted by name.
    package func summaries() -> [Summary] {
        var names: [String: String] = [:]
        for (key, name) in BundledCatalog.typeSummaries { names[key] = name }
        for (key, name, _, _) in cachedSummaries { names[key] = name }
        for record in userRecords { names[record.key] = record.name ?? names[record.key] ?? record.key }
        return names.map { Summary(key: $0.key, name: $0.value) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The keys of the types, in `summaries` order, that have a link whose host `host` could
    /// be, by the hosts each source lists without decoding its file (a cache file written
    /// before links counts as any host).
    package func typesWithLinks(matching host: WebHost) -> [String] {
        func matches(_ hosts: [String]) -> Bool {
            hosts.contains { LinkPattern.HostPattern.couldBe($0, host) }
        }
        var candidates: Set<String> = []
        for file in BundledCatalog.files {
            for type in file.types where matches(type.linkHosts) { candidates.insert(type.key) }
        }
        for (key, _, hosts, _) in cachedSummaries where hosts.map(matches) ?? true { candidates.insert(key) }
        for record in userRecords where matches((record.links ?? []).map(\.pattern).map { LinkPattern.hostPattern(of: $0)?.text ?? "" }) {
            candidates.insert(record.key)
        }
        guard !candidates.isEmpty else { return [] }
        return summaries().map(\.key).filter(candidates.contains)
    }

    /// The keys of the types, in `summaries` order, that may claim one of `mimeTypes` (a local
    /// file's type and those it is a kind of), by the MIME types each source lists without
    /// decoding its file (a cache file written before they could be listed may claim any).
    package func typesClaiming(anyOf mimeTypes: [String]) -> [String] {
        func claims(_ claimed: [String]) -> Bool { claimed.contains(where: mimeTypes.contains) }
        var candidates: Set<String> = []
        for file in BundledCatalog.files {
            for type in file.types where claims(type.mimeTypes) { candidates.insert(type.key) }
        }
        for (key, _, _, claimed) in cachedSummaries where claimed.map(claims) ?? true { candidates.insert(key) }
        for record in userRecords where claims(record.mimeTypes ?? []) { candidates.insert(record.key) }
        guard !candidates.isEmpty else { return [] }
        return summaries().map(\.key).filter(candidates.contains)
    }

    /// The key for what the user typed: a key or a name in any case (`Twitter`, `twitter`,
    /// `music mixers`). A type no source knows is fetched once, unless offline; a near miss of
    /// a known one (`Brwser`) is a typo, said at once with no download (SPEC §7).
    package func resolve(_ input: String) throws(ChoosyError) -> String {
        let lowered = input.lowercased()
        if isValidTypeKey(lowered) && isKnownLocally(lowered) { return lowered }
        let summaries = summaries()
        if let match = summaries.first(where: { $0.name.lowercased() == lowered }) { return match.key }
        let guessed = String(lowered.map { $0 == " " || $0 == "-" ? "_" : $0 })
        let near = suggestion(for: input, among: summaries.map(\.name))
        if isValidTypeKey(guessed) {
            if isKnownLocally(guessed) { return guessed }
            if near == nil, let network {
                diagnostics.explain("app type '\(guessed)' is in no local source; fetching it")
                switch fetchUnknown(guessed, network: network) {
                case .updated, .notModified, .alreadyFresh:
                    return guessed
                case .notFound:
                    diagnostics.explain("the catalog server has no app type '\(guessed)'")
                case .failed(let reason):
                    // Not knowing is not the same as "there is no such type".
                    throw .unavailable("cannot tell what app type '\(input)' is: the catalog could not be reached (\(reason))")
                }
            }
        }
        throw .unknown("unknown app type '\(input)'" + didYouMean(near))
    }

    /// Fetches a type no local source has; when no data came (the server has none, or could not
    /// be reached), nothing of it stays in the cache: no marker, no lock (SPEC §7).
    private func fetchUnknown(_ key: String, network: Network) -> CatalogRefresher.Outcome {
        let outcome = network.refresher.refresh(key, onlyIfStale: true, diagnostics: diagnostics)
        switch outcome {
        case .notFound, .failed: cache.forget(key)
        case .updated, .notModified, .alreadyFresh: break
        }
        return outcome
    }

    /// The merged app type. Stale or missing downloads are refreshed in the background; only
    /// development mode (every use) and a type with no data at all wait for the network.
    package func appType(_ key: String) throws(ChoosyError) -> AppType {
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
        cachedRecords[key] = .some(cached?.records)
        // The server's last answer: the data it sent, or a 404 (then the other sources stand).
        let notFoundAt = cache.time(of: .notFound, for: key)
        let answeredAt = [cached?.metadata.fetchedAt, notFoundAt].compactMap { $0 }.max()
        if let notFoundAt, notFoundAt == answeredAt {
            diagnostics.explain(
                "the catalog server has no app type '\(key)' (its answer \(Int(max(0, clock.now() - notFoundAt))) s ago); the other sources stand"
            )
        }
        if let network, !network.freshness.developmentMode,
            answeredAt.map({ !network.freshness.isFresh(answeredAt: $0, now: clock.now()) }) ?? true
        {
            let retryAfter = min(network.freshness.ttl, Catalog.retryInterval)
            if let failed = cache.time(of: .failed, for: key), clock.now() - failed < retryAfter {
                diagnostics.explain("downloading '\(key)' failed \(Int(clock.now() - failed)) s ago; trying again later")
            } else {
                diagnostics.explain(
                    notFoundAt == answeredAt
                        ? "the server's answer for '\(key)' is older than the TTL; asking again in the background"
                        : "downloaded data for '\(key)' is \(cached == nil ? "missing" : "stale"); refreshing it in the background")
                network.background?.refreshLater(key)
            }
        }
        diagnostics.explain(
            "app type '\(key)': bundled \(bundled.isEmpty ? "no" : "yes"), downloaded \(cached == nil ? "no" : "yes"), user \(user.isEmpty ? "no" : "yes (\(userCatalog.directory))")"
        )
        let downloaded = (cached?.records ?? []).map { $0.withoutLaunchArguments() }
        let ignored = downloaded.flatMap(\.ignored)
        if !ignored.isEmpty {
            diagnostics.explain(
                "downloaded catalog: ignoring the launch arguments (private, new_window, profiles) of \(ignored.joined(separator: ", ")): they come only from the bundled catalog and your own files"
            )
        }
        guard let type = CatalogMerger.merge(bundled + downloaded.map(\.record) + user) else {
            throw .unknown("unknown app type '\(key)'" + didYouMean(key, among: summaries().map(\.name)))
        }
        merged[key] = type
        return type
    }

    /// The type's links from every source, merged (doc/links-and-rules.md, "Links in the catalog"); read only
    /// when a link is handled or links are shown. The bundled links' examples are read only
    /// `withExamples` (`describe`): a handled link does not pay for them.
    package func links(of key: String, withExamples: Bool = false) -> [CatalogLink] {
        if let links = mergedLinks[key + (withExamples ? " examples" : "")] { return links }
        let bundled =
            BundledCatalog.linksJSON(for: key, withExamples: withExamples).map { json in
                (try? CatalogDecoder.decode(Array(json.utf8), source: BundledCatalog.source, diagnostics: diagnostics)) ?? []
            } ?? []
        let cached = cachedRecords[key] ?? cache.entry(for: key, diagnostics: diagnostics)?.records
        let links = CatalogMerger.links((bundled + (cached ?? []) + userRecords).filter { $0.key == key })
        mergedLinks[key + (withExamples ? " examples" : "")] = links
        return links
    }

    /// The type's links whose host could be `host`, from every source, merged: what a handled
    /// link reads (the bundled links of other hosts are not decoded).
    package func links(of key: String, for host: WebHost) -> [CatalogLink] {
        let bundled = BundledCatalog.linksJSON(for: key, host: host).flatMap { json in
            (try? CatalogDecoder.decode(Array(json.utf8), source: BundledCatalog.source, diagnostics: diagnostics)) ?? []
        }
        let cached = cachedRecords[key] ?? cache.entry(for: key, diagnostics: diagnostics)?.records
        return CatalogMerger.links((bundled + (cached ?? []) + userRecords).filter { $0.key == key })
    }

    /// Downloads the given types now, ignoring the TTL (`choosy update`). With no keys: every
    /// type a local source knows.
    package func update(_ keys: [String]) -> [(key: String, outcome: CatalogRefresher.Outcome)] {
        let targets = keys.isEmpty ? summaries().map(\.key) : keys
        return targets.map { key in
            guard let network else { return (key, .failed("offline")) }
            let outcome =
                isKnownLocally(key)
                ? network.refresher.refresh(key, onlyIfStale: false, diagnostics: diagnostics) : fetchUnknown(key, network: network)
            report(key, outcome)
            return (key, outcome)
        }
    }

    /// What the background `__refresh` does: fetch each type unless another process just did.
    /// Its failures are the caller's to keep (`RefreshFailures`): nothing is said of them here.
    package func refreshIfStale(_ keys: [String]) -> [(key: String, outcome: CatalogRefresher.Outcome)] {
        guard let network else { return [] }
        return keys.map { key in (key, network.refresher.refresh(key, onlyIfStale: true, diagnostics: diagnostics)) }
    }

    private func report(_ key: String, _ outcome: CatalogRefresher.Outcome) {
        switch outcome {
        case .failed(let reason):
            warnOnce("could not refresh app type '\(key)': \(reason); keeping the data already here")
        case .notFound:
            diagnostics.explain("the catalog server has no app type '\(key)'; the other sources stand")
        case .updated, .notModified, .alreadyFresh:
            break
        }
    }

    private func warnOnce(_ message: String) {
        if warnedAboutNetwork {
            diagnostics.explain(message)
        } else {
            warnedAboutNetwork = true
            diagnostics.warning(message)
        }
    }

    private func isKnownLocally(_ key: String) -> Bool {
        BundledCatalog.json(for: key) != nil || cache.exists(key) || userRecords.contains { $0.key == key }
    }

    private func bundledRecords(_ key: String) -> [AppTypeRecord] {
        guard let json = BundledCatalog.json(for: key) else { return [] }
        let records = (try? CatalogDecoder.decode(Array(json.utf8), source: BundledCatalog.source, diagnostics: diagnostics)) ?? []
        return records.filter { $0.key == key }
    }
}
