import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Unshortening (doc/links-and-rules.md, "Unshortening"), with the real binary laid out as an
/// installation, a recorder browser and a real HTTP server on 127.0.0.1 playing the shorteners
/// named by `CHOOSY_SHORTENERS` (127.0.0.1 is on the list, localhost is not).
@Suite struct UnshortenEndToEndTests {
    let sandbox = Sandbox()
    let choosy: String
    let server: CatalogServer
    typealias Route = CatalogServer.Answer

    init() throws {
        choosy = sandbox.installedChoosy()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        let tree = sandbox.root + "/empty-tree"
        sandbox.write(tree + "/.keep", "")
        server = try CatalogServer(serving: tree, in: sandbox)
        let list = sandbox.root + "/shorteners.txt"
        sandbox.write(list, "# shorteners of the test\n127.0.0.1\n")
        sandbox.overrides["CHOOSY_SHORTENERS"] = list
        sandbox.overrides["CHOOSY_OFFLINE"] = ""
        // Whatever else would download asks the same server (and is told 404), never the real ones.
        sandbox.overrides["CHOOSY_CATALOG_URL"] = server.baseURL
        sandbox.overrides["CHOOSY_CLEAN_RULES_URL"] = server.baseURL
    }

    private func run(_ arguments: String...) -> Sandbox.Output {
        sandbox.choosy(arguments, binary: choosy)
    }

    private var link: String { server.baseURL + "/a" }

    private final class Count: @unchecked Sendable { var value = 0 }
    private let handled = Count()

    /// Handles `link` with `--unshorten` and returns what the browser got.
    private func opened(_ link: String, _ more: String...) -> (launched: String?, stderr: String) {
        let output = sandbox.choosy(["-v", "handle", link, "--unshorten"] + more, binary: choosy)
        #expect(output.status == 0, "\(output.stderr)")
        handled.value += 1
        return (sandbox.launched("firefox", count: handled.value).last?.first, output.stderr)
    }

    @Test func aChainOfListedHostsIsFollowedToTheFirstHostNotOnTheList() {
        let final = "http://localhost:\(server.port)/final?id=1"
        server.answer(["/a": Route(status: 301, location: "{base}/b"), "/b": Route(status: 302, location: "{localhost}/final?id=1")])
        let (launched, stderr) = opened(link)
        #expect(launched == final, "\(stderr)")
        // The host not on the list is the last hop: it is not asked.
        #expect(server.heads.map(\.path) == ["/a", "/b"])
        #expect(server.heads.allSatisfy { $0.host == "127.0.0.1:\(server.port)" })
        #expect(stderr.contains("unshortened: HEAD \(server.baseURL)/a answered 301, to \(server.baseURL)/b"), "\(stderr)")
        #expect(stderr.contains("unshortened: HEAD \(server.baseURL)/b answered 302, to \(final)"), "\(stderr)")
    }

    @Test func theUnshortenedLinkIsCleanedThenRouted() {
        server.answer(["/a": Route(status: 301, location: "https://example.com/page?utm_source=x&id=5")])
        #expect(opened(link, "--clean").launched == "https://example.com/page?id=5")
    }

    @Test func openFollowsAShortenedParameter() {
        server.answer(["/a": Route(status: 301, location: "https://example.com/long?utm_source=x")])
        let output = run("open", "browser", "browse", "url=\(link)", "--unshorten", "--clean")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.com/long"]])
    }

    @Test func aListedHostThatAnswersIsWhereTheLinkGoes() {
        server.answer(["/a": Route(status: 307, location: "{base}/landing"), "/landing": Route(status: 200, body: "a page")])
        #expect(opened(link).launched == server.baseURL + "/landing")
        #expect(server.heads.map(\.path) == ["/a", "/landing"])
    }

    @Test func theConfigTurnsItOnAndNoUnshortenOffAndADryRunOnlyWithTheOption() {
        server.answer(["/a": Route(status: 301, location: "https://example.com/long")])
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"unshorten": true}"#)
        #expect(run("handle", link).status == 0)
        #expect(run("handle", link, "--no-unshorten").status == 0)
        #expect(sandbox.launched("firefox", count: 2) == [["https://example.com/long"], [link]])
        #expect(server.heads.count == 1)
        #expect(run("handle", link, "--dry-run").stdout == "firefox \(link)\n")
        #expect(server.heads.count == 1)
        #expect(run("handle", link, "--dry-run", "--unshorten").stdout == "firefox https://example.com/long\n")
        #expect(server.heads.count == 2)
    }

    @Test func noRequestWhenOffOrOffline() {
        server.answer(["/a": Route(status: 301, location: "https://example.com/long")])
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"unshorten": true}"#)
        let offline = run("-v", "handle", link, "--unshorten", "--offline")
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("offline: shortened links are not followed"), "\(offline.stderr)")
        #expect(sandbox.choosy(["handle", link, "--unshorten"], environment: ["CHOOSY_OFFLINE": "1"], binary: choosy).status == 0)
        #expect(server.requests.isEmpty, "\(server.requests)")
        // Off: the catalog may still be downloaded, but no link is asked for.
        sandbox.write(sandbox.configHome + "/choosy/config.json", "{}")
        #expect(run("handle", link).status == 0)
        #expect(sandbox.launched("firefox", count: 3) == [[link], [link], [link]])
        #expect(server.heads.isEmpty, "\(server.heads)")
    }

    @Test func aHostNotOnTheListIsNeverAsked() {
        let unlisted = "http://localhost:\(server.port)/a"
        server.answer(["/a": Route(status: 301, location: "https://example.com/long")])
        #expect(opened(unlisted).launched == unlisted)
        #expect(server.heads.isEmpty)
    }

    @Test func aLoopLeavesTheLinkAsItWas() {
        server.answer(["/a": Route(status: 301, location: "{base}/b"), "/b": Route(status: 301, location: "{base}/a")])
        let (launched, stderr) = opened(link)
        #expect(launched == link)
        #expect(stderr.contains("a loop") && stderr.contains("the link opens as it was"), "\(stderr)")
        #expect(server.heads.map(\.path) == ["/a", "/b"])
    }

    @Test func fiveRedirectsAreFollowedButNotSix() {
        var routes: [String: Route] = [:]
        for hop in 0..<5 { routes["/five\(hop)"] = Route(status: 301, location: "{base}/five\(hop + 1)") }
        routes["/five5"] = Route(status: 200)
        for hop in 0..<6 { routes["/six\(hop)"] = Route(status: 301, location: "{base}/six\(hop + 1)") }
        routes["/six6"] = Route(status: 200)
        server.answer(routes)
        #expect(opened(server.baseURL + "/five0").launched == server.baseURL + "/five5")
        let (launched, stderr) = opened(server.baseURL + "/six0")
        #expect(launched == server.baseURL + "/six0")
        #expect(stderr.contains("more than 5 redirects"), "\(stderr)")
        #expect(!server.heads.contains { $0.path == "/six6" })
    }

    /// 3 s in all: two answers of 1.8 s each are too slow together, and so is one that never comes.
    @Test func slowAnswersLeaveTheLinkAsItWas() {
        server.answer([
            "/a": Route(status: 301, location: "{base}/b", delay: 1.8),
            "/b": Route(status: 301, location: "https://example.com/x", delay: 1.8),
            "/stall": Route(status: 301, location: "https://example.com/y", delay: 30),
        ])
        #expect(opened(link).launched == link)
        let started = Date()
        #expect(opened(server.baseURL + "/stall").launched == server.baseURL + "/stall")
        // Bounded by the limit (with room for a loaded machine), not by the server's 30 s.
        #expect(Date().timeIntervalSince(started) < 15)
    }

    @Test func aBodyIsNeitherSentNorNeeded() {
        server.answer([
            "/a": Route(status: 301, location: "{base}/b", body: String(repeating: "x", count: 5000)),
            "/b": Route(status: 302, location: "https://example.com/after-a-body", body: "<html>moved</html>"),
        ])
        #expect(opened(link).launched == "https://example.com/after-a-body")
        #expect(server.heads.map(\.length).allSatisfy { $0.isEmpty || $0 == "0" })
    }

    @Test func aCookieSetIsNeverSentBack() {
        server.answer([
            "/a": Route(status: 301, location: "{base}/b", cookie: "sid=secret; Path=/"),
            "/b": Route(status: 301, location: "{base}/c", cookie: "other=1"), "/c": Route(status: 301, location: "https://example.com/c"),
        ])
        #expect(opened(link).launched == "https://example.com/c")
        #expect(server.heads.map(\.path) == ["/a", "/b", "/c"])
        #expect(server.heads.allSatisfy { $0.cookie.isEmpty }, "\(server.heads)")
    }

    @Test func aLocationThatIsNoWebLinkLeavesTheLinkAsItWas() {
        for location in ["javascript:alert(1)", "ftp://example.com/file", "data:text/html,hi", "http://"] {
            server.answer(["/a": Route(status: 302, location: location)])
            let (launched, stderr) = opened(link)
            #expect(launched == link, "\(location)")
            #expect(stderr.contains("which is no http(s) link"), "\(location): \(stderr)")
        }
        server.answer(["/a": Route(status: 301)])
        #expect(opened(link).launched == link)
    }

    @Test func anErrorStatusLeavesTheLinkAsItWas() {
        server.answer(["/a": Route(status: 301, location: "{base}/gone"), "/gone": Route(status: 404)])
        let (launched, stderr) = opened(link)
        #expect(launched == link)
        #expect(stderr.contains("answered HTTP 404"), "\(stderr)")
    }

    @Test func cleanUnshortensOnlyWithTheOptionAndExplainsEachHop() {
        server.answer([
            "/a": Route(status: 301, location: "{base}/b"), "/b": Route(status: 301, location: "https://example.com/p?utm_source=x"),
        ])
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"unshorten": true}"#)
        #expect(run("clean", link).stdout == link + "\n")
        #expect(server.heads.isEmpty)
        let explained = run("clean", link, "--unshorten", "--explain")
        #expect(
            explained.stdout == """
                unshortened: HEAD \(server.baseURL)/a answered 301, to \(server.baseURL)/b
                unshortened: HEAD \(server.baseURL)/b answered 301, to https://example.com/p?utm_source=x
                globalRules: removed utm_source
                https://example.com/p

                """, "\(explained.stdout)\(explained.stderr)")
        let json = run("clean", link, "--unshorten", "--json").stdout
        #expect(json.contains(#""hops":[{"url":"\#(server.baseURL)/a","status":301,"location":"\#(server.baseURL)/b"}"#), "\(json)")
    }

    @Test func ruleTestUnshortensOnlyWithTheOption() {
        server.answer(["/a": Route(status: 301, location: "https://example.com/long")])
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"unshorten": true}"#)
        #expect(run("rule", "test", link).status == 0)
        #expect(server.heads.isEmpty)
        let test = run("-v", "rule", "test", link, "--unshorten")
        #expect(test.status == 0 && test.stderr.contains("to https://example.com/long"), "\(test.stdout)\(test.stderr)")
        #expect(server.heads.count == 1)
    }
}
