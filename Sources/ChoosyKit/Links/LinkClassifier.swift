/// An action on an app type that a plain link stands for.
package struct LinkAction: Equatable, Sendable {
    package var type: String
    package var action: String
    package var parameters: [String: String]
    /// What the link was, for the apps that take it whole.
    package var link: LinkOrigin? = nil
    /// The catalog link's pattern that matched, if one did.
    package var pattern: String? = nil
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

/// Where `choosy handle URL` sends a link (doc/links-and-rules.md, "choosy handle").
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
    /// Its links are read only for a web link, and only those of the types with links for its host.
    private let catalog: Catalog
    private let diagnostics: DiagnosticSink

    package init(catalog: Catalog, diagnostics: DiagnosticSink) {
        self.catalog = catalog
        self.diagnostics = diagnostics
    }

    /// The link as `route` takes it, when it is a `choosy:` one: an x-callback-url request.
    package static func routed(_ link: String) -> String? {
        // Its first letters after any blank decide, in any case: most links are no such request,
        // and are not copied.
        var scalars = link.unicodeScalars.drop(while: isBlank).makeIterator()
        for expected in "choosy:".unicodeScalars {
            guard let scalar = scalars.next() else { return nil }
            let lowered = (0x41...0x5A).contains(scalar.value) ? scalar.value + 0x20 : scalar.value
            guard lowered == expected.value else { return nil }
        }
        return trimmed(link)
    }

    package func classify(_ link: String) throws(ChoosyError) -> LinkTarget {
        let url = Self.trimmed(link)
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
            if let match = try catalogLinks(for: web).match(web, original: url) {
                diagnostics.explain("the link is \(match.type) \(match.link.action) by the pattern \(match.link.pattern)")
                return .action(
                    LinkAction(
                        type: match.type, action: match.link.action, parameters: match.parameters,
                        link: LinkOrigin(url: url, web: web, apps: match.link.apps), pattern: match.link.pattern))
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

    /// The links that could take `url` of the app types that have links for its host, in the
    /// order `list` shows the types. Only the catalog's own data counts: no desktop entry is read
    /// to know what a link is.
    private func catalogLinks(for url: WebURL) throws(ChoosyError) -> CatalogLinkMatcher {
        var types: [(AppType, [CatalogLink])] = []
        for key in catalog.typesWithLinks(matching: url.host) {
            types.append((try catalog.appType(key), catalog.links(of: key, for: url.host)))
        }
        return CatalogLinkMatcher(types: types, url: url, diagnostics: diagnostics)
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar.value <= 0x20 || scalar.properties.isWhitespace }

    /// Links pasted from documents often carry surrounding spaces or a trailing newline.
    private static func trimmed(_ link: String) -> String {
        let scalars = link.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
