import ChoosyKit
import ChoosyTestSupport
import Testing

/// The host decides which browser and profile sees a link, so these are the links that try to
/// look like one site while a browser opens another.
@Suite struct WebURLTests {
    private func host(_ link: String) throws -> String {
        try WebURL(parsing: link).host.serialized
    }

    private func isGitHub(_ link: String) throws -> Bool {
        try WebURL(parsing: link).host.isWithin(WebHost(parsing: "github.com"))
    }

    @Test func userinfoIsNeverTheHost() throws {
        #expect(try host("https://github.com@evil.example/") == "evil.example")
        #expect(try host("https://github.com:443@evil.example/") == "evil.example")
        #expect(try host("https://user:github.com@evil.example/") == "evil.example")
        #expect(try host("https://github.com@github.com@evil.example/") == "evil.example")
        #expect(try host("https://github.com%2f@evil.example/") == "evil.example")
        #expect(try host("https://github.com%3a443@evil.example/") == "evil.example")
        // A percent-encoded `/` does not end the authority; the real `@` does.
        #expect(try host("https://evil.example%2f@github.com/") == "github.com")
        #expect(throws: WebError.self) { try WebURL(parsing: "https://github.com@/") }
        #expect(throws: WebError.self) { try WebURL(parsing: "https://user@:443/") }
    }

    @Test func aRuleForGitHubMatchesOnlyGitHub() throws {
        for link in [
            "https://github.com@evil.example/", "https://github.com.evil.example/",
            "https://evil.example/?u=github.com", "https://evil.example/github.com",
            "https://evil.example#github.com", "https://github.com%2eevil.example/",
            "https://github.com。evil.example/", "https://github.com．evil.example/",
            "https://github.com\t.evil.example/", "https://evilgithub.com/",
            "https://github.com:443@evil.example/", "https://evil.example\\@github.com/",
            "https://evil.example\\github.com", "https://github.com../", "https://xn--gthub-zsa.com/",
            "https://gíthub.com/", "https://gіthub.com/", "https://github.co/", "https://127.0.0.1/",
        ] {
            #expect(try !isGitHub(link), "\(link)")
        }
        for link in [
            "https://github.com/", "https://GITHUB.COM./", "https://GitHub.com", "http://github.com:8080/x",
            "https://docs.github.com/", "https://ｇｉｔｈｕｂ．ｃｏｍ/", "https://ⓖⓘⓣⓗⓤⓑ.ⓒⓞⓜ/",
            "https://git\u{200B}hub.com/", "https://git\u{AD}hub.com/", "https://%67ithub.com/",
            "https://evil.example%2f@github.com/", "https://github.com#@evil.example/",
            "https:github.com", "https:\\\\github.com\\x", "  https://github.com/ \n", "HTTPS://GITHUB.COM",
        ] {
            #expect(try isGitHub(link), "\(link)")
        }
    }

    @Test func backslashIsASlashAndEndsTheHost() throws {
        let url = try WebURL(parsing: "https://evil.example\\@github.com\\a\\b")
        #expect(url.host == .domain("evil.example"))
        #expect(url.pathSegments == ["@github.com", "a", "b"])
    }

    @Test func hostsAreLowercasedDecodedAndConvertedToASCII() throws {
        #expect(try host("https://GITHUB.COM./") == "github.com.")
        #expect(try WebURL(parsing: "https://GITHUB.COM./").host.domainName == "github.com")
        #expect(try host("https://Faß.de/") == "xn--fa-hia.de")
        #expect(try host("https://XN--FA-HIA.DE/") == "xn--fa-hia.de")
        #expect(try host("https://пример.рф/") == "xn--e1afmkfd.xn--p1ai")
        #expect(try host("https://%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D1%80%D1%84/") == "xn--e1afmkfd.xn--p1ai")
        #expect(try host("https://аррӏе.com/") == "xn--80ak6aa92e.com")
        #expect(try host("https://EXAMPLE.例/") == "example.xn--fsq")
    }

    @Test func hostsThatCannotBeParsedAreFailures() {
        for link in [
            "https://github%00.com/", "https://github.com\u{0}.evil.example/", "https://github.com%40evil.example/",
            "https://git hub.com/", "https://github.com%20/", "https://gith<ub.com/", "https://github.com%/",
            "https://％４１.com/", "https://xn--/", "https://xn--a.com/", "https://a.b.c.xn--pokxncvks/",
            "https://example.com%80/", "https://\u{AD}/", "https://", "https:///", "https://?x", "https://#x",
            "https://example.1/", "https://256.0.0.1/", "https://1.2.3.4.5/", "https://09/",
            "https://[::1/", "https://[::1]x/", "https://[1:2:3:4:5:6:7:8:9]/", "https://[::1::]/", "https://[%3A%3A1]/",
            "https://github.com:99999/", "https://github.com:80x/", "https://github.com: 80/",
        ] {
            #expect(throws: WebError.self, "\(link)") { try WebURL(parsing: link) }
        }
    }

    /// UTS #46 with the URL standard's flags: the hyphen and DNS length checks are off, so
    /// names browsers open are hosts here too; what IDNA itself refuses stays refused.
    @Test func hostsBrowsersAcceptAreHosts() throws {
        let long = String(repeating: "a", count: 64)
        #expect(try host("https://☃.com/") == "xn--n3h.com")
        #expect(try host("https://xn--n3h.com/") == "xn--n3h.com")
        #expect(try host("https://-x.例/") == "-x.xn--fsq")
        #expect(try host("https://x-.例/") == "x-.xn--fsq")
        #expect(try host("https://ab--c.例/") == "ab--c.xn--fsq")
        #expect(try host("https://\(long).例/") == "\(long).xn--fsq")
        #expect(try host("https://a†--/") == "xn--a---kp0a")
        for link in ["https://xn--a/", "https://xn--tešla/", "https://a\u{200D}b.例/", "https://\u{0301}a.例/"] {
            #expect(throws: WebError.self, "\(link)") { try WebURL(parsing: link) }
        }
    }

    @Test func onlyHTTPAndHTTPSAreParsed() {
        for link in ["ftp://github.com/", "javascript:alert(1)", "file:///etc/passwd", "github.com", "//github.com/", "", " \u{1} "] {
            #expect(throws: WebError.self, "\(link)") { try WebURL(parsing: link) }
        }
    }

    @Test func ipAddressesInEveryForm() throws {
        for link in [
            "https://127.0.0.1/", "https://0x7f.1/", "https://127.1/", "https://2130706433/", "https://0x7f000001/",
            "https://017700000001/", "https://0177.0.0.1/", "https://127.0.0.1./", "https://%31%32%37.0.0.1/",
            "https://１２７.０.０.１/", "https://0x7F.0.0.1/",
        ] {
            #expect(try WebURL(parsing: link).host == .ipv4(0x7F00_0001), "\(link)")
        }
        #expect(try host("https://0300.0250.0.1/") == "192.168.0.1")
        #expect(try host("https://0x/") == "0.0.0.0")
        #expect(try host("https://[::1]/") == "[::1]")
        #expect(try host("https://[0:0:0:0:0:0:0:1]:8443/") == "[::1]")
        #expect(try host("https://[::ffff:127.0.0.1]/") == "[::ffff:7f00:1]")
        #expect(try host("https://[2001:DB8:0:0:1:0:0:1]/") == "[2001:db8::1:0:0:1]")
        #expect(try host("https://[1:0:0:2::3:0]/") == "[1::2:0:0:3:0]")
        #expect(try host("https://[::]/") == "[::]")
        #expect(try WebURL(parsing: "https://[::1]/").host.domainName == nil)
        #expect(try WebURL(parsing: "https://127.0.0.1/").host.isWithin(WebHost(parsing: "127.1")))
        #expect(try !WebURL(parsing: "https://127.0.0.1/").host.isWithin(WebHost(parsing: "[::ffff:127.0.0.1]")))
    }

    @Test func portsWithoutTheDefault() throws {
        #expect(try WebURL(parsing: "https://x.example:443/").port == nil)
        #expect(try WebURL(parsing: "http://x.example:80/").port == nil)
        #expect(try WebURL(parsing: "https://x.example:80/").port == 80)
        #expect(try WebURL(parsing: "http://x.example:0008080/").port == 8080)
        #expect(try WebURL(parsing: "http://x.example:/").port == nil)
        #expect(try WebURL(parsing: "http://x.example:65535").port == 65535)
        #expect(throws: WebError.self) { try WebURL(parsing: "http://x.example:65536/") }
        #expect(throws: WebError.self) { try WebURL(parsing: "http://x.example:99999999999999999999999/") }
    }

    @Test func pathQueryAndFragment() throws {
        let url = try WebURL(parsing: "https://github.com/work-org/../evil-org/./%2e%2E/x y?a=b c'#f`g")
        #expect(url.pathSegments == ["x%20y"])
        #expect(url.query == "a=b%20c%27")
        #expect(url.fragment == "f%60g")
        #expect(try WebURL(parsing: "https://github.com").pathSegments == [""])
        #expect(try WebURL(parsing: "https://github.com?").query == "")
        #expect(try WebURL(parsing: "https://github.com").query == nil)
        #expect(try WebURL(parsing: "https://github.com/a/..").pathSegments == [""])
        #expect(try WebURL(parsing: "https://github.com/é#é").pathSegments == ["%C3%A9"])
    }

    @Test func messagesDoNotCarryControlCharacters() {
        do {
            _ = try WebURL(parsing: "https://a\u{1B}[31mb/")
            Issue.record("an escape character was accepted in a host")
        } catch {
            #expect(!error.reason.unicodeScalars.contains("\u{1B}"))
            #expect(error.reason.contains("\\u{1B}"))
        }
    }
}
