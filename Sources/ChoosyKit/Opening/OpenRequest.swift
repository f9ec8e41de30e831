/// One `open` or `url`: an action on an app type with generic parameters.
public struct OpenRequest: Sendable {
    public enum Purpose: Sendable {
        /// `open`: launch the app (or with `--dry-run`, print what would run).
        case launch
        /// `url`: only compute the URL; nothing is launched or remembered.
        case url
    }

    /// The type as the user wrote it: a key or a name, any case.
    public var type: String
    public var action: String?
    /// `KEY=VALUE` pairs in order; a later duplicate wins.
    public var parameters: [(String, String)]
    public var options: OpenOptions
    public var purpose: Purpose

    public init(type: String, action: String?, parameters: [(String, String)], options: OpenOptions = OpenOptions(), purpose: Purpose = .launch) {
        self.type = type
        self.action = action
        self.parameters = parameters
        self.options = options
        self.purpose = purpose
    }
}
