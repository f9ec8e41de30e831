import ChoosyKit

/// A parsed command line.
struct Invocation {
    enum Command: Equatable {
        case open(type: String, action: String?, parameters: [(String, String)])
        case url(type: String, action: String, parameters: [(String, String)])
        case reset(type: String?)
        case showDefault(type: String)
        case setDefault(type: String, app: String)
        case list(type: String?)
        case describe(type: String)
        case update(types: [String])
        case handle(url: String)
        case route(url: String)
        case install(defaultHandler: Bool)
        case uninstall
        case addRule(site: String, target: SiteRule.Target)
        case listRules
        case removeRule(site: String)
        case testRule(url: String)
        case completions(shell: String)
        case complete(words: [String])
        case refresh(types: [String])
        case help(topic: String?)
        case version

        static func == (lhs: Command, rhs: Command) -> Bool { "\(lhs)" == "\(rhs)" }
    }

    var command: Command
    /// What the options set; `options.open` goes to open, url, handle and route as it is.
    var options = OptionValues()
}
