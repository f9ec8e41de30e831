import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// `--dry-run` writes nothing, moves nothing aside and starts no download, background refresh
/// included: the whole sandbox tree and a real server's request log, before and after.
@Suite struct DryRunTests {
    let sandbox = Sandbox()
    let server: CatalogServer

    init() throws {
        server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        // Every type stale at once: a run that may use the network downloads something.
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": "", "CHOOSY_CACHE_TTL": "0"]
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        sandbox.write(sandbox.configHome + "/choosy/preferences.json", #"{"types": ["#)
        sandbox.write(sandbox.configHome + "/choosy/rules.json", "not json")
    }

    @Test(arguments: [
        ["handle", "https://example.org/", "--dry-run", "--app", "firefox"],
        ["handle", "https://twitter.com/choosyapp", "--dry-run", "--app", "firefox"],
        ["open", "browser", "browse", "url=https://example.org/", "--app", "chromium", "--dry-run"],
    ])
    func aDryRunWritesMovesAndDownloadsNothing(command: [String]) async throws {
        let excluded =
            [sandbox.records]
            + ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.root)) ?? [])
            .filter { $0.hasPrefix("server-") }.map { sandbox.root + "/" + $0 }
        let before = TreeSnapshot(sandbox.root, excluding: excluded)
        let output = sandbox.choosy(command)
        #expect(output.status == 0, "\(command): \(output.stderr)")
        #expect(output.stdout.contains("https://"), "the argv that would run: \(output.stdout)")
        // A background refresh would be a detached child: give it time to show.
        await offPool { usleep(1_000_000) }
        #expect(server.requests.isEmpty, "\(server.requests)")
        #expect(TreeSnapshot(sandbox.root, excluding: excluded).changes(since: before) == [])
        #expect(sandbox.recordedRuns("firefox").isEmpty && sandbox.recordedRuns("chromium").isEmpty)
    }

    /// The same command without `--dry-run` does download (the test above could not fail
    /// otherwise) and remembers nothing it was not asked to.
    @Test func withoutDryRunTheSameSandboxDownloads() async throws {
        let output = sandbox.choosy("handle", "https://twitter.com/choosyapp", "--app", "firefox")
        #expect(output.status == 0, "\(output.stderr)")
        let requested = await offPool { () -> Int in
            for _ in 0..<100 where self.server.requests.isEmpty { usleep(50_000) }
            return self.server.requests.count
        }
        #expect(requested > 0)
    }
}
