/// twitter.com and x.com links that name a `twitter` action: profiles (`/name`), posts
/// (`/name/status/123`, `/i/web/status/123`) and web intents (`/intent/tweet?text=…`).
/// Everything else on those sites (home, search, settings…) is a page for the browser.
///
/// Query values are decoded as HTML form data (`+` is a space), as those sites read them.
enum TwitterLink {
    static let hosts: Set<String> = [
        "twitter.com", "www.twitter.com", "mobile.twitter.com",
        "x.com", "www.x.com", "mobile.x.com",
    ]

    /// First path segments that are site pages, never user names.
    static let reservedPaths: Set<String> = [
        "about", "account", "bookmarks", "communities", "compose", "connect", "download",
        "explore", "following", "followers", "hashtag", "help", "home", "i", "intent", "jobs",
        "lists", "login", "logout", "messages", "notifications", "oauth", "premium", "privacy",
        "rules", "search", "settings", "share", "signup", "tos", "topics",
    ]

    static func action(_ link: WebURL) -> LinkAction? {
        guard let host = link.host.domainName, hosts.contains(host) else { return nil }
        let segments = link.pathSegments.filter { !$0.isEmpty }
        var query: [String: String] = [:]
        for (name, value) in URLParts.queryItems(of: link.query) {
            query[PercentEncoding.decodeLeniently(name, plusIsSpace: true)] =
                PercentEncoding.decodeLeniently(value ?? "", plusIsSpace: true)
        }
        func action(_ key: String, _ parameters: [String: String?]) -> LinkAction {
            LinkAction(type: "twitter", action: key, parameters: parameters.compactMapValues { $0 }.filter { !$0.value.isEmpty })
        }

        switch segments.map({ $0.lowercased() }) {
        case ["intent", "tweet"], ["intent", "post"], ["share"]:
            return action("post", [
                "text": query["text"], "url_in_tweet": query["url"], "via": query["via"],
                "hashtags": query["hashtags"], "related": query["related"],
                "reference_tweet_id": query["in_reply_to"],
            ])
        case ["intent", "retweet"], ["intent", "repost"]:
            guard let id = query["tweet_id"], isNumericID(id) else { return nil }
            return action("retweet", ["reference_tweet_id": id, "related": query["related"]])
        case ["intent", "like"], ["intent", "favorite"]:
            guard let id = query["tweet_id"], isNumericID(id) else { return nil }
            return action("favorite", ["reference_tweet_id": id, "related": query["related"]])
        case ["intent", "follow"], ["intent", "user"]:
            let name = query["screen_name"].flatMap { isScreenName($0) ? $0 : nil }
            let userID = query["user_id"].flatMap { isNumericID($0) ? $0 : nil }
            guard name != nil || userID != nil else { return nil }
            let key = segments[1].lowercased() == "follow" ? "follow" : "show_profile"
            return action(key, ["profile_screenname": name, "user_id": userID])
        default:
            break
        }

        if segments.count >= 4, segments[0] == "i", segments[1] == "web", isStatus(segments[2]), isNumericID(segments[3]) {
            return action("status", ["reference_tweet_id": segments[3]])
        }
        if segments.count >= 3, segments[0] == "i", isStatus(segments[1]), isNumericID(segments[2]) {
            return action("status", ["reference_tweet_id": segments[2]])
        }
        guard let name = segments.first, isScreenName(name), !reservedPaths.contains(name.lowercased()) else { return nil }
        if segments.count == 1 {
            return action("show_profile", ["profile_screenname": name])
        }
        if segments.count >= 3, isStatus(segments[1]), isNumericID(segments[2]) {
            return action("status", ["reference_tweet_id": segments[2], "profile_screenname": name])
        }
        return nil
    }

    private static func isStatus(_ segment: String) -> Bool {
        segment == "status" || segment == "statuses"
    }

    /// Screen names are 1 to 15 of `A-Z a-z 0-9 _`.
    private static func isScreenName(_ text: String) -> Bool {
        (1...15).contains(text.utf8.count) && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
        }
    }

    private static func isNumericID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
