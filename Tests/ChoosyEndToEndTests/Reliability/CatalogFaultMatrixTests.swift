import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Every way the catalog server can fail (doc/configuration.md), against a real HTTP server on 127.0.0.1,
/// for a bundled type and for one only the server knows, each with a cold cache and a warm one.
/// Whatever the fault: no crash, the last good data kept, one warning, the documented exit
/// status, and no file written outside `$XDG_CACHE_HOME/choosy` but the background refresh's
/// failure in `$XDG_STATE_HOME/choosy`.
///
/// Each case waits for its commands off the test threads (`Sandbox.run`), so that the stalls
/// (15 s each, the total timeout) all run at once.
@Suite struct CatalogFaultMatrixTests {
    enum Fault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case refused
        case notFound = "404"
        case serverError = "500"
        case redirectLoop = "redirect-loop"
        case redirectOffLoopback = "redirect:http://example.com/app-data/x.json"
        case redirectToFile = "redirect:file:///etc/passwd"
        case stall, truncate, invalid, huge
        case hugeChunked = "huge-chunked"
        case gzipBomb = "gzip-bomb"
        case wrongKey = "wrong-key"
        case badKeys = "bad-keys"

        var testDescription: String { rawValue }
    }

    enum Start: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `twitter`: bundled, and served.
        case bundledCold, bundledWarm
        /// `podcasts`: in no local source; only the server has it.
        case serverOnlyCold, serverOnlyWarm

        var testDescription: String { rawValue }
        var key: String { self == .bundledCold || self == .bundledWarm ? "twitter" : "podcasts" }
        var isWarm: Bool { self == .bundledWarm || self == .serverOnlyWarm }
        var isBundled: Bool { key == "twitter" }
        /// What `describe` shows when the data is there.
        var knownApp: String { isBundled ? "x_web" : "gpodder" }
    }

    @Test(arguments: Fault.allCases, Start.allCases)
    func aFaultKeepsTheLastGoodDataWithOneWarning(fault: Fault, start: Start) async throws {
        let sandbox = Sandbox()
        let server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        try Self.podcasts.write(toFile: server.root + "/app-data/podcasts.json", atomically: true, encoding: .utf8)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]
        let key = start.key
        let cacheDirectory = sandbox.cacheHome + "/choosy"
        let cacheFile = cacheDirectory + "/catalog/\(key).cache"

        if start.isWarm {
            let update = await sandbox.run("update", key)
            #expect(update.status == 0, "\(update.stderr)")
        }
        let good = sandbox.read(cacheFile)
        #expect(good != nil || !start.isWarm)
        let untouchable = [cacheDirectory, sandbox.stateHome, server.root, server.root + ".log", server.root + ".faults.json"]
        let before = TreeSnapshot(sandbox.root, excluding: untouchable)

        var faulty: [String: String] = [:]
        if fault == .refused {
            faulty["CHOOSY_CATALOG_URL"] = "http://127.0.0.1:\(closedPort())"
        } else {
            server.inject(["/app-data/\(key).json": fault.rawValue])
        }
        // A 404 is the server's answer, not a fault: the other sources stand, nothing is
        // said on stderr, and `update` lists the type as not on the server and exits 0.
        let answered = fault == .notFound

        let update = await sandbox.run(["update", key], environment: faulty)
        #expect(update.status == (answered ? 0 : 4), "\(fault) \(start): \(update.stderr)")
        #expect(update.stderrLines.count == (answered ? 0 : 1), "\(fault) \(start): \(update.stderr)")
        #expect(update.stderrLines.allSatisfy { $0.hasPrefix("choosy: warning: could not refresh app type '\(key)'") }, "\(update.stderr)")
        if answered {
            #expect(update.stdout == "\(key): not on the server (the other sources stand)\n")
        }
        if fault == .stall {
            #expect(update.stderr.contains("imeout") || update.stderr.contains("timed out"), "\(update.stderr)")
        }
        #expect(sandbox.read(cacheFile) == good, "\(fault) \(start): the cache changed")

        // A stale cache is used at once and refreshed in a background child, which says
        // nothing and keeps its failure for a later command; a type with no data at all is
        // fetched first.
        let describe = await sandbox.run(["describe", key], environment: faulty.merging(["CHOOSY_CACHE_TTL": "0"]) { $1 })
        let kept = sandbox.read(sandbox.stateHome + "/choosy/refresh-failures.json")
        if start.isWarm || start.isBundled {
            #expect(describe.status == 0, "\(fault) \(start): \(describe.stderr)")
            #expect(describe.stdout.contains(start.knownApp), "\(fault) \(start): \(describe.stdout)")
            #expect(describe.stderr.isEmpty, "\(fault) \(start): \(describe.stderr)")
            #expect((kept?.contains(#""\#(key)""#) ?? false) == !answered, "\(fault) \(start): \(kept ?? "none kept")")
        } else if answered {
            #expect(describe.status == 3, "\(fault) \(start): \(describe.stderr)")
            #expect(describe.stderrLines == ["choosy: unknown app type '\(key)'"], "\(describe.stderr)")
        } else {
            // Not reaching the catalog is not the same as the type not existing.
            #expect(describe.status == 4, "\(fault) \(start): \(describe.stderr)")
            #expect(describe.stderrLines.count == 1, "\(fault) \(start): \(describe.stderr)")
            #expect(
                describe.stderr.hasPrefix("choosy: cannot tell what app type '\(key)' is: the catalog could not be reached ("),
                "\(describe.stderr)")
        }
        #expect(sandbox.read(cacheFile) == good, "\(fault) \(start): the cache changed")

        #expect(TreeSnapshot(sandbox.root, excluding: untouchable).changes(since: before) == [], "\(fault) \(start)")
        let cached = ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory + "/catalog")) ?? []).sorted()
        // `.failed` marks the failure, so background refreshes back off for a while; `.notfound`
        // remembers a 404 for the TTL.
        #expect(
            Set(cached).isSubset(of: ["\(key).cache", "\(key).lock", answered ? "\(key).notfound" : "\(key).failed"]),
            "\(fault) \(start): \(cached)")
        withExtendedLifetime(server) {}
    }

    /// Type keys a user may type: none is ever a path, none reaches the network or the disk.
    @Test(arguments: ["../x", "a/b", "..", "../../../../escape", "/etc/passwd", "x/../twitter", "twitter/..", "%2e%2e"])
    func aTypeKeyThatLooksLikeAPathIsAnUnknownType(key: String) async throws {
        let sandbox = Sandbox()
        let server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]
        // The route link is kept in the history, whatever became of it (SPEC §6.1).
        let excluded = [server.root, server.root + ".log", server.root + ".faults.json", sandbox.stateHome]
        let before = TreeSnapshot(sandbox.root, excluding: excluded)
        let commands: [[String]] = [
            ["describe", key], ["update", key], ["list", key], ["open", key, "browse", "url=https://example.org"],
            ["url", key, "browse", "url=https://example.org"], ["default", key], ["default", key, "firefox"], ["reset", key],
        ]
        for command in commands {
            let output = await sandbox.run(command)
            #expect(output.status == 3, "\(command): \(output.stderr)")
            #expect(output.stderrLines.count == 1, "\(command): \(output.stderr)")
            #expect(output.stderr.hasPrefix("choosy: unknown app type '\(key)'"), "\(command): \(output.stderr)")
        }
        let route = await sandbox.run("route", "choosy://x-callback-url/open?type=\(PercentEncoding.encode(key))&action=browse")
        #expect(route.status == 3, "\(route.stderr)")
        #expect(server.requests.isEmpty, "\(server.requests)")
        let after = TreeSnapshot(sandbox.root, excluding: excluded)
        #expect(after.changes(since: before) == [], "\(key)")
    }

    static let podcasts = """
        [{"name":"Podcasts","key":"podcasts","parameters":[{"name":"Feed","description":"","key":"feed"}],
          "actions":[{"name":"Subscribe","key":"subscribe"}],
          "apps":[{"name":"gPodder","key":"gpodder","app_url_scheme":"gpodder:","desktop_ids":["gpodder.desktop"],
                   "actions":[{"key":"subscribe","url_format":"gpodder://subscribe?url={{feed}}"}]}]}]
        """
}
