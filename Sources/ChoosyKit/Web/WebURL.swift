/// An absolute http(s) link read as a browser reads it, by the URL standard's basic URL parser
/// (no base URL): the scheme, the host, the port, and the path, query and fragment that follow
/// them. Userinfo (`user:password@`) is read past and dropped: it is never the host. Links of
/// other schemes are refused; choosy reads those elsewhere.
package struct WebURL: Hashable, Sendable {
    package enum Scheme: String, Sendable {
        case http, https

        var defaultPort: Int { self == .http ? 80 : 443 }
    }

    package let scheme: Scheme
    package let host: WebHost
    /// nil for the scheme's default port, as in the URL standard.
    package let port: Int?
    /// The segments of the path, percent-encoded as the URL standard leaves them, with `.` and
    /// `..` (`%2e` too) resolved: `https://x/a/../b/` is `["b", ""]`.
    package let pathSegments: [String]
    /// Percent-encoded, without the `?`; nil when the link has none.
    package let query: String?
    /// Percent-encoded, without the `#`; nil when the link has none.
    package let fragment: String?

    /// The scheme, host and port as the URL standard writes them (`https://example.org:8443`).
    package var origin: String {
        scheme.rawValue + "://" + host.serialized + (port.map { ":\($0)" } ?? "")
    }

    /// The whole link as the URL standard serializes it (a browser's `href`): what it requests.
    package var href: String {
        origin + "/" + pathSegments.joined(separator: "/") + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
    }

    /// Parses `link`, or says why a browser would not open it (or why it is not http(s)).
    package init(parsing link: String) throws(WebError) {
        // Controls and spaces around a link are not part of it, and tabs and newlines inside it
        // are dropped, as when a browser is handed a pasted or wrapped link.
        let scalars = Array(link.unicodeScalars)
        let input =
            scalars.firstIndex { $0.value > 0x20 }.map { first in
                scalars[first...scalars.lastIndex { $0.value > 0x20 }!].filter { !["\t", "\n", "\r"].contains($0) }
            } ?? []
        let (scheme, authorityStart) = try Self.scheme(of: input)
        // Any run of slashes and backslashes leads to the authority in an http(s) URL.
        let start = input[authorityStart...].firstIndex { $0 != "/" && $0 != "\\" } ?? input.count
        let end = input[start...].firstIndex { ["/", "\\", "?", "#"].contains($0) } ?? input.count
        (host, port) = try Self.hostAndPort(in: input[start..<end], scheme: scheme)
        (pathSegments, query, fragment) = Self.pathQueryAndFragment(input[end...])
        self.scheme = scheme
    }

    /// The scalars as text, one at a time: `String.UnicodeScalarView(_:)` of a slice is
    /// generic code whose first call costs about 0.1 M instructions (doc/DEVELOPING.md, "Start-up").
    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        for scalar in scalars { text.append(scalar) }
        return String(text)
    }

    /// The scheme, and where what follows its `:` starts.
    private static func scheme(of input: [Unicode.Scalar]) throws(WebError) -> (Scheme, Int) {
        let end = input.firstIndex { !($0.isASCIILetter || ("0"..."9").contains($0) || ["+", "-", "."].contains($0)) }
        guard let first = input.first, first.isASCIILetter, let end, input[end] == ":" else {
            throw WebError("not an absolute URL: it does not start with a scheme")
        }
        let name = text(input[..<end]).lowercased()
        guard let scheme = Scheme(rawValue: name) else { throw WebError("not an http(s) link: its scheme is '\(name)'") }
        return (scheme, end + 1)
    }

    /// The authority state, the host state and the port state.
    private static func hostAndPort(in authority: ArraySlice<Unicode.Scalar>, scheme: Scheme) throws(WebError) -> (WebHost, Int?) {
        // The last `@` ends the userinfo: what is before it is never the host.
        let hostStart = authority.lastIndex(of: "@").map { $0 + 1 } ?? authority.startIndex
        var insideBrackets = false
        var hostEnd = hostStart
        while hostEnd < authority.endIndex, authority[hostEnd] != ":" || insideBrackets {
            if authority[hostEnd] == "[" { insideBrackets = true }
            if authority[hostEnd] == "]" { insideBrackets = false }
            hostEnd += 1
        }
        guard hostEnd > hostStart else { throw WebError("the link has no host") }
        let host = try WebHost(parsing: text(authority[hostStart..<hostEnd]))
        guard hostEnd < authority.endIndex else { return (host, nil) }
        let digits = authority[(hostEnd + 1)...]
        guard digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw WebError("the port '\(singleLine(text(digits)))' is not a number")
        }
        guard !digits.isEmpty else { return (host, nil) }
        let port = digits.reduce(0) { min($0 * 10 + Int($1.value - 0x30), 65536) }
        guard port <= 65535 else { throw WebError("the port is over 65535") }
        return (host, port == scheme.defaultPort ? nil : port)
    }

    /// The path start state, the path state, the query state and the fragment state.
    private static func pathQueryAndFragment(_ rest: ArraySlice<Unicode.Scalar>) -> ([String], String?, String?) {
        var rest = rest
        if let first = rest.first, first == "/" || first == "\\" { rest = rest.dropFirst() }
        var segments: [String] = []
        var segment = ""
        var end: Unicode.Scalar?
        repeat {
            end = rest.popFirst()
            guard end == nil || end == "/" || end == "\\" || end == "?" || end == "#" else {
                segment += PercentEncodeSet.path.encode(end!)
                continue
            }
            let isSlash = end == "/" || end == "\\"
            if isDoubleDot(segment) {
                if !segments.isEmpty { segments.removeLast() }
                if !isSlash { segments.append("") }
            } else if isSingleDot(segment) {
                if !isSlash { segments.append("") }
            } else {
                segments.append(segment)
            }
            segment = ""
        } while end != nil && end != "?" && end != "#"
        var query: String?
        if end == "?" {
            let queryEnd = rest.firstIndex(of: "#") ?? rest.endIndex
            query = rest[..<queryEnd].map { PercentEncodeSet.specialQuery.encode($0) }.joined()
            rest = rest[queryEnd...]
            end = rest.popFirst()
        }
        let fragment = end == "#" ? rest.map { PercentEncodeSet.fragment.encode($0) }.joined() : nil
        return (segments, query, fragment)
    }

    private static func isSingleDot(_ segment: String) -> Bool {
        segment == "." || segment.lowercased() == "%2e"
    }

    private static func isDoubleDot(_ segment: String) -> Bool {
        ["..", ".%2e", "%2e.", "%2e%2e"].contains(segment.lowercased())
    }
}

/// The URL standard's percent-encode sets for the parts after the host; what is outside a set
/// stays as written (`%` included).
private enum PercentEncodeSet {
    case path, specialQuery, fragment

    func encode(_ scalar: Unicode.Scalar) -> String {
        guard contains(scalar) else { return String(Character(scalar)) }
        return String(Character(scalar)).utf8.map { byte in
            "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
    }

    private func contains(_ scalar: Unicode.Scalar) -> Bool {
        // The C0 control percent-encode set, which all three include.
        if scalar.value < 0x20 || scalar.value > 0x7E { return true }
        let extra: String.UnicodeScalarView =
            switch self {
            case .fragment: " \"<>`".unicodeScalars
            case .specialQuery: " \"#<>'".unicodeScalars
            case .path: " \"#<>?^`{}".unicodeScalars
            }
        return extra.contains(scalar)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self)
    }
}
