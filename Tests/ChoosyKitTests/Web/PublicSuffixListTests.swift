import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct PublicSuffixListTests {
    private let list: PublicSuffixList
    init() throws { list = try PublicSuffixList.load() }

    private func registrable(_ host: String) throws -> String? {
        list.registrableDomain(of: try WebHost(parsing: host))
    }

    private func isPublic(_ host: String) throws -> Bool {
        list.isPublicSuffix(try WebHost(parsing: host))
    }

    @Test func registrableDomains() throws {
        #expect(try registrable("a.b.example.co.uk") == "example.co.uk")
        #expect(try registrable("example.co.uk") == "example.co.uk")
        #expect(try registrable("www.example.com") == "example.com")
        #expect(try registrable("WWW.Example.COM.") == "example.com")
        #expect(try registrable("alice.github.io") == "alice.github.io")
        #expect(try registrable("docs.alice.github.io") == "alice.github.io")
        // Wildcard and exception rules: `*.kawasaki.jp`, `!city.kawasaki.jp`.
        #expect(try registrable("a.b.kawasaki.jp") == "a.b.kawasaki.jp")
        #expect(try registrable("x.a.b.kawasaki.jp") == "a.b.kawasaki.jp")
        #expect(try registrable("www.city.kawasaki.jp") == "city.kawasaki.jp")
    }

    @Test func publicSuffixesHaveNone() throws {
        for suffix in ["com", "co.uk", "github.io", "uk", "COM.", "b.kawasaki.jp", "ｃｏ．ｕｋ"] {
            #expect(try isPublic(suffix), "\(suffix)")
            #expect(try registrable(suffix) == nil, "\(suffix)")
        }
        for site in ["example.com", "example.co.uk", "alice.github.io", "github.com", "city.kawasaki.jp"] {
            #expect(try !isPublic(site), "\(site)")
        }
    }

    @Test func punycodeNames() throws {
        #expect(try isPublic("рф"))
        #expect(try isPublic("xn--p1ai"))
        #expect(try registrable("www.пример.рф") == "xn--e1afmkfd.xn--p1ai")
        #expect(try registrable("xn--e1afmkfd.xn--p1ai") == "xn--e1afmkfd.xn--p1ai")
        #expect(try registrable("faß.de") == "xn--fa-hia.de")
        #expect(try isPublic("公司.cn"))
        #expect(try registrable("例子.公司.cn") == "xn--fsqu00a.xn--55qx5d.cn")
    }

    @Test func ipAddressesHaveNone() throws {
        // libpsl alone would call `0.1` the registrable domain of 127.0.0.1.
        for address in ["127.0.0.1", "0x7f.1", "[::1]", "[2001:db8::1]", "192.168.0.1"] {
            #expect(try registrable(address) == nil, "\(address)")
            #expect(try !isPublic(address), "\(address)")
        }
    }

    /// doc/links-and-rules.md: a host, but no site to write a rule for.
    @Test func namesWithAnEmptyLabelHaveNone() throws {
        for host in [".example.com", "a..example.com", "..", ".example.com."] {
            #expect(try registrable(host) == nil, "\(host)")
        }
    }

    /// Single-label names are sites of their own, not public suffixes by the list's `*` rule
    /// (doc/spec-choices.md): `https://intranet/` can have a rule.
    @Test func namesTheListDoesNotKnowAreSitesOfTheirOwn() throws {
        #expect(try registrable("intranet") == "intranet")
        #expect(try !isPublic("localhost"))
        #expect(try registrable("localhost") == "localhost")
        #expect(try !isPublic("corp"))
        #expect(try registrable("intranet.corp") == "intranet.corp")
        #expect(try registrable("wiki.intranet.corp") == "intranet.corp")
    }
}
