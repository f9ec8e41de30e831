/// The SITE of a rule (doc/links-and-rules.md, "Site rules"): `example.org` is that host and every subdomain,
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
        exact = text.hasPrefix("=")
        if let (host, path) = Self.asWritten(text, exact: exact) {
            self.host = host
            self.path = path
            return
        }
        if text.contains("://") {
            throw SiteError("write the site without its scheme, like 'example.org' (a rule covers http and https)")
        }
        if let bad = text.unicodeScalars.first(where: {
            $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace || "@?#\\".unicodeScalars.contains($0)
        }) {
            throw SiteError(
                bad.value <= 0x20 || bad.properties.isWhitespace
                    ? "a site holds no spaces or control characters" : "a site holds no '\(bad)'")
        }
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
        // `github.com.` is the site `github.com`; `.a..` is no site (browsers keep the other dots).
        if url.host.hasEmptyLabel {
            throw SiteError("its host has an empty label")
        }
        // Written back, a leading `=` would mean "this host only".
        if url.host.serialized.hasPrefix("=") { throw SiteError("its host starts with '='") }
        host = url.host.domainName.map(WebHost.domain) ?? url.host
        path = segments
    }

    /// A site written the way `text` writes it (rules.json, read for every link, holds little else), read
    /// without the URL parser: dot-separated labels of `a-z`, `0-9` and `-` whose last does
    /// not start with a digit (so it is no IP address), and path segments of unreserved
    /// characters other than `.` and `..`. The URL parser would leave such a site as it is.
    /// (An `xn--` label is taken as written: choosy wrote it after IDNA checked it, and one
    /// that IDNA would refuse matches no link, since every link's host passed IDNA.)
    private static func asWritten(_ text: String, exact: Bool) -> (WebHost, [String])? {
        // The text's own bytes (a native String's are contiguous): a copy of each cost a third.
        if let read = text.utf8.withContiguousStorageIfAvailable({ asWritten(text, bytes: $0, exact: exact) }) { return read }
        return Array(text.utf8).withUnsafeBufferPointer { asWritten(text, bytes: $0, exact: exact) }
    }

    private static func asWritten(_ text: String, bytes: UnsafeBufferPointer<UInt8>, exact: Bool) -> (WebHost, [String])? {
        // The host: labels, none empty, the last not starting with a digit.
        var index = exact ? 1 : 0
        let hostStart = index
        var atLabelStart = true
        var lastLabelStartsWithDigit = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if atLabelStart { return nil }
                atLabelStart = true
            } else if isDigit(byte) || isLowercase(byte) || byte == UInt8(ascii: "-") {
                if atLabelStart { lastLabelStartsWithDigit = isDigit(byte) }
                atLabelStart = false
            } else {
                return nil
            }
            index += 1
        }
        guard !atLabelStart, !lastLabelStartsWithDigit else { return nil }
        // Most sites are a domain alone: the text itself, not a copy.
        let host = WebHost.domain(index == bytes.count && !exact ? text : String(decoding: bytes[hostStart..<index], as: UTF8.self))
        // The path: segments, none empty (but a trailing `/`), `.` or `..`.
        var segments: [String] = []
        while index < bytes.count {
            let start = index + 1
            index = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            let segment = bytes[start..<index]
            if segment.isEmpty && index == bytes.count { break }
            guard !segment.isEmpty, !segment.elementsEqual(".".utf8), !segment.elementsEqual("..".utf8), segment.allSatisfy(isUnreserved)
            else { return nil }
            segments.append(String(decoding: segment, as: UTF8.self))
        }
        return (host, segments)
    }

    /// Why no link a user follows can be of this site (doc/security.md), asked by `rule add` only (a rule
    /// read back was checked when it was added): a label holding other than letters, digits, `-`
    /// and `_` (`*.example.com`, `%2A.com`: no DNS name has one, and a site is no pattern), a
    /// label over 63 or a name over 253 bytes (DNS's limits), or an `xn--` label IDNA refuses.
    package var neverMatches: String? {
        guard let name = host.domainName else { return nil }
        if name.utf8.count > 253 { return "its host is longer than 253 characters, the most a DNS name has" }
        for label in name.utf8.split(separator: UInt8(ascii: ".")) {
            if label.count > 63 { return "a label of its host is longer than 63 characters, the most a DNS label has" }
            if let bad = label.first(where: {
                !(Self.isDigit($0) || Self.isLowercase($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_"))
            }) {
                return
                    "its host holds '\(Character(Unicode.Scalar(bad)))', which no DNS name holds (a site is no pattern: 'example.org' already covers every subdomain)"
            }
        }
        // `asWritten` takes an `xn--` label as written; the host parser runs IDNA on it.
        do { _ = try WebHost(parsing: name) } catch { return error.reason }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isLowercase(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }

    /// RFC 3986's unreserved characters.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isDigit(byte) || isLowercase(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
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
        if exact { return pattern.matches(host) }
        // A placeholder label (`{{name}}.t.me`): a host the pattern takes, or a site holding
        // the labels after the placeholder.
        guard let suffix = pattern.literalSuffix else { return pattern.matches(host) }
        let patternHost = WebHost.domain(suffix)
        if suffix != pattern.domain { return pattern.matches(host) || patternHost.isWithin(host) }
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
