import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Background refreshes and the terminal (SPEC §7, doc/configuration.md "The catalog"): a
/// command that found stale data returns at once, and its detached `choosy __refresh` never
/// writes to the terminal, which is the shell's again by then. What it could not do is kept in
/// `$XDG_STATE_HOME/choosy/` and said once: by the next command run with `-v`, or by `update`.
/// (`Sandbox.choosy` returns once the background refresh its command started is done.)
@Suite struct BackgroundRefreshTests {
    let sandbox = Sandbox()
    var failures: String { sandbox.stateHome + "/choosy/refresh-failures.json" }
    static let link = "https://example.org/a"

    init() {
        // The server is down: every refresh fails at once.
        sandbox.overrides = ["CHOOSY_OFFLINE": "", "CHOOSY_CATALOG_URL": "http://127.0.0.1:\(closedPort())"]
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    private func url(_ options: [String] = [], environment: [String: String] = [:]) -> Sandbox.Output {
        sandbox.choosy(["url", "browser", "browse", "url=\(Self.link)"] + options, environment: environment)
    }

    /// The pseudo-terminal is read until no process holds it: before, the refresh's warning
    /// came there after the shell's prompt.
    @Test func aFailedBackgroundRefreshWritesNothingOnTheTerminal() throws {
        let shown = sandbox.choosyOnTerminal(["url", "browser", "browse", "url=\(Self.link)"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == Self.link + "\r\n", "\(shown.stdout)")
        // Every bundled type is refreshed by one `list` in the background: still nothing.
        let listed = sandbox.choosyOnTerminal(["list"], environment: ["CHOOSY_CACHE_TTL": "0"])
        #expect(listed.status == 0 && !listed.stdout.contains("choosy:"), "\(listed.stdout)")
        #expect(sandbox.waitForBackgroundRefreshes())
        let kept = try #require(sandbox.read(failures))
        #expect(kept.contains(#""browser""#) && kept.contains(#""email""#), "\(kept)")
    }

    @Test func theNextCommandWithVSaysItOnce() {
        #expect(url().stderr.isEmpty)
        #expect(sandbox.exists(failures))
        // Without -v, nothing is said, and nothing is forgotten.
        #expect(url().stderr.isEmpty)
        let verbose = url(["-v"])
        let said = verbose.stderrLines.filter { $0.contains("background refresh") }
        #expect(said.count == 1, "\(verbose.stderr)")
        #expect(
            said.first?.hasPrefix("choosy: warning: the background refresh of app type 'browser' failed ") == true
                && said.first?.hasSuffix("; the data already here was kept") == true, "\(said)")
        #expect(!sandbox.exists(failures))
        // Within the back-off nothing is tried again, so nothing more is said.
        #expect(!url(["-v"]).stderr.contains("background refresh"))
    }

    /// `why` says it too, and, writing nothing, forgets nothing.
    @Test func whySaysItAndKeepsIt() {
        #expect(url().stderr.isEmpty)
        let why = sandbox.choosy("why", "browser", "browse", "url=\(Self.link)")
        #expect(why.status == 0, "\(why.stderr)")
        #expect(
            why.stderrLines.filter { $0.contains("background refresh") }.first?.hasPrefix(
                "choosy: warning: the background refresh of app type 'browser' failed ") == true, "\(why.stderr)")
        #expect(sandbox.exists(failures))
    }

    @Test func updateSaysItThenTriesAgain() {
        #expect(url().stderr.isEmpty)
        let update = sandbox.choosy("update", "browser")
        #expect(update.status == 4)
        #expect(
            update.stderrLines.first?.hasPrefix("choosy: warning: the background refresh of app type 'browser' failed ") == true,
            "\(update.stderr)")
        #expect(update.stdout.hasPrefix("browser: failed ("), "\(update.stdout)")
        #expect(!sandbox.exists(failures))
    }

    /// A refresh that succeeds later forgets the failure of its type.
    @Test func aLaterRefreshThatWorksForgetsTheFailure() throws {
        #expect(url().stderr.isEmpty)
        #expect(sandbox.exists(failures))
        let server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        let up = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_CACHE_TTL": "0"]
        #expect(url(environment: up).stderr.isEmpty)
        #expect(!sandbox.exists(failures))
        withExtendedLifetime(server) {}
    }
}
