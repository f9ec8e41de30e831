extension Choosy {
    /// `choosy __complete WORD…`. It runs on every Tab, so it reads local catalog data only (the
    /// bundled catalog, the download cache and the user's files): it never downloads, never
    /// starts a background refresh, never probes desktop entries, and says nothing on stderr.
    package func complete(_ words: [String]) -> [CompletionCandidate] {
        let catalog = Catalog(
            cache: CatalogCache(environment: environment, fileSystem: fileSystem),
            userCatalog: UserCatalog(environment: environment, fileSystem: fileSystem),
            network: nil, clock: clock,
            // Warnings about a broken catalog file would land in the middle of the prompt.
            diagnostics: RecordingDiagnostics(verbose: false)
        )
        let rules = siteRules
        return Completer(catalog: catalog) { rules.readableRules()?.rules.map(\.site.text) ?? [] }.candidates(for: words)
    }
}
