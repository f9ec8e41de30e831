/// `choosy __complete WORD…`, what the completion scripts call: the candidates for the last
/// word, one a line, a tab and a description after some.
package struct CompleteCommand: ChoosyCommand {
    package static let grammar = CommandGrammar.Command.hidden("__complete")

    let words: [String]

    package init(_ line: ParsedCommandLine) { words = line.arguments }

    package init(words: [String]) {
        self.words = words
    }

    package func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        CommandOutput(concatenated(candidates(with: try context.choosy()).map { $0.line + "\n" }))
    }

    /// It runs on every Tab, so it reads local catalog data only (the bundled catalog, the
    /// download cache and the user's files): it never downloads, never starts a background
    /// refresh, probes desktop entries only to complete a profile (`firefox@<Tab>`), and says
    /// nothing on stderr.
    package func candidates(with choosy: Choosy) -> [CompletionCandidate] {
        let environment = choosy.environment
        let fileSystem = choosy.fileSystem
        // The root's local catalog: no download, and warnings about a broken catalog file would
        // land in the middle of the prompt.
        let catalog = choosy.localCatalog()
        // Only for `app@<Tab>`: the app's installed variant is found, and its profile list read.
        let quiet = RecordingDiagnostics(verbose: false)
        let finder = BrowserProfileFinder(
            environment: environment, fileSystem: fileSystem, diagnostics: quiet, stores: choosy.profileGroupStores)
        let rules = choosy.siteRules
        return Completer(
            grammar: CommandTable.grammar, catalog: catalog,
            profiles: { app in
                guard let entry = choosy.probe().installedEntry(for: app) else { return [] }
                return finder.profiles(of: app, desktopID: entry.id)
            },
            discoveredApps: { type in
                InstalledAppFinder(probe: choosy.probe(), diagnostics: quiet).discoveredApps(of: type)
            }, ruleSites: { rules.readableRules()?.rules.map(\.siteText) ?? [] }, desktopIDs: { choosy.probe().index.ids() },
            hiddenChoices: {
                Configuration.load(environment: environment, fileSystem: fileSystem, warnings: CorruptFileWarnings(diagnostics: quiet))
                    .hidden
            }
        ).candidates(for: words)
    }
}
