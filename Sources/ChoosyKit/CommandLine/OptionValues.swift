/// What the options on a command line set (`CommandGrammar` says which option sets what).
package struct OptionValues: Equatable, Sendable {
    /// Those of open, url, handle and route, passed on as they are.
    package var open = OpenOptions()
    package var json = false
    package var verbose = false
    package var offline = false
    package var help = false
    package var version = false
    /// `reset --all`.
    package var all = false
    /// `install --default-handler`.
    package var defaultHandler = false
    /// `rule add --profile NAME`.
    package var profile: String?
    /// `rule add --ask`.
    package var ask = false
    /// `rule add --none`.
    package var openNothing = false
    /// `history --clear`.
    package var clear = false
    /// `--clean` (true) or `--no-clean` (false); nil when neither was given.
    package var clean: Bool?
    /// `--unshorten` (true) or `--no-unshorten` (false); nil when neither was given.
    package var unshorten: Bool?
    /// `rule add|remove|test --from SOURCE`.
    package var from: String?
    /// `clean --explain`.
    package var explain = false

    package init() {}
}
