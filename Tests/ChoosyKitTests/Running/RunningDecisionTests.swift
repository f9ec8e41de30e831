import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The decisions of SPEC §6.2 on their own: running first, using the one that runs, and what
/// happens before a running browser is handed the link.
@Suite struct RunningDecisionTests {
    static let firefox = RunningChoiceFinderTests.firefox
    static let work = firefox.opening(RunningChoiceFinderTests.work)
    static let personal = firefox.opening(RunningChoiceFinderTests.personal)
    static let chromium = RunningChoiceFinderTests.chromium

    static func running(_ instances: [(String, String?)]) -> RunningChoices {
        RunningChoices(instances: instances.enumerated().map { .init(app: $1.0, profile: $1.1, pids: [Int32(40 + $0)]) })
    }

    @Test func runningChoicesComeFirstInTheirOrder() {
        let candidates = [Self.chromium, Self.work, Self.personal]
        let running = Self.running([("firefox", "Personal"), ("firefox", "Work")])
        #expect(RunningDecision.runningFirst(candidates, running: running).map(\.key) == ["firefox@Work", "firefox@Personal", "chromium"])
        #expect(RunningDecision.runningFirst(candidates, running: .none).map(\.key) == candidates.map(\.key))
    }

    @Test func theOneThatRunsIsUsed() {
        let used = RunningDecision.use([Self.chromium, Self.work, Self.personal], running: Self.running([("firefox", "Work")])) { _ in nil }
        #expect(used.chosen?.key == "firefox@Work")
        #expect(used.reason == "'firefox@Work' is the only candidate that runs")
        let none = RunningDecision.use([Self.chromium, Self.work], running: .none) { _ in true }
        #expect(none.chosen == nil && none.reason == "no candidate runs")
    }

    @Test func ofSeveralThatRunTheOneWithAWindowHere() {
        let candidates = [Self.chromium, Self.work, Self.personal]
        let running = Self.running([("firefox", "Work"), ("chromium", nil)])
        let here = RunningDecision.use(candidates, running: running) { $0.key == "firefox@Work" }
        #expect(here.chosen?.key == "firefox@Work")
        #expect(
            here.reason == "of the 2 candidates that run ('chromium', 'firefox@Work'), only 'firefox@Work' has a window on this workspace")
        let both = RunningDecision.use(candidates, running: running) { _ in true }
        #expect(
            both.chosen == nil
                && both.reason == "2 candidates run ('chromium', 'firefox@Work'), and 2 of them have a window on this workspace")
        let neither = RunningDecision.use(candidates, running: running) { _ in false }
        #expect(neither.chosen == nil)
        let unknown = RunningDecision.use(candidates, running: running) { _ in nil }
        #expect(unknown.chosen == nil && unknown.reason.hasSuffix("and no window system says which has a window on this workspace"))
    }

    static let window = SessionWindow(id: "7", pid: 40, onCurrentWorkspace: true)
    static let away = SessionWindow(id: "5", pid: 40, onCurrentWorkspace: false)

    @Test func aWindowHereGetsTheFocusOrElseANewWindowWhenAsked() {
        var browser = Self.work
        browser.app.newWindowArguments = ["--new-window"]
        func handOver(
            _ windows: ([SessionWindow], [SessionWindow])?, runs: Bool = true, newWindowHere: Bool = true, privately: Bool = false
        )
            -> RunningDecision.HandOver
        {
            RunningDecision.handOver(browser, runs: runs, windows: windows, newWindowHere: newWindowHere, privateWindow: privately).0
        }
        #expect(handOver(([Self.window], [Self.away])) == .focus(Self.window))
        #expect(handOver(([], [Self.away])) == .newWindow(["--new-window"]))
        #expect(handOver(([], [Self.away]), newWindowHere: false) == .nothing)
        #expect(handOver(([Self.window], []), runs: false) == .nothing)
        #expect(handOver(([Self.window], []), privately: true) == .nothing, "a private window is new anyway")
        #expect(handOver(nil) == .nothing)
        #expect(handOver(([], [])) == .nothing)
        browser.app.newWindowArguments = nil
        #expect(handOver(([], [Self.away])) == .nothing, "no new-window arguments in the catalog")
    }
}
