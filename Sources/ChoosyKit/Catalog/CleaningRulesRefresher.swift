/// Downloads the ClearURLs rules as the add-on does (doc/links-and-rules.md, "Newer rules"):
/// the hash its publisher puts beside them first, and the rules only when that hash is not the
/// one of the copy already here. A copy is stored only when its SHA-256 is the published one
/// and it reads as a rules file; anything else keeps the copy already here (or the bundled
/// one). Cached like an app type, with `CatalogCache`'s lock, markers and metadata line, in
/// `$XDG_CACHE_HOME/choosy/clean/`.
package struct CleaningRulesRefresher: Sendable {
    /// Where the add-on itself downloads them (ClearURLs/Addon, core_js/storage.js).
    package static let publishedBaseURL = "https://rules2.clearurls.xyz"
    static let rulesFile = "data.minify.json"
    static let hashFile = "rules.minify.hash"
    /// The word `__refresh` takes for the rules, which is no app type key.
    package static let refreshWord = "clean-rules"
    /// The key of the lock and the markers in the cache directory.
    private static let key = "rules"

    package let baseURL: String
    private let cache: CatalogCache
    private let rulesPath: String
    private let fileSystem: FileSystem
    private let client: @Sendable () -> HTTPClient
    private let download: CachedDownload
    private let freshness: CatalogFreshness
    private let clock: Clock

    /// `client` is called only when a request is really made (it loads libcurl).
    package init(
        baseURL: String, rulesPath: String, fileSystem: FileSystem, client: @escaping @Sendable () -> HTTPClient,
        freshness: CatalogFreshness, clock: Clock
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.rulesPath = rulesPath
        self.cache = CatalogCache(directory: parentDirectory(of: rulesPath), fileSystem: fileSystem)
        self.fileSystem = fileSystem
        self.client = client
        self.download = CachedDownload(cache: cache, client: client, clock: clock)
        self.freshness = freshness
        self.clock = clock
    }

    private var metadataPath: String { rulesPath + ".meta" }

    private var metadata: CatalogCache.Metadata? {
        guard let bytes = try? fileSystem.read(metadataPath, limit: 64 << 10) else { return nil }
        return try? CatalogCache.Metadata(line: bytes[...])
    }

    /// Whether the server's last answer is older than the TTL (or the rules it brought are gone)
    /// and no failed download is recent: what a command that cleans asks before it starts a
    /// refresh in the background.
    package var isDue: Bool {
        let now = clock.now()
        if let failed = cache.time(of: .failed, for: Self.key), now - failed < min(freshness.ttl, Catalog.retryInterval) { return false }
        let notFoundAt = cache.time(of: .notFound, for: Self.key)
        let metadata = metadata
        // Rules that went (a copy that could not be read is removed) are due at once.
        if metadata != nil && notFoundAt == nil && fileSystem.info(rulesPath) == nil { return true }
        let answeredAt = [metadata?.fetchedAt, notFoundAt].compactMap { $0 }.max()
        return answeredAt.map { !freshness.isFresh(answeredAt: $0, now: now) } ?? true
    }

    /// Fetches the hash (a conditional request when it was fetched before), then the rules when
    /// they changed. With `onlyIfStale`, an answer still fresh once the lock is held stands.
    package func refresh(onlyIfStale: Bool, diagnostics: DiagnosticSink) -> CatalogRefresher.Outcome {
        download.locked(Self.key) { onlyIfStale && !isDue ? .alreadyFresh : fetch(diagnostics: diagnostics) }
    }

    private func fetch(diagnostics: DiagnosticSink) -> CatalogRefresher.Outcome {
        let hashURL = baseURL + "/" + Self.hashFile
        let known = metadata
        let current = try? fileSystem.read(rulesPath, limit: ClearURLsRuleFile.maximumSize)
        let body: [UInt8]
        let metadata: CatalogCache.Metadata
        switch download.get(hashURL, label: "link-cleaning rules", known: current == nil ? nil : known, diagnostics: diagnostics) {
        case .notModified(let metadata): return storeMetadata(metadata, success: .notModified)
        case .body(let answer, let answerMetadata): (body, metadata) = (answer, answerMetadata)
        case .unavailable(let outcome): return outcome
        }
        let hash = String(decoding: Self.trimmed(body[...]), as: UTF8.self).lowercased()
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            return .failed("\(hashURL) holds no SHA-256 hash")
        }
        if let current, Self.matches(current, hash) { return storeMetadata(metadata, success: .notModified) }
        let rulesURL = baseURL + "/" + Self.rulesFile
        diagnostics.explain("GET \(rulesURL)")
        let rules: HTTPResponse
        do {
            rules = try client().get(HTTPRequest(url: rulesURL, label: "link-cleaning rules"))
        } catch {
            return .failed(error.description)
        }
        guard rules.status == 200 else { return .failed("\(rulesURL): HTTP \(rules.status)") }
        guard Self.matches(rules.body, hash) else {
            return .failed("\(rulesURL) does not match the hash published beside it")
        }
        do {
            let file = try ClearURLsRuleFile(parsing: rules.body, source: rulesURL)
            guard !file.providers.isEmpty else { return .failed("\(rulesURL) holds no providers") }
        } catch {
            return .failed(error.description)
        }
        do {
            // The rules first: a metadata line left older by a crash only costs a download.
            fileSystem.removeAbandonedTemporaryFiles(of: rulesPath)
            try fileSystem.writeAtomically(rules.body, to: rulesPath, permissions: 0o600)
        } catch {
            return .failed("cannot write the cache: \(error)")
        }
        return storeMetadata(metadata, success: .updated)
    }

    private func storeMetadata(_ metadata: CatalogCache.Metadata, success: CatalogRefresher.Outcome) -> CatalogRefresher.Outcome {
        do {
            fileSystem.removeAbandonedTemporaryFiles(of: metadataPath)
            try fileSystem.writeAtomically(Array(metadata.line.utf8), to: metadataPath, permissions: 0o600)
            return success
        } catch {
            return .failed("cannot write the cache: \(error)")
        }
    }

    /// The add-on hashes the text with the whitespace around it trimmed; the published hashes
    /// are also those of the file as it is.
    private static func matches(_ body: [UInt8], _ hash: String) -> Bool {
        SHA256.hex(of: body) == hash || SHA256.hex(of: trimmed(body[...])) == hash
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }
}
