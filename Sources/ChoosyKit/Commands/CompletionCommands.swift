extension Choosy {
    /// `choosy __complete WORD…`. It runs on every Tab, so it reads local catalog data only (the
    /// bundled catalog, the download cache and the user's files): it never downloads, never
    /// starts a background refresh, probes desktop entries only to complete an app key (the
    /// apps no catalog names) or a profile (`firefox@<Tab>`), and says nothing on stderr.
    package func complete(_ words: [String]) -> [CompletionCandidate] {
        let catalog = Catalog(
            cache: CatalogCache(environment: environment, fileSystem: fileSystem),
            userCatalog: UserCatalog(environment: environment, fileSystem: fileSystem),
            network: nil, clock: clock,
            // Warnings about a broken catalog file would land in the middle of the prompt.
            diagnostics: RecordingDiagnostics(verbose: false)
        )
        // Only for `app@<Tab>`: the app's installed variant is found, and its profile list read.
        let quiet = RecordingDiagnostics(verbose: false)
        let finder = BrowserProfileFinder(environment: environment, fileSystem: fileSystem, diagnostics: quiet, stores: profileGroupStores)
        let rules = siteRules
        return Completer(catalog: catalog, profiles: { [unowned self] app in
            guard let entry = self.probe().installedEntry(for: app) else { return [] }
            return finder.profiles(of: app, desktopID: entry.id)
        }, discoveredApps: { [unowned self] type in
            InstalledAppFinder(probe: self.probe(), diagnostics: quiet, browserInstalled: { false }).discoveredApps(of: type)
        }, ruleSites: { rules.readableRules()?.rules.map(\.site.text) ?? [] }).candidates(for: words)
    }
}
