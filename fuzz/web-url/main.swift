@testable import ChoosyKit

// Any app can hand choosy a link, and its host decides which browser and profile sees it. The
// parser must survive any text; a host it gives is lowercase ASCII without the code points no
// host may hold, and reads back as itself, alone and inside a link; the port is never the
// default; nothing after the host holds what would have ended it; a host is within a site only
// when it is that site or ends in `.` and the site.
//
// Input fields: the link, then a site (parsed as a host on its own).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebURL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let link = input.field(0)
    let url = try? WebURL(parsing: link)
    let site = try? WebHost(parsing: input.field(1))
    if let site { check(site) }
    guard let url else { return 0 }

    invariant((try? WebURL(parsing: link)) == url, "parsing \(link.debugDescription) is not deterministic")
    check(url.host)
    if let port = url.port {
        invariant(port >= 0 && port <= 65535 && port != (url.scheme == .http ? 80 : 443), "port \(port) of \(link.debugDescription)")
    }
    for segment in url.pathSegments {
        invariant(!segment.contains(where: { "/\\?#".contains($0) }), "segment \(segment.debugDescription) of \(link.debugDescription)")
    }
    invariant(url.query.map { !$0.contains("#") } ?? true, "query of \(link.debugDescription) holds '#'")

    let rebuilt = "\(url.scheme.rawValue)://\(url.host.serialized)\(url.port.map { ":\($0)" } ?? "")/"
    let again = try? WebURL(parsing: rebuilt)
    invariant(
        again?.host == url.host && again?.port == url.port,
        "\(rebuilt.debugDescription) does not read back as \(link.debugDescription)'s host")

    if let site {
        let within = url.host.isWithin(site)
        switch (url.host.domainName, site.domainName) {
        case (let name?, let siteName?):
            let expected = name == siteName || (!siteName.isEmpty && name.hasSuffix("." + siteName))
            invariant(within == expected, "\(url.host.serialized) within \(site.serialized): \(within)")
        default:
            invariant(within == (url.host == site), "\(url.host.serialized) within \(site.serialized): \(within)")
        }
    }
    return 0
}

private func check(_ host: WebHost) {
    let text = host.serialized
    invariant(!text.isEmpty, "an empty host")
    invariant(
        text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) },
        "host \(text.debugDescription) is not lowercase printable ASCII")
    switch host {
    case .domain(let name):
        invariant(
            !name.utf8.contains { "#%/:<>?@[\\]^|".utf8.contains($0) }, "domain \(name.debugDescription) holds a forbidden code point")
        invariant(!IPAddressSyntax.endsInANumber(Array(name.utf8)), "domain \(name.debugDescription) ends in a number")
    case .ipv4:
        invariant(text.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }, "IPv4 \(text)")
    case .ipv6(let pieces):
        invariant(pieces.count == 8 && text.hasPrefix("[") && text.hasSuffix("]"), "IPv6 \(text)")
    }
    invariant((try? WebHost(parsing: text)) == host, "host \(text.debugDescription) does not read back as itself")
    invariant(host.isWithin(host), "host \(text.debugDescription) is not within itself")
}
