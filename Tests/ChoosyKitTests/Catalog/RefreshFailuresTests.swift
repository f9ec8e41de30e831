import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The failures of background refreshes, kept for a later command to say (SPEC §7).
@Suite struct RefreshFailuresTests {
    let sandbox = Sandbox()

    func failures(at time: Double) -> RefreshFailures {
        RefreshFailures(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), clock: FakeClock(time: time))
    }

    @Test func failuresAreKeptSaidOnceAndForgotten() {
        let store = failures(at: 1000)
        #expect(store.summary() == nil)
        store.record([("browser", .failed("couldn't connect")), ("email", .updated)])
        store.record([(CleaningRulesRefresher.refreshWord, .failed("HTTP 500"))])
        #expect(store.unsaid().map(\.key) == ["browser", CleaningRulesRefresher.refreshWord])
        var said: [String] = []
        failures(at: 1000 + 420).sayOnce { said.append($0) }
        #expect(
            said == [
                "the background refresh of app type 'browser', the link-cleaning rules failed 7 min ago: HTTP 500; the data already here was kept"
            ])
        #expect(store.unsaid().isEmpty)
        #expect(!sandbox.exists(store.path))
        failures(at: 2000).sayOnce { said.append($0) }
        #expect(said.count == 1)
    }

    @Test func aSuccessForgetsItsTypesFailureAndNothingIsWrittenForSuccessesAlone() {
        let store = failures(at: 1000)
        store.record([("browser", .updated), ("email", .notFound)])
        #expect(!sandbox.exists(sandbox.stateHome + "/choosy"))
        store.record([("browser", .failed("a")), ("email", .failed("b"))])
        store.record([("browser", .notModified)])
        #expect(store.unsaid() == [RefreshFailures.Failure(key: "email", reason: "b", time: 1000)])
        store.record([("email", .alreadyFresh)])
        #expect(!sandbox.exists(store.path))
    }

    /// A file that cannot be read only delays a message; a reason cannot forge a line.
    @Test func aBrokenFileHoldsNoneAndAReasonStaysOneLine() {
        let store = failures(at: 1000)
        sandbox.write(store.path, "{\"failures\": [{\"key\": 1}")
        #expect(store.unsaid().isEmpty)
        store.record([("maps", .failed("bad\nchoosy: forged\u{1B}[31m"))])
        let summary = failures(at: 1030).summary()
        #expect(
            summary
                == "the background refresh of app type 'maps' failed 30 s ago: bad\\u{A}choosy: forged\\u{1B}[31m; the data already here was kept"
        )
    }
}
