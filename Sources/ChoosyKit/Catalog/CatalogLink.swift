/// A web link that means one of a type's actions (README, "Links in the catalog"):
/// `https://t.me/{{username}}` is `chat open_chat`.
package struct CatalogLink: Equatable, Sendable {
    package var action: String
    package var pattern: LinkPattern
    /// The parameter that receives the whole original link (`url` for YouTube videos).
    package var linkParam: String?
    /// The only apps that may take the link; nil: any app of the type.
    package var apps: [String]?

    package init(action: String, pattern: LinkPattern, linkParam: String? = nil, apps: [String]? = nil) {
        self.action = action
        self.pattern = pattern
        self.linkParam = linkParam
        self.apps = apps
    }
}
