/// Follows a shortened link to where it leads (doc/links-and-rules.md, "Unshortening"): only a
/// link whose host is on the shortener list, by HEAD requests to that host (https, or http on a
/// loopback host), each hop a listed host or the last one, at most `maximumRedirects` redirects
/// and `timeLimit` seconds in all. Any failure leaves the link as it was.
struct LinkUnshortener {
    let shorteners: ShortenerList
    /// Made only when a link's host is listed (it loads libcurl).
    private let client: () -> HTTPClient

    static let maximumRedirects = 5
    static let timeLimit = 3.0

    init(shorteners: ShortenerList, client: @escaping () -> HTTPClient) {
        self.shorteners = shorteners
        self.client = client
    }

    func unshorten(_ link: String) -> UnshortenedLink {
        guard let url = try? WebURL(parsing: link), shorteners.lists(url.host) else { return UnshortenedLink(link: link) }
        let deadline = monotonicSeconds() + Self.timeLimit
        let client = client()
        var result = UnshortenedLink(link: link)
        var current = url
        var visited: Set<String> = []
        while true {
            let asked = Self.requestURL(current)
            guard visited.insert(asked).inserted else { return result.failed("\(singleLine(asked)) is reached again: a loop") }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return result.failed("no answer within \(Int(Self.timeLimit)) s") }
            let answer: HTTPHead
            do {
                answer = try client.head(asked, timeout: remaining)
            } catch {
                return result.failed(error.description)
            }
            guard [301, 302, 303, 307, 308].contains(answer.status) else {
                guard (200..<300).contains(answer.status) else {
                    return result.failed("\(singleLine(asked)) answered HTTP \(answer.status)")
                }
                // A listed host that leads nowhere else is where the link goes.
                if !result.hops.isEmpty { result.link = asked }
                return result
            }
            guard result.hops.count < Self.maximumRedirects else {
                return result.failed("more than \(Self.maximumRedirects) redirects")
            }
            guard let next = Self.nextHop(answer.location) else {
                return result.failed(
                    "\(singleLine(asked)) redirects to \(answer.location.map { "'\(singleLine($0))'" } ?? "no Location"), which is no http(s) link"
                )
            }
            result.hops.append(UnshortenedLink.Hop(url: asked, status: answer.status, location: next.href))
            guard shorteners.lists(next.host) else {
                result.link = next.href
                return result
            }
            current = next
        }
    }

    /// Where a redirect leads, when that is an http(s) link a browser reads.
    static func nextHop(_ location: String?) -> WebURL? {
        guard let location, !location.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        return try? WebURL(parsing: location)
    }

    /// The URL a HEAD goes to: the link as a browser requests it, over https, but on a loopback
    /// host as it is.
    static func requestURL(_ url: WebURL) -> String {
        let href = url.href
        guard url.scheme == .http, !HTTPURLPolicy.permits(href) else { return href }
        return "https://" + href.dropFirst("http://".count)
    }
}

/// What unshortening made of a link: where it leads, each hop, or why it was left as it was.
struct UnshortenedLink: Equatable, Sendable {
    struct Hop: Equatable, Sendable {
        var url: String
        var status: Int
        var location: String
    }

    var link: String
    var hops: [Hop] = []
    /// Why the link stays as it was given.
    var failure: String?

    /// The link as it was given (only the last step sets where it leads), and why.
    fileprivate func failed(_ reason: String) -> UnshortenedLink {
        UnshortenedLink(link: link, hops: hops, failure: reason)
    }

    /// What -v and `--explain` say: each hop, then why the link stays, if it does.
    var explanations: [String] {
        hops.map { "unshortened: HEAD \(singleLine($0.url)) answered \($0.status), to \(singleLine($0.location))" }
            + (failure.map { ["not unshortened (\($0)): the link opens as it was"] } ?? [])
    }
}
