/// Downloads one app type into the cache, under a per-type lock so that concurrent
/// processes download it once: whoever gets the lock second finds the fresh file.
package struct CatalogRefresher: Sendable {
    package enum Outcome: Equatable, Sendable {
        /// The cache was fresh when the lock was taken; nothing was requested.
        case alreadyFresh
        case updated
        case notModified
        /// The server has no such type (404).
        case notFound
        case failed(String)
    }

    package let baseURL: String
    private let cache: CatalogCache
    private let download: CachedDownload
    private let freshness: CatalogFreshness
    private let clock: Clock

    /// `client` is called only when a request is really made (it loads libcurl).
    package init(
        baseURL: String, cache: CatalogCache, client: @escaping @Sendable () -> HTTPClient, freshness: CatalogFreshness, clock: Clock
    ) {
        self.baseURL = baseURL
        self.cache = cache
        self.download = CachedDownload(cache: cache, client: client, clock: clock)
        self.freshness = freshness
        self.clock = clock
    }

    package func url(for key: String) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return "\(base)/app-data/\(key).json"
    }

    /// Fetches `key` (a conditional request when it is cached). With `onlyIfStale`, a cache
    /// entry that is fresh once the lock is held is kept as it is.
    package func refresh(_ key: String, onlyIfStale: Bool, diagnostics: DiagnosticSink) -> Outcome {
        guard isValidTypeKey(key) else { return .failed("invalid app type key '\(key)'") }
        return download.locked(key) { fetch(key, onlyIfStale: onlyIfStale, diagnostics: diagnostics) }
    }

    private func fetch(_ key: String, onlyIfStale: Bool, diagnostics: DiagnosticSink) -> Outcome {
        let cached = cache.entry(for: key, diagnostics: diagnostics)
        if onlyIfStale {
            if let cached, freshness.isFresh(cached.metadata, now: clock.now()) { return .alreadyFresh }
            if let answered = cache.time(of: .notFound, for: key), freshness.isFresh(answeredAt: answered, now: clock.now()) {
                return cached == nil ? .notFound : .alreadyFresh
            }
        }
        let url = url(for: key)
        switch download.get(url, label: key, known: cached?.metadata, diagnostics: diagnostics) {
        case .notModified(let metadata):
            return store(key, metadata, cached!.body, success: .notModified)
        case .body(let body, var metadata):
            // What the decoder rejects becomes part of this one outcome, so that a bad file
            // costs one warning, not one per entry.
            let decoding = RecordingDiagnostics(verbose: false)
            let records: [AppTypeRecord]
            do {
                records = try CatalogDecoder.decode(body, source: url, diagnostics: decoding)
            } catch {
                return .failed(error.description)
            }
            guard let record = records.first(where: { $0.key == key }) else {
                let rejected = decoding.warnings.map { " (\($0))" }.joined()
                return .failed("\(url) holds no app type '\(key)'\(rejected)")
            }
            decoding.warnings.forEach(diagnostics.warning)
            metadata.name = record.name
            metadata.linkHosts = (record.links ?? []).map { LinkPattern.hostPattern(of: $0.pattern)?.text ?? "" }
            metadata.mimeTypes = record.mimeTypes ?? []
            return store(key, metadata, body, success: .updated)
        case .unavailable(let outcome):
            return outcome
        }
    }

    private func store(_ key: String, _ metadata: CatalogCache.Metadata, _ body: [UInt8], success: Outcome) -> Outcome {
        do {
            try cache.store(key, metadata: metadata, body: body)
            return success
        } catch {
            return .failed("cannot write the cache: \(error)")
        }
    }
}

/// When cached data counts as fresh: within the TTL (24 h, `CHOOSY_CACHE_TTL` seconds), never
/// in development mode, and never when its timestamp is in the future (a clock jump).
package struct CatalogFreshness: Sendable {
    package static let defaultTTL: Double = 24 * 60 * 60

    package var ttl: Double
    package var developmentMode: Bool

    package init(ttl: Double = CatalogFreshness.defaultTTL, developmentMode: Bool = false) {
        self.ttl = ttl
        self.developmentMode = developmentMode
    }

    package init(environment: Environment, diagnostics: DiagnosticSink) {
        var ttl = CatalogFreshness.defaultTTL
        if let value = environment.value("CHOOSY_CACHE_TTL") {
            if let seconds = Double(value), seconds >= 0, seconds.isFinite {
                ttl = seconds
            } else {
                diagnostics.warning("ignoring CHOOSY_CACHE_TTL='\(value)': expected a number of seconds")
            }
        }
        self.init(ttl: ttl, developmentMode: environment.flag("CHOOSY_DEVELOPMENT_MODE"))
    }

    package func isFresh(_ metadata: CatalogCache.Metadata, now: Double) -> Bool {
        isFresh(answeredAt: metadata.fetchedAt, now: now)
    }

    /// Whether an answer of the server (data, or a 404) given at `time` still stands.
    package func isFresh(answeredAt time: Double, now: Double) -> Bool {
        !developmentMode && time <= now + 60 && now - time < ttl
    }
}
