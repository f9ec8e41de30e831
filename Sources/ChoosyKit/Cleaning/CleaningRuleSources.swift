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
    /// `CleaningRulesCache`'s file.
    let cachePath: String

    static let clearURLsFile = "data.min.json"
    static let choosyFile = "choosy.json"
    static let shortenersFile = "shorteners.txt"

    init(executable: String, environment: Environment) {
        bundledDirectory = joinPath(parentDirectory(of: parentDirectory(of: executable)), "share", "choosy", "clean")
        downloadedRules = joinPath(environment.cacheHome, "choosy", "clean", Self.clearURLsFile)
        userDirectory = joinPath(environment.configHome, "choosy", "clean")
        cachePath = joinPath(environment.cacheHome, "choosy", "clean", "parsed.rules")
    }

    /// The rules files, each read leniently; a file that cannot be read costs one warning and is
    /// left out, and so is a downloaded copy, for the bundled one. What they give is kept in
    /// `CleaningRulesCache` while the same files are there unchanged (`keepsParsedRules`: not in a
    /// dry run, which writes nothing).
    func load(fileSystem: FileSystem, diagnostics: DiagnosticSink, keepsParsedRules: Bool) -> [ClearURLsRuleFile] {
        let bundledRules = joinPath(bundledDirectory, Self.clearURLsFile)
        let downloaded = fileSystem.info(downloadedRules) != nil
        let names = (fileSystem.list(userDirectory) ?? []).filter { $0.hasSuffix(".json") }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        let own = joinPath(bundledDirectory, Self.choosyFile)
        let paths =
            [downloaded ? downloadedRules : bundledRules] + (fileSystem.info(own) != nil ? [own] : [])
            + names.map { joinPath(userDirectory, $0) }
        let cache = CleaningRulesCache(path: cachePath, fileSystem: fileSystem)
        // Each file is read once: for its key, and parsed from those bytes when the cache misses.
        var contents: [String: [UInt8]] = [:]
        for path in paths where fileSystem.info(path) != nil {
            contents[path] = try? fileSystem.read(path, limit: ClearURLsRuleFile.maximumSize)
        }
        let keys = paths.compactMap { path in contents[path].map { CleaningRulesCache.key(path, $0) } }
        var files: [ClearURLsRuleFile]
        if keys.count == paths.count, let cached = cache.load(for: keys) {
            files = cached
        } else {
            files = []
            var clearURLs: ClearURLsRuleFile?
            if downloaded {
                clearURLs = read(downloadedRules, contents[downloadedRules], fileSystem, diagnostics)
                // A copy that cannot be read goes, so that it is downloaded again.
                if clearURLs == nil { fileSystem.remove(downloadedRules) }
            }
            guard let rules = clearURLs ?? read(bundledRules, contents[bundledRules], fileSystem, diagnostics) else {
                diagnostics.warning("no link-cleaning rules at \(bundledRules): links are not cleaned")
                return []
            }
            files = [rules] + paths.dropFirst().compactMap { read($0, contents[$0], fileSystem, diagnostics) }
            // Only files that all read, as they were found: a broken one is warned about again.
            if keepsParsedRules && keys.count == paths.count && files.map(\.source) == paths {
                do {
                    try cache.store(files, for: keys)
                } catch {
                    diagnostics.explain("cannot keep the parsed cleaning rules in \(cachePath): \(error)")
                }
            }
        }
        for file in files {
            diagnostics.explain("cleaning rules: \(file.source) (\(file.providers.count) providers)")
            file.warnings.forEach(diagnostics.warning)
        }
        return files
    }

    /// The shortener list: `CHOOSY_SHORTENERS`, else the one beside the rules; nil, with one
    /// warning, when it cannot be read (links are then not unshortened).
    func shorteners(environment: Environment, fileSystem: FileSystem, diagnostics: DiagnosticSink) -> ShortenerList? {
        let path = environment.value("CHOOSY_SHORTENERS") ?? joinPath(bundledDirectory, Self.shortenersFile)
        do {
            guard fileSystem.info(path) != nil else { throw CleaningError("no shortener list at \(path)") }
            let list = try ShortenerList(parsing: try fileSystem.read(path, limit: ShortenerList.maximumSize), source: path)
            diagnostics.explain("shortener list: \(path) (\(list.hosts.count) hosts)")
            list.warning.map(diagnostics.warning)
            return list
        } catch let error as CleaningError {
            diagnostics.warning("\(error.description): links are not unshortened")
        } catch {
            diagnostics.warning("\(path): \(error): links are not unshortened")
        }
        return nil
    }

    /// The rules of `path`, parsed from `bytes` when they were read already.
    private func read(_ path: String, _ bytes: [UInt8]?, _ fileSystem: FileSystem, _ diagnostics: DiagnosticSink) -> ClearURLsRuleFile? {
        guard bytes != nil || fileSystem.info(path) != nil else { return nil }
        do {
            return try ClearURLsRuleFile(parsing: try bytes ?? fileSystem.read(path, limit: ClearURLsRuleFile.maximumSize), source: path)
        } catch let error as CleaningError {
            diagnostics.warning("\(error.description); those rules are not used")
        } catch {
            diagnostics.warning("\(path): \(error); those rules are not used")
        }
        return nil
    }
}
