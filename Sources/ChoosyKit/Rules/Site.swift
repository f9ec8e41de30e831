/// The SITE of a rule (README, "Site rules"): `example.org` is that host and every subdomain,
/// `=www.example.org` that host only, and either may end in a path prefix
/// (`github.com/work-org`) matched on whole segments. The host is read as a browser reads it
/// (`GitHub.com.`, IDNA), so a rule and a link agree on what a host is.
package struct Site: Hashable, Sendable {
    package let host: WebHost
    /// `=`: this host only, no subdomain.
    package let exact: Bool
    /// Percent-encoded as `WebURL` leaves a link's segments, without a trailing empty one.
    package let path: [String]

    package init(parsing text: String) throws(SiteError) {
        guard !text.isEmpty else { throw SiteError("a site cannot be empty") }
        if text.contains("://") {
            throw SiteError("write the site without its scheme, like 'example.org' (a rule covers http and https)")
        }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace || "@?#\\".unicodeScalars.contains($0) }) {
            throw SiteError(bad.value <= 0x20 || bad.properties.isWhitespace ? "a site holds no spaces or control characters" : "a site holds no '\(bad)'")
        }
        exact = text.hasPrefix("=")
        let rest = exact ? String(text.dropFirst()) : text
        let hostText = rest.prefix { $0 != "/" }
        guard !hostText.isEmpty else { throw SiteError("a site starts with its host") }
        let afterBrackets = hostText.hasPrefix("[") ? hostText.drop { $0 != "]" } : hostText
        guard !afterBrackets.contains(":") else {
            throw SiteError("a site has no port: a rule covers every port of its host")
        }
        let url: WebURL
        do {
            url = try WebURL(parsing: "http://" + rest)
        } catch {
            throw SiteError(error.reason)
        }
        var segments = url.pathSegments
        if segments.last == "" { segments.removeLast() }
        guard !segments.contains("") else { throw SiteError("its path has an empty segment") }
        // `github.com.` is the site `github.com`.
        host = url.host.domainName.map(WebHost.domain) ?? url.host
        path = segments
    }

    /// How the site is written back (`rule list`, rules.json): lowercase, punycode, no trailing dot.
    package var text: String {
        (exact ? "=" : "") + host.serialized + path.map { "/" + $0 }.joined()
    }

    package func matches(_ url: WebURL) -> Bool {
        let hostMatches = exact ? Self.sameHost(url.host, host) : url.host.isWithin(host)
        return hostMatches && url.pathSegments.count >= path.count && zip(url.pathSegments, path).allSatisfy { $0 == $1 }
    }

    /// Whether some link of the pattern's host is a link of this site too.
    package func overlaps(_ pattern: LinkPattern.HostPattern) -> Bool {
        let patternHost = WebHost.domain(pattern.domain)
        if exact { return pattern.matches(host) }
        return patternHost.isWithin(host) || pattern.includesSubdomains && host.isWithin(patternHost)
    }

    /// The most specific matching rule wins: an exact host over a domain, then more labels,
    /// then a longer path prefix.
    package func isMoreSpecific(than other: Site) -> Bool {
        (exact ? 1 : 0, labels, path.count) > (other.exact ? 1 : 0, other.labels, other.path.count)
    }

    private var labels: Int {
        guard let name = host.domainName else { return 0 }
        return name.utf8.count(where: { $0 == UInt8(ascii: ".") }) + 1
    }

    private static func sameHost(_ a: WebHost, _ b: WebHost) -> Bool {
        a.domainName != nil ? a.domainName == b.domainName : a == b
    }
}

/// Why a text is not a SITE.
package struct SiteError: Error, Equatable, Sendable {
    package let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
