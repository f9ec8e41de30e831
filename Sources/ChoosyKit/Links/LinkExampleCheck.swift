/// Whether a link's `examples` still hold with the merged catalog (doc/links-and-rules.md,
/// "Links in the catalog"): each is run through the same matcher `handle` uses, with every type's links
/// loaded, so that a more specific pattern elsewhere counts.
package struct LinkExampleCheck: Sendable {
    /// An example with what became of it; `failure` is nil when it holds.
    package struct Verdict: Equatable, Sendable {
        package var example: LinkExample
        package var failure: String?
    }

    /// A link of the type with its examples checked.
    package struct CheckedLink: Sendable {
        package var link: CatalogLink
        package var verdicts: [Verdict]

        /// As `describe --json` shows it: the link, its examples each with `"holds"`.
        package var json: JSONValue {
            guard case .object(var members) = link.json else { return link.json }
            members.append(
                (
                    "examples",
                    .array(
                        verdicts.map { verdict in
                            guard case .object(var example) = verdict.example.json else { return verdict.example.json }
                            example.append(("holds", .bool(verdict.failure == nil)))
                            if let failure = verdict.failure { example.append(("fails", .string(failure))) }
                            return .object(example)
                        })
                ))
            return .object(members)
        }
    }

    private let matcher: CatalogLinkMatcher

    /// `matcher`: the links of every type, for any host.
    package init(matcher: CatalogLinkMatcher) {
        self.matcher = matcher
    }

    package func check(_ links: [CatalogLink], of type: String) -> [CheckedLink] {
        links.map { link in
            CheckedLink(link: link, verdicts: link.examples.map { Verdict(example: $0, failure: failure(of: $0, type: type)) })
        }
    }

    /// Why the example does not hold, or nil.
    func failure(of example: LinkExample, type: String) -> String? {
        let url: WebURL
        do {
            url = try WebURL(parsing: example.link)
        } catch {
            return "not a link a browser can open: \(error.reason)"
        }
        let match = matcher.match(url, original: example.link)
        switch example.expected {
        case .browser:
            guard let match, match.type != "browser" else { return nil }
            return "it is \(describe(match)), not the browser"
        case .action(let action, let parameters):
            guard let match else { return "no pattern takes it: it stays in the browser" }
            guard match.type == type, match.link.action == action, match.parameters == parameters else {
                return "it is \(describe(match))"
            }
            return nil
        }
    }

    private func describe(_ match: CatalogLinkMatcher.Match) -> String {
        let parameters = match.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(match.type) \(match.link.action)" + (parameters.isEmpty ? "" : " with " + parameters.joined(separator: ", "))
    }
}
