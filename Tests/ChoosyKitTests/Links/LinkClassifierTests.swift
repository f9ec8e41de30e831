@testable import ChoosyKit
import Testing

@Suite struct LinkClassifierTests {
    private func action(_ url: String) throws -> LinkAction? {
        if case .action(let action) = try LinkClassifier.classify(url) { return action }
        return nil
    }

    private func expect(_ url: String, _ type: String, _ action: String, _ parameters: [String: String],
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try self.action(url) == LinkAction(type: type, action: action, parameters: parameters), sourceLocation: sourceLocation)
    }

    @Test func webLinksGoToTheBrowser() throws {
        try expect("https://example.org/a?b=c#d", "browser", "browse", ["url": "https://example.org/a?b=c#d"])
        try expect(" HTTP://Example.org\n", "browser", "browse", ["url": "HTTP://Example.org"])
    }

    @Test func theHostIsTheOneABrowserReaches() throws {
        // Userinfo, look-alike domains and query text never make a link an x.com link.
        for link in ["https://x.com@evil.example/choosyapp", "https://x.com.evil.example/choosyapp",
                     "https://evil.example/choosyapp?u=x.com", "https://x.com:443@evil.example/choosyapp",
                     "https://x.com%2eevil.example/choosyapp"] {
            try expect(link, "browser", "browse", ["url": link])
        }
        // What a browser normalizes is the same site: case, a trailing dot, backslashes, full-width dots.
        for link in ["https://X.COM./choosyapp", "https:\\x.com\\choosyapp", "https://x\u{FF0E}com/choosyapp"] {
            try expect(link, "twitter", "show_profile", ["profile_screenname": "choosyapp"])
        }
    }

    @Test func aLinkABrowserCannotOpenIsRefused() {
        for link in ["https://exa mple.org/", "https://[::1/", "http://", "https://a<b.example/"] {
            #expect(performing: { try LinkClassifier.classify(link) }, throws: { error in
                (error as? ChoosyError)?.status == .usage && (error as? ChoosyError)?.message.contains("is not a link a browser can open") == true
            })
        }
    }

    @Test func mailto() throws {
        try expect("mailto:a@example.org", "email", "compose", ["to": "a@example.org"])
        try expect("mailto:a@example.org,b@example.org?to=c@example.org&CC=d@example.org&cc=e@example.org&bcc=f@example.org&Subject=Hi%20there&body=line%201%0D%0Aa+b",
                   "email", "compose", [
                       "to": "a@example.org,b@example.org,c@example.org",
                       "cc": "d@example.org,e@example.org",
                       "bcc": "f@example.org",
                       "subject": "Hi there",
                       "body": "line 1\r\na+b",
                   ])
        try expect("mailto:?to=%22A%20B%22%20%3Ca@example.org%3E&subject=100%", "email", "compose",
                   ["to": "\"A B\" <a@example.org>", "subject": "100%"])
        try expect("mailto:", "email", "compose", [:])
    }

    @Test func geo() throws {
        try expect("geo:52.52,13.40;u=35?z=12", "maps", "show_location",
                   ["latitude": "52.52", "longitude": "13.40", "latitude_longitude": "52.52,13.40"])
        try expect("geo:-33.9,151.2,40;crs=wgs84", "maps", "show_location",
                   ["latitude": "-33.9", "longitude": "151.2", "latitude_longitude": "-33.9,151.2"])
        try expect("geo:0,0?q=Berlin", "maps", "search", ["query": "Berlin"])
        try expect("geo:0,0?q=1600+Amphitheatre+Parkway%2C+CA", "maps", "search", ["query": "1600 Amphitheatre Parkway, CA"])
        try expect("geo:52.52,13.4?q=cafe", "maps", "search",
                   ["latitude": "52.52", "longitude": "13.4", "latitude_longitude": "52.52,13.4", "query": "cafe"])
        for invalid in ["geo:91,0", "geo:abc,def", "geo:1", "geo:1,2;crs=other", "geo:1e5,2"] {
            #expect(try LinkClassifier.classify(invalid) == .scheme("geo"), "\(invalid)")
        }
    }

    @Test func twitterProfilesAndStatuses() throws {
        for host in ["twitter.com", "www.twitter.com", "mobile.twitter.com", "x.com", "www.x.com", "mobile.x.com", "X.COM"] {
            try expect("https://\(host)/Substantial", "twitter", "show_profile", ["profile_screenname": "Substantial"])
        }
        try expect("http://twitter.com/Substantial/", "twitter", "show_profile", ["profile_screenname": "Substantial"])
        try expect("https://x.com/jack/status/20?s=20", "twitter", "status", ["profile_screenname": "jack", "reference_tweet_id": "20"])
        try expect("https://twitter.com/jack/status/20/photo/1", "twitter", "status", ["profile_screenname": "jack", "reference_tweet_id": "20"])
        try expect("https://x.com/i/web/status/1234", "twitter", "status", ["reference_tweet_id": "1234"])
    }

    @Test func twitterIntents() throws {
        try expect("https://twitter.com/intent/tweet?text=Hello+world%21&url=https%3A%2F%2Fexample.org&via=choosy&hashtags=a,b&related=x&in_reply_to=42",
                   "twitter", "post", [
                       "text": "Hello world!", "url_in_tweet": "https://example.org", "via": "choosy",
                       "hashtags": "a,b", "related": "x", "reference_tweet_id": "42",
                   ])
        try expect("https://x.com/intent/post", "twitter", "post", [:])
        try expect("https://x.com/intent/retweet?tweet_id=42", "twitter", "retweet", ["reference_tweet_id": "42"])
        try expect("https://x.com/intent/like?tweet_id=42", "twitter", "favorite", ["reference_tweet_id": "42"])
        try expect("https://twitter.com/intent/favorite?tweet_id=42&related=a", "twitter", "favorite", ["reference_tweet_id": "42", "related": "a"])
        try expect("https://twitter.com/intent/follow?screen_name=jack", "twitter", "follow", ["profile_screenname": "jack"])
        try expect("https://twitter.com/intent/user?screen_name=jack", "twitter", "show_profile", ["profile_screenname": "jack"])
    }

    @Test(arguments: [
        "https://x.com/home", "https://x.com/search?q=swift", "https://x.com/i/flow/login", "https://x.com/settings/account",
        "https://x.com/explore", "https://x.com/notifications", "https://x.com/messages", "https://x.com/",
        "https://x.com/jack/likes", "https://x.com/intent/retweet", "https://x.com/intent/like?tweet_id=abc",
        "https://x.com/name_that_is_far_too_long", "https://x.com/jack/status/abc", "https://notx.com/jack",
        "https://x.com.evil.example/jack", "https://x.com/intent/follow",
    ])
    func otherTwitterPagesStayInTheBrowser(url: String) throws {
        #expect(try action(url) == LinkAction(type: "browser", action: "browse", parameters: ["url": url]))
    }

    @Test func choosyLinksAreRouted() throws {
        #expect(try LinkClassifier.classify("choosy://x-callback-url/open?type=twitter") == .route("choosy://x-callback-url/open?type=twitter"))
        #expect(try LinkClassifier.classify("CHOOSY:x") == .route("CHOOSY:x"))
    }

    @Test func otherSchemesAreLeftToTheCatalog() throws {
        #expect(try LinkClassifier.classify("Tweetbot:///timeline") == .scheme("tweetbot"))
        #expect(try LinkClassifier.classify("magnet:?xt=urn:btih:abc") == .scheme("magnet"))
    }

    @Test func textThatIsNoURLIsAUsageError() {
        #expect(throws: ChoosyError.usage("'example.org' is not a URL (it has no scheme)")) { try LinkClassifier.classify("example.org") }
        #expect(throws: ChoosyError.self) { try LinkClassifier.classify("") }
    }
}
