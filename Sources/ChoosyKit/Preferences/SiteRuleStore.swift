/// `$XDG_CONFIG_HOME/choosy/rules.json`, a `GuardedJSONFile` like the preferences. A corrupt
/// file is read as no rules (a broken file must not stop links from opening); a change moves
/// it aside, and then goes on without rules (*always for SITE* from the picker) or stops with
/// exit 7 rather than build on it (`rule add`, `rule remove`).
package final class SiteRuleStore {
    package typealias WhenCorrupt = GuardedJSONFile<SiteRules>.WhenCorrupt

    /// For remembering a rule while opening a link: a warning, then no rules.
    package static var goOnWithoutRules: WhenCorrupt { .startEmpty }

    private let file: GuardedJSONFile<SiteRules>
    private var loaded: SiteRules?

    package var path: String { file.path }

    package init(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock) {
        file = GuardedJSONFile(environment: environment, fileSystem: fileSystem, warnings: warnings, clock: clock)
    }

    /// Read once per command; a corrupt file is no rules.
    package func rules() -> SiteRules {
        if let loaded { return loaded }
        let rules = file.load()
        loaded = rules
        return rules
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
        }
    }
}
