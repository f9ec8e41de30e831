/// Where the cleaning rules come from, in the order they apply: the ClearURLs rules (a
/// downloaded copy that passed its hash check, else the bundled one beside the executable),
/// choosy's own rules beside them, then the user's `$XDG_CONFIG_HOME/choosy/clean/*.json`.
/// Nothing is compiled into the binary: a binary copied alone has no rules, and cleaning is off.
struct CleaningRuleSources: Sendable {
    /// The bundled rules: `share/choosy/clean/` of the installation the executable is in.
    let bundledDirectory: String
    /// The downloaded ClearURLs rules, stored only once their hash was checked.
    let downloadedRules: String
    let userDirectory: String

    static let clearURLsFile = "data.min.json"
    static let choosyFile = "choosy.json"

    init(executable: String, environment: Environment) {
        bundledDirectory = joinPath(parentDirectory(of: parentDirectory(of: executable)), "share", "choosy", "clean")
        downloadedRules = joinPath(environment.cacheHome, "choosy", "clean", Self.clearURLsFile)
        userDirectory = joinPath(environment.configHome, "choosy", "clean")
    }

    /// The rules files, each read leniently; a file that cannot be read costs one warning and is
    /// left out, and so is a downloaded copy, for the bundled one.
    func load(fileSystem: FileSystem, diagnostics: DiagnosticSink) -> [ClearURLsRuleFile] {
        var files: [ClearURLsRuleFile] = []
        let bundledRules = joinPath(bundledDirectory, Self.clearURLsFile)
        var clearURLs: ClearURLsRuleFile?
        if fileSystem.info(downloadedRules) != nil {
            clearURLs = read(downloadedRules, fileSystem, diagnostics)
            // A copy that cannot be read goes, so that it is downloaded again.
            if clearURLs == nil { fileSystem.remove(downloadedRules) }
        }
        if let rules = clearURLs ?? read(bundledRules, fileSystem, diagnostics) {
            files.append(rules)
        } else {
            diagnostics.warning("no link-cleaning rules at \(bundledRules): links are not cleaned")
            return []
        }
        if let own = read(joinPath(bundledDirectory, Self.choosyFile), fileSystem, diagnostics) { files.append(own) }
        let names = (fileSystem.list(userDirectory) ?? []).filter { $0.hasSuffix(".json") }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        files += names.compactMap { read(joinPath(userDirectory, $0), fileSystem, diagnostics) }
        for file in files {
            diagnostics.explain("cleaning rules: \(file.source) (\(file.providers.count) providers)")
            file.warnings.forEach(diagnostics.warning)
        }
        return files
    }

    private func read(_ path: String, _ fileSystem: FileSystem, _ diagnostics: DiagnosticSink) -> ClearURLsRuleFile? {
        guard fileSystem.info(path) != nil else { return nil }
        do {
            return try ClearURLsRuleFile(parsing: try fileSystem.read(path, limit: ClearURLsRuleFile.maximumSize), source: path)
        } catch let error as CleaningError {
            diagnostics.warning("\(error.description); those rules are not used")
        } catch {
            diagnostics.warning("\(path): \(error); those rules are not used")
        }
        return nil
    }
}
