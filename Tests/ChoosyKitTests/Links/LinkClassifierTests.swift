import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The bundled catalog, with no other source: the links `handle` reads.
func bundledCatalog() -> Catalog {
    let environment = Environment(["HOME": "/nonexistent/choosy-home"])
    return Catalog(
        cache: CatalogCache(environment: environment, fileSystem: LocalFileSystem()),
        userCatalog: UserCatalog(environment: environment, fileSystem: LocalFileSystem()),
        network: nil, clock: SystemClock(), diagnostics: RecordingDiagnostics()
    )
}

@Suite struct LinkClassifierTests {
    private let classifier = LinkClassifier(catalog: bundledCatalog(), diagnostics: RecordingDiagnostics())

    private func action(_ url: String) throws -> LinkAction? {
        if case .action(let action) = try classifier.classify(url) { return action }
        return nil
    }

    private func expect(
        _ url: String, _ type: String, _ action: String, _ parameters: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let found = try self.action(url)
        #expect(found.map { [$0.type, $0.action] } == [type, action], "\(url)", sourceLocation: sourceLocation)
        #expect(found?.parameters == parameters, "\(url)", sourceLocation: sourceLocation)
    }

    @Test func webLinksGoToTheBrowser() throws {
        try expect("https://example.org/a?b=c#d", "browser", "browse", ["url": "https://example.org/a?b=c#d"])
        try expect(" HTTP://Example.org\n", "browser", "browse", ["url": "HTTP://Example.org"])
    }

    @Test func theHostIsTheOneABrowserReaches() throws {
        // Userinfo, look-alike domains and query text never make a link an x.com link.
        for link in [
            "https://x.com@evil.example/choosyapp", "https://x.com.evil.example/choosyapp",
            "https://evil.example/choosyapp?u=x.com", "https://x.com:443@evil.example/choosyapp",
            "https://x.com%2eevil.example/choosyapp",
        ] {
            try expect(link, "browser", "browse", ["url": link])
        }
        // What a browser normalizes is the same site: case, a trailing dot, backslashes, full-width dots.
        for link in ["https://X.COM./choosyapp", "https:\\x.com\\choosyapp", "https://x\u{FF0E}com/choosyapp"] {
            try expect(link, "twitter", "show_profile", ["profile_screenname": "choosyapp"])
        }
    }

    @Test func aLinkABrowserCannotOpenIsRefused() {
        for link in ["https://exa mple.org/", "https://[::1/", "http://", "https://a<b.example/"] {
            #expect(
                performing: { try classifier.classify(link) },
                throws: { error in
                    (error as? ChoosyError)?.status == .usage
                        && (error as? ChoosyError)?.message.contains("is not a link a browser can open") == true
                })
        }
    }

    @Test func mailto() throws {
        try expect("mailto:a@example.org", "email", "compose", ["to": "a@example.org"])
        try expect(
            "mailto:a@example.org,b@example.org?to=c@example.org&CC=d@example.org&cc=e@example.org&bcc=f@example.org&Subject=Hi%20there&body=line%201%0D%0Aa+b",
            "email", "compose",
            [
                "to": "a@example.org,b@example.org,c@example.org",
                "cc": "d@example.org,e@example.org",
                "bcc": "f@example.org",
                "subject": "Hi there",
                "body": "line 1\r\na+b",
            ])
        try expect(
            "mailto:?to=%22A%20B%22%20%3Ca@example.org%3E&subject=100%", "email", "compose",
            ["to": "\"A B\" <a@example.org>", "subject": "100%"])
        try expect("mailto:", "email", "compose", [:])
        try expect(
            "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E", "email", "compose",
            ["to": "list@example.org", "in_reply_to": "<3469A91.D10AF4C@example.com>"])
    }

    @Test func geo() throws {
        try expect(
            "geo:52.52,13.40;u=35?z=12", "maps", "show_location",
            ["latitude": "52.52", "longitude": "13.40", "latitude_longitude": "52.52,13.40", "zoom": "12"])
        try expect(
            "geo:52.52,13.40?z=far", "maps", "show_location",
            ["latitude": "52.52", "longitude": "13.40", "latitude_longitude": "52.52,13.40"])
        try expect(
            "geo:-33.9,151.2,40;crs=wgs84", "maps", "show_location",
            ["latitude": "-33.9", "longitude": "151.2", "latitude_longitude": "-33.9,151.2"])
        try expect("geo:0,0?q=Berlin", "maps", "search", ["query": "Berlin"])
        try expect("geo:0,0?q=1600+Amphitheatre+Parkway%2C+CA", "maps", "search", ["query": "1600 Amphitheatre Parkway, CA"])
        // A position with a query keeps the point (GNOME Maps searches the query around it).
        try expect(
            "geo:52.52,13.4?q=cafe&z=15", "maps", "show_location",
            ["latitude": "52.52", "longitude": "13.4", "latitude_longitude": "52.52,13.4", "query": "cafe", "zoom": "15"])
        // Android writes the point in q, with a label after it.
        try expect(
            "geo:0,0?q=34.99,-106.61(Treasure)", "maps", "show_location",
            ["latitude": "34.99", "longitude": "-106.61", "latitude_longitude": "34.99,-106.61"])
        try expect(
            "geo:0,0?q=52.52,13.40", "maps", "show_location",
            ["latitude": "52.52", "longitude": "13.40", "latitude_longitude": "52.52,13.40"])
        try expect("geo:0,0?q=91,13(x)", "maps", "search", ["query": "91,13(x)"])
        for invalid in ["geo:91,0", "geo:abc,def", "geo:1", "geo:1,2;crs=other", "geo:1e5,2"] {
            #expect(try classifier.classify(invalid) == .scheme("geo"), "\(invalid)")
        }
    }

    @Test func twitterProfilesAndStatuses() throws {
        for host in ["twitter.com", "www.twitter.com", "mobile.twitter.com", "x.com", "www.x.com", "mobile.x.com", "X.COM"] {
            try expect("https://\(host)/Substantial", "twitter", "show_profile", ["profile_screenname": "Substantial"])
        }
        try expect("http://twitter.com/Substantial/", "twitter", "show_profile", ["profile_screenname": "Substantial"])
        try expect("https://x.com/jack/status/20?s=20", "twitter", "status", ["profile_screenname": "jack", "reference_tweet_id": "20"])
        try expect(
            "https://twitter.com/jack/status/20/photo/1", "twitter", "status", ["profile_screenname": "jack", "reference_tweet_id": "20"])
        try expect("https://x.com/i/web/status/1234", "twitter", "status", ["reference_tweet_id": "1234"])
    }

    @Test func twitterIntents() throws {
        try expect(
            "https://twitter.com/intent/tweet?text=Hello+world%21&url=https%3A%2F%2Fexample.org&via=choosy&hashtags=a,b&related=x&in_reply_to=42",
            "twitter", "post",
            [
                "text": "Hello world!", "url_in_tweet": "https://example.org", "via": "choosy",
                "hashtags": "a,b", "related": "x", "reference_tweet_id": "42",
            ])
        try expect("https://x.com/intent/post", "twitter", "post", [:])
        try expect("https://x.com/intent/retweet?tweet_id=42", "twitter", "retweet", ["reference_tweet_id": "42"])
        try expect("https://x.com/intent/like?tweet_id=42", "twitter", "favorite", ["reference_tweet_id": "42"])
        try expect(
            "https://twitter.com/intent/favorite?tweet_id=42&related=a", "twitter", "favorite",
            ["reference_tweet_id": "42", "related": "a"])
        try expect("https://twitter.com/intent/follow?screen_name=jack", "twitter", "follow", ["profile_screenname": "jack"])
        try expect("https://twitter.com/intent/user?screen_name=jack", "twitter", "show_profile", ["profile_screenname": "jack"])
    }

    @Test(arguments: [
        "https://x.com/home", "https://www.x.com/search", "https://x.com/i/flow/login", "https://x.com/settings/account",
        "https://x.com/explore", "https://twitter.com/notifications", "https://x.com/messages", "https://x.com/",
        "https://x.com/jack/likes", "https://x.com/intent/retweet", "https://notx.com/jack",
        "https://x.com.evil.example/jack", "https://x.com/intent/follow", "https://x.com/search?q=",
    ])
    func otherTwitterPagesStayInTheBrowser(url: String) throws {
        try expect(url, "browser", "browse", ["url": url])
    }

    @Test func twitterSearch() throws {
        try expect("https://x.com/search?q=swift+lang&src=typed_query", "twitter", "search", ["text": "swift lang"])
    }

    /// Real links of each site the bundled catalog knows, and what they become.
    @Test(arguments: [
        (
            "https://us02web.zoom.us/j/85012345678?pwd=aBc123.1&uname=Ada", "video_call", "join_meeting",
            ["meeting_id": "85012345678", "password": "aBc123.1", "display_name": "Ada"]
        ),
        ("https://zoom.us/wc/join/85012345678", "video_call", "join_meeting", ["meeting_id": "85012345678"]),
        (
            "https://meet.jit.si/WeeklyChoosySync", "video_call", "join_meeting",
            ["meeting_id": "WeeklyChoosySync", "server": "meet.jit.si"]
        ),
        ("https://t.me/durov", "chat", "open_chat", ["username": "durov"]),
        ("https://telegram.me/durov/", "chat", "open_chat", ["username": "durov"]),
        ("https://matrix.to/#/%23choosy:matrix.org", "matrix", "open_room", ["room_alias": "choosy:matrix.org"]),
        ("https://matrix.to/#/@alice:example.org?via=example.org", "matrix", "open_user", ["user": "alice:example.org"]),
        (
            "https://www.google.com/maps/@52.5200066,13.404954,14z", "maps", "show_location",
            ["latitude": "52.5200066", "longitude": "13.404954"]
        ),
        ("https://www.google.com/maps/search/?api=1&query=Brandenburger+Tor", "maps", "search", ["query": "Brandenburger Tor"]),
        (
            "https://www.google.com/maps/place/Eiffel%20Tower/@48.8583701,2.2944813,17z/data=!3m1!4b1", "maps", "show_location",
            ["query": "Eiffel Tower", "latitude": "48.8583701", "longitude": "2.2944813"]
        ),
        (
            "https://www.google.com/maps/dir/?api=1&origin=Berlin&destination=Paris", "maps", "get_directions",
            ["start_address": "Berlin", "end_address": "Paris"]
        ),
        ("https://maps.google.com/?q=Alexanderplatz", "maps", "search", ["query": "Alexanderplatz"]),
        (
            "https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=17/48.8584/2.2945", "maps", "show_location",
            ["latitude": "48.8584", "longitude": "2.2945"]
        ),
        ("https://www.openstreetmap.org/search?query=Eiffel%20Tower", "maps", "search", ["query": "Eiffel Tower"]),
        (
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "video", "play",
            ["url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"]
        ),
        ("https://m.youtube.com/shorts/abc123", "video", "play", ["url": "https://m.youtube.com/shorts/abc123"]),
        ("https://youtu.be/dQw4w9WgXcQ?t=42", "video", "play", ["url": "https://youtu.be/dQw4w9WgXcQ?t=42"]),
    ])
    func linksOfTheBundledSites(link: String, type: String, action: String, parameters: [String: String]) throws {
        try expect(link, type, action, parameters)
        #expect(try self.action(link)?.link?.url == link)
    }

    @Test func linksThatMeanNothingToOtherAppsNameTheirApps() throws {
        #expect(try action("https://zoom.us/j/123456789")?.link?.apps == ["zoom"])
        #expect(try action("https://meet.jit.si/room")?.link?.apps == ["jitsi_meet_desktop"])
        #expect(try action("https://t.me/durov")?.link?.apps == ["telegram_desktop"])
        #expect(try action("https://matrix.to/#/@alice:example.org")?.link?.apps == nil)
    }

    @Test(arguments: [
        "https://t.me/login/AbCdEf", "https://zoom.us/", "https://www.youtube.com/",
        "https://www.youtube.com/watch", "https://www.google.com/maps", "https://matrix.to/", "https://www.openstreetmap.org/",
    ])
    func pagesOfThoseSitesStayInTheBrowser(link: String) throws {
        try expect(link, "browser", "browse", ["url": link])
    }

    @Test func choosyLinksAreRouted() throws {
        #expect(try classifier.classify("choosy://x-callback-url/open?type=twitter") == .route("choosy://x-callback-url/open?type=twitter"))
        #expect(try classifier.classify("CHOOSY:x") == .route("CHOOSY:x"))
    }

    @Test func otherSchemesAreLeftToTheCatalog() throws {
        #expect(try classifier.classify("Tweetbot:///timeline") == .scheme("tweetbot"))
        #expect(try classifier.classify("magnet:?xt=urn:btih:abc") == .scheme("magnet"))
    }

    @Test func textThatIsNoURLIsAUsageError() {
        #expect(throws: ChoosyError.usage("'example.org' is not a URL (it has no scheme)")) { try classifier.classify("example.org") }
        #expect(throws: ChoosyError.self) { try classifier.classify("") }
    }
}
