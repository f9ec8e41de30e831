/// The host of a link as a browser sees it, by the URL standard's host parser for http(s):
/// percent-decoded, converted to ASCII by IDNA and lowercased, or an IP address. This decides
/// which app and profile sees a link, so every host is parsed here, never by splitting text.
package enum WebHost: Hashable, Sendable {
    /// Lowercase ASCII, IDNA labels as punycode (`xn--`), with the trailing dot the link had.
    case domain(String)
    case ipv4(UInt32)
    /// Eight 16-bit pieces.
    case ipv6([UInt16])

    /// Parses the host part of an http(s) URL (`GitHub.com`, `%67ithub.com`, `ｇｉｔｈｕｂ．ｃｏｍ`,
    /// `0x7f.1`, `[::1]`). Only a name with non-ASCII or `xn--` labels loads ICU.
    package init(parsing text: String) throws(WebError) {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "]") else {
                throw WebError("the host '\(singleLine(text))' opens a '[' it does not close")
            }
            self = .ipv6(try IPAddressSyntax.ipv6(bytes.dropFirst().dropLast()))
            return
        }
        guard !bytes.isEmpty else { throw WebError("the link has no host") }
        // Invalid UTF-8 after decoding becomes U+FFFD, which IDNA then refuses.
        let domain = String(decoding: Self.percentDecoded(bytes), as: UTF8.self)
        let ascii = try Self.domainToASCII(domain)
        if IPAddressSyntax.endsInANumber(ascii) {
            self = .ipv4(try IPAddressSyntax.ipv4(ascii))
        } else {
            self = .domain(String(decoding: ascii, as: UTF8.self))
        }
    }

    /// The host as a URL writes it: `example.com`, `127.0.0.1`, `[::1]`.
    package var serialized: String {
        switch self {
        case .domain(let name): name
        case .ipv4(let address): IPAddressSyntax.serialize(ipv4: address)
        case .ipv6(let address): IPAddressSyntax.serialize(ipv6: address)
        }
    }

    /// The domain as a browser shows it when it has IDNA labels (`xn--bcher-kva.example` is
    /// `bücher.example`); nil for a host without any, or one whose labels do not decode.
    package var unicodeName: String? {
        guard case .domain(let name) = self,
            name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).contains(where: { $0.starts(with: "xn--".utf8) }
            )
        else { return nil }
        return try? IDNA.toUnicode(name)
    }

    /// The domain as sites compare it, without its trailing dot (`github.com.` is the same site
    /// as `github.com`); nil for an IP address, which belongs to no domain.
    package var domainName: String? {
        guard case .domain(let name) = self else { return nil }
        return name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// A name with an empty label (`.example.com`, `a..b`; the trailing dot aside) is a host a
    /// browser opens, but never a site (doc/links-and-rules.md): no rule and no *always for SITE*.
    package var hasEmptyLabel: Bool {
        guard let name = domainName else { return false }
        return name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    /// True when this host is `site` or a subdomain of it, compared label by label:
    /// `docs.github.com` is within `github.com`; `github.com.evil.example` and `evilgithub.com`
    /// are not. An IP address is within itself only.
    package func isWithin(_ site: WebHost) -> Bool {
        guard let name = domainName, let siteName = site.domainName else { return self == site }
        let host = Array(name.utf8)
        let suffix = Array(siteName.utf8)
        if host == suffix { return true }
        // An empty site name (the host `.`) is no domain that others lie within.
        guard !suffix.isEmpty, host.count > suffix.count, host.suffix(suffix.count).elementsEqual(suffix) else { return false }
        return host[host.count - suffix.count - 1] == UInt8(ascii: ".")
    }

    /// The URL standard's "domain to ASCII" with beStrict false, then its check for code points
    /// no domain may hold.
    private static func domainToASCII(_ domain: String) throws(WebError) -> [UInt8] {
        // ASCII is never mapped to anything else but lowercase, so a forbidden ASCII code point is
        // refused now; this also keeps a NUL out of what ICU reads.
        if let forbidden = domain.unicodeScalars.first(where: { $0.isASCII && isForbiddenInDomain(UInt8($0.value)) }) {
            throw WebError("the host '\(singleLine(domain))' holds \(describe(forbidden)), which no host may hold")
        }
        let labels = domain.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let needsIDNA =
            domain.utf8.contains { $0 >= 0x80 }
            || labels.contains { label in
                label.count >= 4 && label.prefix(4).map { $0 | 0x20 }.elementsEqual("xn--".utf8)
            }
        // UTS #46 leaves such a name as it is but for its case, so ICU is not loaded for it.
        let ascii = needsIDNA ? Array(try IDNA.toASCII(domain).utf8) : Array(domain.utf8)
        guard !ascii.isEmpty else { throw WebError("the host '\(singleLine(domain))' is empty after IDNA") }
        if let forbidden = ascii.first(where: { $0 >= 0x80 || isForbiddenInDomain($0) }) {
            throw WebError(
                "IDNA turns the host '\(singleLine(domain))' into one holding \(describe(Unicode.Scalar(forbidden))), which no host may hold"
            )
        }
        return ascii.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    /// The URL standard's forbidden domain code points: its forbidden host code points
    /// (` #/:<>?@[\]^|`, NUL, tab, newlines), the other C0 controls, `%` and DEL.
    private static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || " #%/:<>?@[\\]^|".utf8.contains(byte)
    }

    /// Percent-decoding as the URL standard does it: a `%` without two hex digits stays.
    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// A code point named so that it shows in a message: `'@'`, or `U+0000` when it would not.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        scalar.value > 0x20 && scalar.value < 0x7F ? "'\(Character(scalar))'" : "U+" + hex4(scalar.value)
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
