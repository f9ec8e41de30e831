/// `$XDG_CONFIG_HOME/choosy/rules.json`, a `GuardedJSONFile` like the preferences. A corrupt
/// file is moved aside; what happens next is the caller's choice: opening a link goes on
/// without rules (a broken file must not stop links from opening), while `rule` commands stop
/// with exit 7 rather than build on it.
package final class SiteRuleStore {
    package typealias WhenCorrupt = GuardedJSONFile<SiteRules>.WhenCorrupt

    /// For opening links: a warning, then no rules.
    package static var goOnWithoutRules: WhenCorrupt { .startEmpty("no site rules") }

    private let file: GuardedJSONFile<SiteRules>
    private var loaded: SiteRules?

    package var path: String { file.path }

    package init(environment: Environment, fileSystem: FileSystem, diagnostics: DiagnosticSink, clock: Clock) {
        file = GuardedJSONFile(
            path: joinPath(environment.configHome, "choosy", "rules.json"), fileSystem: fileSystem, diagnostics: diagnostics,
            clock: clock, empty: SiteRules(), decode: SiteRules.init(json:), encode: \.json
        )
    }

    /// Read once per command.
    package func rules(whenCorrupt: WhenCorrupt) throws(ChoosyError) -> SiteRules {
        if let loaded { return loaded }
        let rules = try file.load(whenCorrupt: whenCorrupt)
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
