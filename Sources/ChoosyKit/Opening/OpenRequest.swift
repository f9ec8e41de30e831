/// One `open`, `url` or `handle`: an action on an app type with generic parameters, or a
/// link whose type and action the planner finds.
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
    /// `handle`'s link as given: the planner reads it (SPEC §8.1) and sets `type`, `action`,
    /// `parameters` and `link` from it.
    package var handledLink: String?
    /// The source `rule test --from` names: the link is taken as coming from it.
    package var from: String?
    /// `--json`: the result names the link's source, so it is looked for (as `-v` does).
    package var reportsSource = false

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

extension OpenRequest {
    /// `choosy handle LINK`: a link, opened through the app type it stands for.
    package static func handling(_ link: String, options: OpenOptions = OpenOptions()) -> OpenRequest {
        var request = OpenRequest(type: "", action: nil, parameters: [], options: options)
        request.handledLink = link
        return request
    }
}
