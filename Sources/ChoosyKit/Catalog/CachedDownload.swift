/// What the catalog's and the cleaning rules' refreshers share: a download under the cache's
/// lock for its key, so that concurrent processes download once, with what it came to marked
/// in the cache; and a conditional GET that sends back what the last answer said.
struct CachedDownload: Sendable {
    /// What the server made of a GET.
    enum Answer {
        /// 200: the body, and its metadata (fetched now, with the server's validators).
        case body([UInt8], CatalogCache.Metadata)
        /// 304 to a conditional request: the metadata known, fetched now, with any validators
        /// the server sent anew.
        case notModified(CatalogCache.Metadata)
        /// 404 or 410 (`notFound`), another status or no answer (`failed`).
        case unavailable(CatalogRefresher.Outcome)
    }

    let cache: CatalogCache
    /// Called only when a request is really made (it loads libcurl).
    let client: @Sendable () -> HTTPClient
    let clock: Clock

    /// `fetch` under the lock of `key`; a download clears the markers of earlier failures, a
    /// failure or a 404 is marked.
    func locked(_ key: String, _ fetch: () -> CatalogRefresher.Outcome) -> CatalogRefresher.Outcome {
        let lock: any HeldLock
        do {
            lock = try cache.lock(for: key, timeout: 30)
        } catch {
            return .failed("cannot lock the cache: \(error)")
        }
        defer { lock.unlock() }
        let outcome = fetch()
        switch outcome {
        case .updated, .notModified: cache.clearMarkers(of: key)
        case .failed: cache.record(.failed, for: key)
        case .notFound: cache.record(.notFound, for: key)
        case .alreadyFresh: break
        }
        return outcome
    }

    /// GETs `url`, conditionally when `known` is the metadata of a copy still here.
    func get(_ url: String, label: String, known: CatalogCache.Metadata?, diagnostics: DiagnosticSink) -> Answer {
        diagnostics.explain("GET \(url)\(known == nil ? "" : " (conditional)")")
        let response: HTTPResponse
        do {
            response = try client().get(
                HTTPRequest(url: url, ifNoneMatch: known?.etag, ifModifiedSince: known?.lastModified, label: label))
        } catch {
            return .unavailable(.failed(error.description))
        }
        let now = clock.now()
        switch response.status {
        case 304 where known != nil:
            var metadata = known!
            metadata.fetchedAt = now
            metadata.etag = response.etag ?? metadata.etag
            metadata.lastModified = response.lastModified ?? metadata.lastModified
            return .notModified(metadata)
        case 200:
            return .body(
                response.body, CatalogCache.Metadata(fetchedAt: now, url: url, etag: response.etag, lastModified: response.lastModified))
        case 404, 410:
            return .unavailable(.notFound)
        default:
            return .unavailable(.failed("\(url): HTTP \(response.status)"))
        }
    }
}
