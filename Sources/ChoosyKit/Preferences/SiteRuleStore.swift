/// `$XDG_CONFIG_HOME/choosy/rules.json`, a `GuardedJSONFile` like the preferences. A corrupt
/// file is read as no rules (a broken file must not stop links from opening); a change moves
/// it aside, and then goes on without rules (*always for SITE* from the picker) or stops with
/// exit 7 rather than build on it (`rule add`, `rule remove`).
package final class SiteRuleStore {
    package typealias WhenCorrupt = GuardedJSONFile<SiteRules>.WhenCorrupt

    /// For remembering a rule while opening a link: a warning, then no rules.
    package static var goOnWithoutRules: WhenCorrupt { .startEmpty }

    private let file: GuardedJSONFile<SiteRules>
    private let fileSystem: FileSystem
    /// `site-rules.index` in choosy's cache directory (`SiteRuleIndex`).
    package let indexPath: String
    /// False for a dry run, which writes nothing: making an index it cannot keep would only cost.
    private let keepsIndex: Bool
    private var loaded: SiteRules?
    /// The index that stands for rules.json, looked for once (nil inside: none does).
    private var index: SiteRuleIndex??
    /// `sources()`, once found.
    private var knownSources: [String]?

    package var path: String { file.path }

    package init(
        environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock, keepsIndex: Bool = true
    ) {
        file = GuardedJSONFile(environment: environment, fileSystem: fileSystem, warnings: warnings, clock: clock)
        self.fileSystem = fileSystem
        self.keepsIndex = keepsIndex
        indexPath = joinPath(environment.cacheHome, "choosy", "site-rules.index")
    }

    /// Read once per command; a corrupt file is no rules.
    package func rules() -> SiteRules {
        if let loaded { return loaded }
        let rules = file.load()
        loaded = rules
        return rules
    }

    /// The rules that may decide links of `url`'s host, in their order (`SiteRuleIndex`): the
    /// answer of `match` for such a link is that of all the rules.
    package func rules(for url: WebURL) -> SiteRules {
        if loaded == nil, let index = currentIndex(), let rules = index.rules(for: url.host) { return SiteRules(rules) }
        return rules()
    }

    /// The sources the rules name (`from`), each once.
    package func sources() -> [String] {
        if let knownSources { return knownSources }
        let sources = loaded == nil ? currentIndex()?.sources ?? rules().sources : rules().sources
        knownSources = sources
        return sources
    }

    /// The index of rules.json as it is; when there is none, rules.json is read whole and an
    /// index of it is written (a dry run writes none). Nil when there is no rules.json, or one
    /// that does not read cleanly: that is read, and reported, every time.
    private func currentIndex() -> SiteRuleIndex? {
        if let index { return index }
        guard let bytes = file.bytes() else {
            index = .some(nil)
            return nil
        }
        let key = SiteRuleIndex.Key(bytes)
        if let stored = try? fileSystem.read(indexPath, limit: JSONReader.ownFileLimit),
            let found = SiteRuleIndex(decoding: stored, for: key)
        {
            index = found
            return found
        }
        let (rules, isCurrent) = file.load(bytes)
        loaded = rules
        index = .some(nil)
        // One larger than a read takes would be written anew by every command.
        if isCurrent, keepsIndex, let encoded = SiteRuleIndex.encoded(rules, for: key), encoded.count <= JSONReader.ownFileLimit {
            try? fileSystem.writeAtomically(encoded, to: indexPath, permissions: 0o600)
        }
        return nil
    }

    /// The rules, or nil when the file cannot be read; nothing is moved or reported (for
    /// completion, which runs on every Tab).
    package func readableRules() -> SiteRules? {
        file.readable()
    }

    package func modify(whenCorrupt: WhenCorrupt, _ change: (inout SiteRules) throws(ChoosyError) -> Void) throws(ChoosyError) {
        try file.modify(whenCorrupt: whenCorrupt) { rules throws(ChoosyError) in
            try change(&rules)
            loaded = rules
            knownSources = nil
        }
    }
}
