/// The catalog's links of every app type, and which one a web link is (doc/links-and-rules.md,
/// "Links in the catalog"): the most specific matching pattern wins, a tie goes to catalog order.
package struct CatalogLinkMatcher: Sendable {
    package struct Entry: Sendable {
        package var type: String
        package var link: ReadLink
    }

    package struct Match: Equatable, Sendable {
        package var type: String
        package var link: CatalogLink
        package var parameters: [String: String]
    }

    /// In catalog order: types as the catalog lists them, links as each type lists them.
    package let entries: [Entry]

    /// Every valid link of each type that could take `url`, or every one without it (the
    /// invalid ones are reported, `AppType.read`).
    package init(types: [(type: AppType, links: [CatalogLink])], url: WebURL?, diagnostics: DiagnosticSink) {
        entries = types.flatMap { type, links in
            type.read(links, for: url, diagnostics: diagnostics).map { Entry(type: type.key, link: $0) }
        }
    }

    package func match(_ url: WebURL, original: String) -> Match? {
        var best: (match: Match, specificity: LinkPattern.Specificity)?
        let subject = LinkPattern.Subject(url)
        for entry in entries {
            let pattern = entry.link.pattern
            // Only a strictly more specific pattern beats an earlier one.
            if let best, pattern.specificity <= best.specificity { continue }
            guard var parameters = pattern.match(subject, plusIsSpace: entry.link.link.plusIsSpace) else { continue }
            parameters.merge(entry.link.link.parameters) { taken, _ in taken }
            if let param = entry.link.link.linkParam { parameters[param] = original }
            best = (Match(type: entry.type, link: entry.link.link, parameters: parameters), pattern.specificity)
        }
        return best?.match
    }
}
