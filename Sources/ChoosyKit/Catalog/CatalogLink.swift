/// A web link that means one of a type's actions (doc/links-and-rules.md, "Links in the catalog"):
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
    /// Parameters every link of the pattern gives (`server` of a Jitsi server's links).
    package var parameters: [String: String] = [:]
    /// `+` in a path segment is a space (Google Maps writes `/maps/search/Alexanderplatz+Berlin`).
    package var plusIsSpace = false
    /// What the pattern must make of real links (doc/links-and-rules.md, "Links in the catalog").
    package var examples: [LinkExample] = []
    /// The file (or URL) that said so, for warnings.
    package var origin: String
}

/// A real link and what the catalog must make of it: an action with exactly these parameters
/// (`link_param` included), or the browser.
package struct LinkExample: Equatable, Sendable {
    package enum Expected: Equatable, Sendable {
        case action(String, parameters: [String: String])
        case browser
    }

    package var link: String
    package var expected: Expected

    /// What it must be, as `describe` shows it: `chat open_chat username=durov`, `browser`.
    package var outcome: String {
        guard case .action(let action, let parameters) = expected else { return "the browser" }
        return ([action] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }

    package var json: JSONValue {
        switch expected {
        case .browser:
            .object([("link", .string(link)), ("browser", .bool(true))])
        case .action(let action, let parameters):
            .object([
                ("link", .string(link)), ("action", .string(action)),
                ("parameters", .object(sortedByName: parameters.mapValues(JSONValue.string))),
            ])
        }
    }
}

extension CatalogLink {
    /// As `list --json` and `describe --json` show it (doc/links-and-rules.md, "Links in the catalog").
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
    /// `url`, only the patterns that could take it are read: a bundled one (catalog/check.py
    /// checked them all) when it could take the link (`LinkPattern.mayMatch`), another
    /// source's when it is of the link's host, so that an invalid one there is named.
    package func read(_ links: [CatalogLink], for url: WebURL? = nil, diagnostics: DiagnosticSink) -> [ReadLink] {
        links.compactMap { link -> ReadLink? in
            if let url {
                let could =
                    link.origin == BundledCatalog.source
                    ? LinkPattern.mayMatch(link.pattern, url) : LinkPattern.hostPattern(of: link.pattern)?.matches(url.host) ?? true
                if !could { return nil }
            }
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
