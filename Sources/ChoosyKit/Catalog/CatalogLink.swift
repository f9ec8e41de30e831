/// A web link that means one of a type's actions (README, "Links in the catalog"):
/// `https://t.me/{{username}}` is `chat open_chat`. Its pattern is read only when links are
/// needed (`handle`, `describe`), so that other commands never pay for it.
package struct CatalogLink: Equatable, Sendable {
    package var action: String
    /// The pattern as written.
    package var pattern: String
    /// The parameter that receives the whole original link (`url` for YouTube videos).
    package var linkParam: String? = nil
    /// The only apps that may take the link; nil: any app of the type.
    package var apps: [String]? = nil
    /// The file (or URL) that said so, for warnings.
    package var origin: String
}

extension CatalogLink {
    /// As `list --json` and `describe --json` show it (README, "Links in the catalog").
    package var json: JSONValue {
        .object([
            ("action", .string(action)), ("pattern", .string(pattern)),
            ("link_param", .optional(linkParam)), ("apps", apps.map(JSONValue.strings) ?? .null),
        ])
    }
}

/// A catalog link whose pattern has been read.
package struct ReadLink: Sendable {
    package var link: CatalogLink
    package var pattern: LinkPattern
}

extension AppType {
    /// The type's `links` with their patterns read; an invalid one is left out with a warning
    /// naming its file and pattern, and so is one whose action the type does not have. With
    /// `host`, only the patterns whose host it could be are read (a link has one host).
    package func read(_ links: [CatalogLink], forHost host: WebHost? = nil, diagnostics: DiagnosticSink) -> [ReadLink] {
        links.compactMap { link -> ReadLink? in
            if let host, let hostPattern = LinkPattern.hostPattern(of: link.pattern), !hostPattern.matches(host) { return nil }
            let shown = link.pattern.count > 80 ? link.pattern.prefix(80) + "…" : Substring(link.pattern)
            let pattern: LinkPattern
            do throws(LinkPatternError) {
                pattern = try LinkPattern(parsing: link.pattern)
            } catch {
                diagnostics.warning("\(link.origin): ignoring link '\(shown)' of '\(key)': \(error.reason)")
                return nil
            }
            guard knownAction(link.action) != nil else {
                diagnostics.warning("\(link.origin): ignoring link '\(shown)' of '\(key)': the type has no action '\(link.action)'")
                return nil
            }
            return ReadLink(link: link, pattern: pattern)
        }
    }
}
