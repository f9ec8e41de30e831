/// An action on an app type that a plain link stands for.
package struct LinkAction: Equatable, Sendable {
    package var type: String
    package var action: String
    package var parameters: [String: String]
    /// What the link was, for the apps that take it whole.
    package var link: LinkOrigin? = nil
}

/// A web link turned into an action: a browser or web app gets it unchanged, and `apps`
/// limits who may take it.
package struct LinkOrigin: Equatable, Sendable {
    package var url: String
    /// The link as a browser reads it, for its site rule.
    package var web: WebURL
    /// The only apps that may take the link; nil: any app of the type.
    package var apps: [String]? = nil
}

/// Where `choosy handle URL` sends a link (README, "choosy handle").
package enum LinkTarget: Equatable, Sendable {
    /// Open through the app type's chooser.
    case action(LinkAction)
    /// A `choosy:` URL: an x-callback-url request for `choosy route`.
    case route(String)
    /// Any other scheme (lowercased): the caller matches it against the catalog's apps.
    case scheme(String)
}

/// Turns a plain URL into the action it stands for.
package struct LinkClassifier {
    /// The catalog's links that could match a web link, read only for a web link.
    private let catalogLinks: (WebURL) throws(ChoosyError) -> CatalogLinkMatcher
    private let diagnostics: DiagnosticSink

    package init(catalogLinks: @escaping (WebURL) throws(ChoosyError) -> CatalogLinkMatcher, diagnostics: DiagnosticSink) {
        self.catalogLinks = catalogLinks
        self.diagnostics = diagnostics
    }

    package func classify(_ link: String) throws(ChoosyError) -> LinkTarget {
        let url = trimmed(link)
        guard let parts = URLParts(url) else {
            throw ChoosyError.usage("'\(link)' is not a URL (it has no scheme)")
        }
        let scheme = parts.scheme.lowercased()
        switch scheme {
        case "http", "https":
            // The host a browser would reach decides what the link is (never text before an `@`).
            let web: WebURL
            do {
                web = try WebURL(parsing: url)
            } catch {
                throw ChoosyError.usage("'\(link.prefix(80))' is not a link a browser can open: \(error.reason)")
            }
            if let match = try catalogLinks(web).match(web, original: url) {
                diagnostics.explain("the link is \(match.type) \(match.link.action) by the pattern \(match.link.pattern)")
                return .action(
                    LinkAction(
                        type: match.type, action: match.link.action, parameters: match.parameters,
                        link: LinkOrigin(url: url, web: web, apps: match.link.apps)))
            }
            return .action(LinkAction(type: "browser", action: "browse", parameters: ["url": url], link: LinkOrigin(url: url, web: web)))
        case "mailto":
            return .action(MailtoLink.action(parts))
        case "geo":
            // A geo: URI whose coordinates make no sense is left to whatever app claims the scheme.
            return GeoLink.action(parts).map { .action($0) } ?? .scheme(scheme)
        case "choosy":
            return .route(url)
        default:
            return .scheme(scheme)
        }
    }

    /// Links pasted from documents often carry surrounding spaces or a trailing newline.
    private func trimmed(_ link: String) -> String {
        let scalars = link.unicodeScalars
        let isBlank = { (scalar: Unicode.Scalar) in scalar.value <= 0x20 || scalar.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
