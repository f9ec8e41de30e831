@testable import ChoosyKit

// Unshortening reads a shortener list anyone may write (`CHOOSY_SHORTENERS`) and follows the
// `Location` of servers it does not control. A list of any bytes is read or refused; every
// host it keeps is one a link's host reads as, and a link to it is listed. Following a link
// through any answers (played here by a scripted client, one answer a line: a status, then a
// Location) asks only listed hosts, over https or loopback http, each hop where the last led;
// follows at most five redirects; gives back the link as it was on any failure; and otherwise
// an http(s) link a browser reads, with no control character.
//
// Input fields: a shortener list, a link, the answers.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShorteners(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let list = try? ShortenerList(parsing: Array(input.field(0).utf8), source: "fuzz.txt") else { return 0 }
    let again = try? ShortenerList(parsing: Array(input.field(0).utf8), source: "fuzz.txt")
    invariant(again == list, "reading the list twice differs")
    for host in list.hosts {
        invariant(!host.isEmpty && host == host.lowercased(), "the listed host \(host.debugDescription) is not as a link reads it")
        guard let url = try? WebURL(parsing: "https://" + host + "/") else {
            invariant(false, "the listed host \(host.debugDescription) is no link's host")
            return 0
        }
        invariant(list.lists(url.host), "a link to the listed host \(host.debugDescription) is not listed")
    }
    let answers = input.field(2).split(separator: "\n", omittingEmptySubsequences: false).map { line -> HTTPHead in
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPHead(status: Int(parts[0]) ?? 0, location: parts.count > 1 ? String(parts[1]) : nil)
    }
    let client = ScriptedClient(answers)
    let link = input.field(1)
    let result = LinkUnshortener(shorteners: list, client: { client }).unshorten(link)
    let asked = client.asked
    invariant(asked.count <= LinkUnshortener.maximumRedirects + 1, "\(asked.count) requests for one link")
    invariant(result.hops.count <= LinkUnshortener.maximumRedirects, "\(result.hops.count) redirects followed")
    for url in asked {
        invariant(HTTPURLPolicy.permits(url), "asked \(url.debugDescription), which is neither https nor loopback http")
        invariant(
            (try? WebURL(parsing: url)).map { list.lists($0.host) } == true, "asked \(url.debugDescription), whose host is not listed")
    }
    if let first = asked.first {
        invariant((try? WebURL(parsing: link)).map(LinkUnshortener.requestURL) == first, "the first request is not the link's")
    }
    for (hop, next) in zip(result.hops, result.hops.dropFirst()) {
        invariant(
            (try? WebURL(parsing: hop.location)).map(LinkUnshortener.requestURL) == next.url, "a hop does not start where the last led")
    }
    if result.failure != nil || result.hops.isEmpty {
        invariant(result.link == link, "the link changed though unshortening did not end well")
    } else {
        invariant(!result.link.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "a control character in \(result.link.debugDescription)")
        invariant((try? WebURL(parsing: result.link)) != nil, "\(result.link.debugDescription) is no http(s) link")
        invariant(result.link == result.hops.last?.location || result.link == asked.last, "the link is neither the last hop nor its answer")
    }
    return 0
}

/// Answers HEAD requests from a script, then fails; remembers what was asked.
private final class ScriptedClient: HTTPClient, @unchecked Sendable {
    private var answers: [HTTPHead]
    private(set) var asked: [String] = []

    init(_ answers: [HTTPHead]) { self.answers = answers }

    func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse { throw HTTPError("no GET here") }

    func head(_ url: String, timeout: Double) throws(HTTPError) -> HTTPHead {
        asked.append(url)
        guard !answers.isEmpty else { throw HTTPError("no more answers") }
        return answers.removeFirst()
    }
}
