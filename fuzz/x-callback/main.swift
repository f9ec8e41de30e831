@testable import ChoosyKit

// Any app can hand choosy a URL (`choosy route`, `choosy handle`). Routing must survive any
// text, never run an action for a request carrying an unsafe callback, never produce a
// callback that is unsafe to open, and report only the statuses it documents.
//
// Input fields: the URL, then the parameters a handler answers with (keys and values,
// alternating), which go into the x-success URL.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXCallback(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let url = input.field(0)
    var answer: [(String, String)] = []
    var index = 1
    while index < input.fields.count {
        answer.append((input.field(index), input.field(index + 1)))
        index += 2
    }

    var ran = false
    var router = CallbackRouter(schemes: ["choosy", "MyApp"])
    router.register(action: "open") { _ in
        ran = true
        return .success(answer)
    }
    router.register(action: "cancel") { _ in
        ran = true
        return .cancel
    }
    router.register(action: "fail") { request in
        ran = true
        return .failure(code: Int32(truncatingIfNeeded: request.parameters["code"].flatMap { Int($0) } ?? 1), message: url)
    }
    router.fallback = { request in
        guard request.action.hasPrefix("custom") else { return nil }
        ran = true
        return .success(answer)
    }
    let result = router.route(url)

    let statuses: Set<Int32> = [0, 1, 2, 5]
    invariant(statuses.contains(result.status) || (1...255).contains(result.status), "status \(result.status)")
    if let callback = result.callbackURL {
        invariant((try? CallbackURLBuilder.checked(callback)) == callback, "unsafe callback \(callback)")
        let scheme = URLParts(callback)!.scheme.lowercased()
        invariant(!CallbackURLBuilder.refusedSchemes.contains(scheme), "refused scheme in \(callback)")
    }
    if let request = try? XCallbackRequest.parse(url, schemes: ["choosy", "myapp"]) {
        invariant(["choosy", "myapp"].contains(request.scheme), "scheme \(request.scheme) was not registered")
        let callbacks = [request.successURL, request.errorURL, request.cancelURL].compactMap { $0 }
        if callbacks.contains(where: { (try? CallbackURLBuilder.checked($0)) == nil }) {
            invariant(!ran, "an action ran for a request with an unsafe callback")
            invariant(result.status == 2, "status \(result.status) for a request with an unsafe callback")
        }
        // The caller's callback text is kept byte for byte, before any fragment.
        if let success = request.successURL, result.status == 0, let built = result.callbackURL {
            let checked = try! CallbackURLBuilder.checked(success)
            let body = checked.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            invariant(built.hasPrefix(body), "\(built) does not start with \(body)")
        }
    } else {
        invariant(!ran, "an action ran for a URL that does not parse")
    }

    // The same text as a plain link for `choosy handle`, read with the bundled catalog's links:
    // an action it gives is one of the type's, and a web link's origin is the link itself.
    let classifier = LinkClassifier(catalog: bundledCatalog, diagnostics: RecordingDiagnostics(verbose: false))
    if case .action(let action)? = try? classifier.classify(url), let origin = action.link {
        invariant(
            bundledLinks.entries.contains { $0.type == action.type && $0.link.link.action == action.action } || action.type == "browser",
            "\(url.debugDescription) became \(action.type) \(action.action), which no bundled link gives")
        invariant(url.contains(origin.url), "\(url.debugDescription) lost its text: \(origin.url.debugDescription)")
    }
    return 0
}

/// The bundled catalog with no other source, read once; the fuzzer runs one input at a time.
nonisolated(unsafe) private let bundledCatalog: Catalog = {
    let environment = Environment(["HOME": "/nonexistent/choosy-home"])
    return Catalog(
        cache: CatalogCache(environment: environment, fileSystem: LocalFileSystem()),
        userCatalog: UserCatalog(environment: environment, fileSystem: LocalFileSystem()),
        network: nil, clock: SystemClock(), diagnostics: RecordingDiagnostics()
    )
}()

/// Its links, for the invariant.
private let bundledLinks: CatalogLinkMatcher = {
    let catalog = bundledCatalog
    return CatalogLinkMatcher(
        types: catalog.summaries().map { (try! catalog.appType($0.key), catalog.links(of: $0.key)) },
        url: nil, diagnostics: RecordingDiagnostics())
}()
