/// One `open` or `url`: an action on an app type with generic parameters.
package struct OpenRequest: Sendable {
    package enum Purpose: Sendable {
        /// `open`: launch the app (or with `--dry-run`, print what would run).
        case launch
        /// `url`: only compute the URL; nothing is launched or remembered.
        case url
    }

    /// The type as the user wrote it: a key or a name, any case.
    package var type: String
    package var action: String?
    /// `KEY=VALUE` pairs in order; a later duplicate wins.
    package var parameters: [(String, String)]
    package var options: OpenOptions
    package var purpose: Purpose
    /// The web link this request stands for (`handle`), set when choosy read it as an action.
    package var link: LinkOrigin?
    /// The address a web app built (`open email compose` in Gmail), not a link the user opened:
    /// site rules and *always for SITE* are for the user's links only.
    package var builtByWebApp = false
    /// The source `rule test --from` names: the link is taken as coming from it.
    package var from: String?

    package init(
        type: String, action: String?, parameters: [(String, String)], options: OpenOptions = OpenOptions(), purpose: Purpose = .launch,
        link: LinkOrigin? = nil
    ) {
        self.type = type
        self.action = action
        self.parameters = parameters
        self.options = options
        self.purpose = purpose
        self.link = link
    }
}
