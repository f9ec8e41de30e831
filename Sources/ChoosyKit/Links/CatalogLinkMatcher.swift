/// The catalog's links of every app type, and which one a web link is (README, "Links in the
/// catalog"): the most specific matching pattern wins, a tie goes to catalog order.
package struct CatalogLinkMatcher: Sendable {
    package struct Entry: Sendable {
        package var type: String
        package var link: CatalogLink

        package init(type: String, link: CatalogLink) {
            self.type = type
            self.link = link
        }
    }

    package struct Match: Equatable, Sendable {
        package var type: String
        package var link: CatalogLink
        package var parameters: [String: String]
    }

    /// In catalog order: types as the catalog lists them, links as each type lists them.
    package let entries: [Entry]

    package init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// Every type's links, leaving out (with a warning) those whose action the type does not
    /// have, since they could only fail.
    package init(types: [AppType], diagnostics: DiagnosticSink) {
        var entries: [Entry] = []
        for type in types {
            for link in type.links {
                guard type.knownAction(link.action) != nil else {
                    diagnostics.warning("ignoring link '\(link.pattern.source)' of '\(type.key)': the type has no action '\(link.action)'")
                    continue
                }
                entries.append(Entry(type: type.key, link: link))
            }
        }
        self.entries = entries
    }

    package func match(_ url: WebURL, original: String) -> Match? {
        var best: (match: Match, specificity: LinkPattern.Specificity)?
        for entry in entries {
            let pattern = entry.link.pattern
            // Only a strictly more specific pattern beats an earlier one.
            if let best, pattern.specificity <= best.specificity { continue }
            guard var parameters = pattern.match(url) else { continue }
            if let param = entry.link.linkParam { parameters[param] = original }
            best = (Match(type: entry.type, link: entry.link, parameters: parameters), pattern.specificity)
        }
        return best?.match
    }
}
