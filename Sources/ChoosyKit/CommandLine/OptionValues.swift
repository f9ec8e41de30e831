/// What the options on a command line set (`CommandGrammar` says which option sets what).
public struct OptionValues: Equatable, Sendable {
    /// Those of open, url, handle and route, passed on as they are.
    public var open = OpenOptions()
    public var json = false
    public var verbose = false
    public var offline = false
    public var help = false
    public var version = false
    /// `reset --all`.
    public var all = false
    /// `install --default-handler`.
    public var defaultHandler = false

    public init() {}
}
