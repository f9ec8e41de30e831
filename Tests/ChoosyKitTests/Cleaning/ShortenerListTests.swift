import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The shortener list (doc/links-and-rules.md, "Unshortening"): the shipped one, and what a
/// hand-written one may hold.
@Suite struct ShortenerListTests {
    private func list(_ text: String) throws -> ShortenerList {
        try ShortenerList(parsing: Array(text.utf8), source: "list.txt")
    }

    private func host(_ name: String) -> WebHost { try! WebHost(parsing: name) }

    @Test func theShippedListReadsWhole() throws {
        let path = Sandbox.packageRoot + "/clean/shorteners.txt"
        let shipped = try ShortenerList(parsing: Array(FileManager.default.contents(atPath: path) ?? Data()), source: path)
        #expect(shipped.warning == nil)
        #expect(shipped.hosts.isSuperset(of: ["t.co", "bit.ly", "tinyurl.com", "lnkd.in", "maps.app.goo.gl"]))
        #expect(!shipped.lists(host("example.com")) && !shipped.lists(host("twitter.com")))
    }

    @Test func hostsAreReadAsABrowserReadsThem() throws {
        let shorteners = try list("# comment\n\n  Bit.LY  \nt.co # trailing comment\r\nxn--bcher-kva.example\n127.0.0.1\n")
        #expect(shorteners.hosts == ["bit.ly", "t.co", "xn--bcher-kva.example", "127.0.0.1"])
        #expect(shorteners.warning == nil)
        #expect(shorteners.lists(host("bit.ly")) && shorteners.lists(host("www.bit.ly")) && shorteners.lists(host("bit.ly.")))
        #expect(shorteners.lists(host("0x7f.0.0.1")))
        // A subdomain, or a name that merely ends the same way, is another host.
        #expect(!shorteners.lists(host("x.bit.ly")) && !shorteners.lists(host("abit.ly")) && !shorteners.lists(host("www.www.bit.ly")))
    }

    @Test func aLineThatIsNoHostIsSkippedWithOneWarning() throws {
        let shorteners = try list("bit.ly\nhttps://t.co/\nt.co:443\na b\nuser@host\n..\nis.gd\n")
        #expect(shorteners.hosts == ["bit.ly", "is.gd"])
        #expect(shorteners.warning == "list.txt: 5 lines are not a host name (the first is line 2); skipped")
    }

    @Test func aListOverTheLimitIsRefused() {
        #expect(throws: CleaningError.self) { try list(String(repeating: "a", count: ShortenerList.maximumSize + 1)) }
    }

    @Test func aShortLinkIsAskedOverHTTPSButOnLoopbackAsItIs() throws {
        func asked(_ link: String) throws -> String { LinkUnshortener.requestURL(try WebURL(parsing: link)) }
        #expect(try asked("http://bit.ly/abc") == "https://bit.ly/abc")
        #expect(try asked("HTTP://Bit.ly:80/abc") == "https://bit.ly/abc")
        #expect(try asked("https:bit.ly\n") == "https://bit.ly/")
        #expect(try asked("https://bit.ly/a b") == "https://bit.ly/a%20b")
        #expect(try asked("http://127.0.0.1:8080/a") == "http://127.0.0.1:8080/a")
        #expect(try asked("http://localhost/a") == "http://localhost/a")
    }

    @Test func aLocationLeadsOnOnlyToAnHTTPLink() {
        #expect(LinkUnshortener.nextHop("https://Example.org/a?b")?.href == "https://example.org/a?b")
        for location in ["javascript:alert(1)", "ftp://example.org/", "/relative", "https://", "https://example.org/\r\nX: y", nil] {
            #expect(LinkUnshortener.nextHop(location) == nil, "\(location ?? "nil")")
        }
    }
}
