extension Choosy {
    package struct UpdateReport: Sendable {
        package var key: String
        package var outcome: CatalogRefresher.Outcome
    }

    /// `choosy update [TYPE…]`: download now, ignoring the TTL. Exit 4 when any failed (a type
    /// the server does not have is an answer, not a failure).
    package func update(_ inputs: [String]) throws(ChoosyError) -> [UpdateReport] {
        guard !isOffline else { throw .unavailable("cannot update while offline (--offline or CHOOSY_OFFLINE)") }
        let catalog = try catalog()
        var keys: [String] = []
        for input in inputs {
            let lowered = input.lowercased()
            if isValidTypeKey(lowered) {
                keys.append(lowered)
            } else {
                keys.append(try catalog.resolve(input))
            }
        }
        return catalog.update(keys).map { UpdateReport(key: $0.key, outcome: $0.outcome) }
    }

    /// `choosy __refresh KEY…`, run detached by `ProcessBackgroundRefresher`.
    package func refreshInBackground(_ keys: [String]) throws(ChoosyError) {
        try catalog().refreshIfStale(keys.filter(isValidTypeKey))
    }
}

extension Choosy {
    /// `choosy describe TYPE`: the type, and its links whose patterns can be read (the others
    /// are reported), each example checked against the merged catalog with every type's links.
    package func describe(_ input: String) throws(ChoosyError) -> (AppType, [LinkExampleCheck.CheckedLink]) {
        let type = try appType(input)
        let links = type.read(try catalog().links(of: type.key, withExamples: true), diagnostics: diagnostics).map(\.link)
        guard links.contains(where: { !$0.examples.isEmpty }) else { return (type, links.map { .init(link: $0, verdicts: []) }) }
        let local = localCatalog()
        var types: [(AppType, [CatalogLink])] = []
        for key in local.summaries().map(\.key) {
            let typeLinks = key == type.key ? links : local.links(of: key, withExamples: true)
            guard !typeLinks.isEmpty, let other = key == type.key ? type : try? local.appType(key) else { continue }
            types.append((other, typeLinks))
        }
        // This type's invalid links were named above, another type's when it is described.
        let matcher = CatalogLinkMatcher(types: types, host: nil, diagnostics: RecordingDiagnostics())
        return (type, LinkExampleCheck(matcher: matcher).check(links, of: type.key))
    }
}
