import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The catalog against a real HTTP server on 127.0.0.1 (doc/configuration.md). Server faults are in
/// CatalogFaultMatrixTests, concurrent downloads in ConcurrencyTests.
@Suite struct CatalogDownloadTests {
    let sandbox = Sandbox()
    let server: CatalogServer
    let twitter = "/app-data/twitter.json"

    init() throws {
        server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]
    }

    var cacheFile: String { sandbox.cacheHome + "/choosy/catalog/twitter.cache" }

    func fetchedAt() throws -> Double {
        let text = try #require(sandbox.read(cacheFile))
        let header = try #require(text.split(separator: "\n").first)
        let object = try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any]
        return try #require(object?["fetched_at"] as? Double)
    }

    @Test func updateThenDescribeShowsUpstreamAppsMergedWithTheBundledType() throws {
        let update = sandbox.choosy("update", "twitter")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr.isEmpty)
        let describe = sandbox.choosy("describe", "twitter", "--json")
        #expect(describe.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(describe.stdout.utf8)) as? [String: Any]
        let apps = (object?["apps"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        for key in ["x_web", "tweetbot", "twitterific", "echofon", "twittelator"] {
            #expect(apps.contains(key), "\(key) in \(apps)")
        }
        let actions = (object?["actions"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        #expect(actions.contains("show_profile") && actions.contains("timeline"))
        #expect(server.requests(for: twitter).count == 1, "describe within the TTL makes no request")
    }

    @Test func noRequestWithinTheTTL() throws {
        #expect(sandbox.choosy("update", "twitter").status == 0)
        for _ in 0..<3 {
            #expect(sandbox.choosy("describe", "twitter").status == 0)
        }
        #expect(server.requests(for: twitter).count == 1)
    }

    @Test func afterTheTTLOneConditionalRequestGetsA304AndRenewsTheCache() throws {
        #expect(sandbox.choosy("update", "twitter").status == 0)
        let before = try fetchedAt()
        let etag = try #require(
            server.requests(for: twitter).first.map { _ in
                sandbox.read(cacheFile)?.split(separator: "\n").first.map(String.init)
            } ?? nil)
        usleep(50_000)
        // The sandbox waits for the background refresh the command started.
        let describe = sandbox.choosy(["describe", "twitter"], environment: ["CHOOSY_CACHE_TTL": "0"])
        #expect(describe.status == 0)
        #expect(describe.stderr.isEmpty, "\(describe.stderr)")
        #expect(describe.stdout.contains("tweetbot"), "stale data is used at once")
        // The refresh writes the cache once the server has answered.
        let requests = server.requests(for: twitter, within: 20) { $0.count >= 2 && ((try? fetchedAt()) ?? 0) > before }
        #expect(requests.count == 2)
        #expect(requests.last?.status == 304)
        #expect(
            requests.last.map { !$0.ifNoneMatch.isEmpty && etag.contains($0.ifNoneMatch.replacingOccurrences(of: "\"", with: "\\\"")) }
                == true)
        #expect(try fetchedAt() > before)
    }

    /// A validator holding a control character is neither stored nor sent back (nor
    /// one an older choosy stored), so a server cannot add a header to the next request.
    @Test func validatorsWithControlCharactersAreNotStoredOrSentBack() throws {
        server.inject([twitter: "control-validators"])
        let update = sandbox.choosy("update", "twitter")
        #expect(update.status == 0, "\(update.stderr)")
        let header = try #require(sandbox.read(cacheFile)?.split(separator: "\n").first.map(String.init))
        #expect(!header.contains("etag") && !header.contains("last_modified"), "\(header)")
        #expect(sandbox.choosy("update", "twitter").status == 0)
        let long = String(repeating: "x", count: 2000)
        sandbox.write(
            cacheFile,
            try #require(sandbox.read(cacheFile)).replacingOccurrences(
                of: #""fetched_at":"#, with: #""etag":"\"b\rInjected: 2\"","last_modified":"\#(long)","fetched_at":"#))
        #expect(sandbox.choosy("update", "twitter").status == 0)
        let requests = server.requests(for: twitter)
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.ifNoneMatch.isEmpty && request.ifModifiedSince.isEmpty && request.injected.isEmpty, "\(request)")
        }
    }

    @Test func developmentModeRefreshesOnEveryUse() throws {
        for _ in 0..<3 {
            #expect(sandbox.choosy(["describe", "twitter"], environment: ["CHOOSY_DEVELOPMENT_MODE": "1"]).status == 0)
        }
        #expect(server.requests(for: twitter).count == 3)
    }

    @Test func aTypeUnknownEverywhereIsAnUnknownType() {
        let output = sandbox.choosy("describe", "nosuchtype")
        #expect(output.status == 3)
        #expect(output.stderrLines == ["choosy: unknown app type 'nosuchtype'"])
    }

    @Test func aCorruptCacheFileIsDiscardedAndFetchedAgain() throws {
        #expect(sandbox.choosy("update", "twitter").status == 0)
        sandbox.write(cacheFile, "{\"fetched_at\":1}\n[{\"key\":")
        let describe = sandbox.choosy("describe", "twitter")
        #expect(describe.status == 0)
        #expect(describe.stderr.contains("corrupt"))
        #expect(server.requests(for: twitter).count == 2)
        #expect(sandbox.choosy("describe", "twitter").stdout.contains("tweetbot"))
    }

    @Test func afterAFailedRefreshTheBackgroundBacksOff() throws {
        #expect(sandbox.choosy("update", "twitter").status == 0)
        server.inject([twitter: "500"])
        #expect(sandbox.choosy("update", "twitter").status == 4)
        let stale = ["CHOOSY_CACHE_TTL": "3600"]
        sandbox.write(
            cacheFile,
            try #require(sandbox.read(cacheFile)).replacingOccurrences(
                of: #""fetched_at":"#, with: #""fetched_at":1,"old":"#))
        let describe = sandbox.choosy(["describe", "twitter"], environment: stale)
        #expect(describe.status == 0)
        #expect(describe.stderr.isEmpty, "no retry, no warning, within the back-off")
        #expect(server.requests(for: twitter).count == 2)
        server.inject([:])
        #expect(sandbox.choosy("update", "twitter").status == 0)
        #expect(!sandbox.exists(sandbox.cacheHome + "/choosy/catalog/twitter.failed"))
    }

    @Test func aFirstListWithTheServerDownSaysNothingAndKeepsWhatFailed() {
        // Every bundled type is missing from the cache, so each is refreshed: in one child,
        // which writes nothing on the terminal and keeps the failure for a later command.
        let down = ["CHOOSY_CATALOG_URL": "http://127.0.0.1:\(closedPort())"]
        let list = sandbox.choosy(["list"], environment: down)
        #expect(list.status == 0)
        #expect(list.stderr.isEmpty, "\(list.stderr)")
        #expect(list.stdout.contains("browser"))
        // The next command with -v says it in one line; within the back-off, nothing more.
        let verbose = sandbox.choosy(["list", "-v"], environment: down)
        #expect(verbose.stderrLines.filter { $0.contains("background refresh") }.count == 1, "\(verbose.stderr)")
        #expect(sandbox.choosy(["list"], environment: down).stderr.isEmpty)
    }

    /// With the server down, `update` says so in one line for all the types, not one a type.
    @Test func updateWithTheServerDownSaysItInOneLine() {
        let down = "http://127.0.0.1:\(closedPort())"
        let update = sandbox.choosy(["update"], environment: ["CHOOSY_CATALOG_URL": down, "CHOOSY_CLEAN_RULES_URL": down])
        #expect(update.status == 4)
        #expect(update.stdout.split(separator: "\n").count == 1, "\(update.stdout)")
        #expect(
            update.stdout.hasPrefix("browser, chat, email, ")
                && update.stdout.hasSuffix(", link-cleaning rules: failed (Couldn't connect to server)\n"),
            "\(update.stdout)")
        #expect(update.stderrLines.count == 1, "\(update.stderr)")
    }

    /// A near miss of a known type is a typo: said at once, online or offline, with no request
    /// and nothing written (SPEC §7).
    @Test func aNearMissOfAKnownTypeIsUnknownAtOnceWithNoDownload() {
        for environment in [[:], ["CHOOSY_CATALOG_URL": "http://127.0.0.1:\(closedPort())"], ["CHOOSY_OFFLINE": "1"]] {
            let output = sandbox.choosy(["reset", "Brwser"], environment: environment)
            #expect(output.status == 3, "\(environment): \(output.stderr)")
            #expect(output.stderrLines == ["choosy: unknown app type 'Brwser' (did you mean 'Browser'?)"], "\(output.stderr)")
        }
        #expect(server.requests.isEmpty, "\(server.requests)")
        #expect(!sandbox.exists(sandbox.cacheHome + "/choosy"))
    }

    /// A type no source has: the server is asked, and whatever it answers, nothing of it stays
    /// in the cache (SPEC §7).
    @Test func aTypeNoSourceHasLeavesNothingInTheCache() throws {
        #expect(sandbox.choosy("describe", "nosuchtype").status == 3)
        let down = sandbox.choosy(["describe", "nosuchtype"], environment: ["CHOOSY_CATALOG_URL": "http://127.0.0.1:\(closedPort())"])
        #expect(down.status == 4, "\(down.stderr)")
        #expect(sandbox.choosy("update", "nosuchtype").stdout == "nosuchtype: not on the server (the other sources stand)\n")
        #expect(server.requests(for: "/app-data/nosuchtype.json").count == 2)
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.cacheHome + "/choosy/catalog")) ?? []
        #expect(cached.filter { $0.hasPrefix("nosuchtype") } == [], "\(cached)")
    }

    @Test func aServerWithNoFileForATypeIsAnAnswerRememberedForTheTTL() throws {
        server.inject([twitter: "404"])
        let update = sandbox.choosy("update", "twitter", "email")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr.isEmpty)
        #expect(update.stdout.contains("twitter: not on the server (the other sources stand)"), "\(update.stdout)")
        // The bundled type stands, silently, and is not asked for again within the TTL.
        for _ in 0..<2 {
            let describe = sandbox.choosy("describe", "twitter")
            #expect(describe.status == 0 && describe.stderr.isEmpty, "\(describe.stderr)")
        }
        #expect(server.requests(for: twitter).count == 1)
        let verbose = sandbox.choosy(["describe", "twitter", "-v"], environment: ["CHOOSY_CACHE_TTL": "0"])
        #expect(verbose.stderr.contains("the catalog server has no app type 'twitter'"), "\(verbose.stderr)")
    }

    @Test func anUnknownTypeWithTheServerDownIsExit4() {
        let output = sandbox.choosy(["describe", "podcasts"], environment: ["CHOOSY_CATALOG_URL": "http://127.0.0.1:\(closedPort())"])
        #expect(output.status == 4)
        #expect(output.stderrLines.count == 1)
        #expect(
            output.stderr.hasPrefix("choosy: cannot tell what app type 'podcasts' is: the catalog could not be reached ("),
            "\(output.stderr)")
    }

    @Test func offlineMakesNoRequest() {
        let describe = sandbox.choosy(["describe", "twitter", "--offline"], environment: ["CHOOSY_DEVELOPMENT_MODE": "1"])
        #expect(describe.status == 0)
        let env = sandbox.choosy(["describe", "twitter"], environment: ["CHOOSY_DEVELOPMENT_MODE": "1", "CHOOSY_OFFLINE": "1"])
        #expect(env.status == 0)
        #expect(server.requests.isEmpty)
        #expect(sandbox.choosy("update", "--offline").status == 4)
    }
}
