import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Newer ClearURLs rules downloaded like a catalog type, from a real HTTP server on 127.0.0.1
/// (doc/links-and-rules.md, "Newer rules"): the hash first, the rules only when it changed,
/// each copy checked against the hash, and one that fails never used.
@Suite struct CleaningRulesDownloadTests {
    let sandbox = Sandbox()
    let choosy: String
    let server: CatalogServer
    var downloaded: String { sandbox.cacheHome + "/choosy/clean/data.min.json" }

    /// Rules of one provider that removes `served_tracker`, which no bundled rule names.
    static let served = #"{"providers":{"served":{"urlPattern":"^https?:\\/\\/example\\.net","rules":["served_tracker"]}}}"# + "\n"

    init() throws {
        choosy = sandbox.installedChoosy()
        let tree = sandbox.root + "/rules-tree"
        sandbox.write(tree + "/data.minify.json", Self.served)
        sandbox.write(tree + "/rules.minify.hash", SHA256.hex(of: Array(Self.served.utf8)) + "\n")
        server = try CatalogServer(serving: tree, in: sandbox)
        // The catalog types are not on this server: each is an answer (404), not a failure.
        sandbox.overrides["CHOOSY_CATALOG_URL"] = server.baseURL
        sandbox.overrides["CHOOSY_CLEAN_RULES_URL"] = server.baseURL
        sandbox.overrides["CHOOSY_OFFLINE"] = ""
    }

    private func run(_ arguments: String..., environment: [String: String] = [:]) -> Sandbox.Output {
        sandbox.choosy(arguments, environment: environment, binary: choosy)
    }

    private func serve(rules: String, hash: String) {
        sandbox.write(server.root + "/data.minify.json", rules)
        sandbox.write(server.root + "/rules.minify.hash", hash)
    }

    @Test func updateDownloadsTheRulesAndCleanNamesTheCopyInUse() {
        let update = run("update")
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains("link-cleaning rules: updated"))
        #expect(sandbox.read(downloaded) == Self.served)
        let clean = run("-v", "clean", "https://example.net/a?served_tracker=1&b=2")
        #expect(clean.stdout == "https://example.net/a?b=2\n")
        #expect(clean.stderr.contains("cleaning rules: \(downloaded) (1 providers)"), "\(clean.stderr)")
        // The next update asks for the hash only, conditionally, and the server says 304.
        let again = run("update")
        #expect(again.stdout.contains("link-cleaning rules: up to date"), "\(again.stdout)")
        #expect(server.requests(for: "/data.minify.json").count == 1)
        #expect(server.requests(for: "/rules.minify.hash").map(\.status) == [200, 304])
        #expect(server.requests(for: "/rules.minify.hash").last?.ifNoneMatch.isEmpty == false)
    }

    /// A downloaded copy that became unreadable costs one warning, the bundled rules stand, and
    /// it is downloaded again at once, in the background.
    @Test func aCorruptCopyIsDiscardedAndDownloadedAgain() {
        #expect(run("update").status == 0)
        sandbox.write(downloaded, "{\"providers\": [")
        let clean = run("clean", "https://example.net/a?served_tracker=1&utm_source=x")
        #expect(clean.stdout == "https://example.net/a?served_tracker=1\n")
        #expect(clean.stderrLines.count == 1 && clean.stderr.contains(downloaded), "\(clean.stderr)")
        for _ in 0..<100 where sandbox.read(downloaded) != Self.served { usleep(100_000) }
        #expect(sandbox.read(downloaded) == Self.served)
        #expect(server.requests(for: "/data.minify.json").count == 2)
    }

    /// A copy that fails its hash, is no rules file or is too large is never stored: the
    /// bundled rules stand, and the update says why in one line.
    @Test(arguments: ["hash", "json", "huge"])
    func aBadCopyIsNeverUsed(fault: String) {
        switch fault {
        case "hash": serve(rules: Self.served, hash: String(repeating: "0", count: 64))
        case "json": serve(rules: "{\"providers\": ", hash: SHA256.hex(of: Array("{\"providers\": ".utf8)))
        default: server.inject(["/data.minify.json": "huge"])
        }
        let update = run("update")
        #expect(update.status == 4)
        #expect(update.stdout.contains("link-cleaning rules: failed"), "\(update.stdout)")
        #expect(update.stderrLines.filter { $0.contains("link-cleaning rules") }.count == 1, "\(update.stderr)")
        #expect(sandbox.read(downloaded) == nil)
        let clean = run("-v", "clean", "https://example.net/a?served_tracker=1&utm_source=x")
        #expect(clean.stdout == "https://example.net/a?served_tracker=1\n")
        #expect(clean.stderr.contains("/share/choosy/clean/data.min.json (205 providers)"))
    }

    /// A command that cleans starts the download in the background when the rules are due,
    /// and opens the link at once with the rules already here.
    @Test func aCleaningCommandRefreshesTheRulesInTheBackground() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        let output = run("handle", "--clean", "https://example.net/?served_tracker=1&utm_source=x")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.net/?served_tracker=1"]])
        for _ in 0..<100 where sandbox.read(downloaded) == nil { usleep(100_000) }
        #expect(sandbox.read(downloaded) == Self.served)
    }

    @Test func offlineOrCleaningOffSendsNoRequest() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        #expect(run("handle", "--clean", "--offline", "https://example.net/?utm_source=x").status == 0)
        #expect(run("handle", "https://example.net/?utm_source=x").status == 0)
        #expect(sandbox.launched("firefox", count: 2).count == 2)
        usleep(500_000)
        #expect(server.requests.filter { !$0.path.hasPrefix("/app-data/") }.isEmpty, "\(server.requests)")
    }
}
