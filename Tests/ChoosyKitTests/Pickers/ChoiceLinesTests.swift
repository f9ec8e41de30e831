import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct ChoiceLinesTests {
    let firefox = PickerCandidate(appKey: "firefox", displayName: "Firefox", isDefault: true)
    let chromium = PickerCandidate(appKey: "chromium", displayName: "Chromium")

    @Test func eachCandidateGetsAJustOnceAndAnAlwaysLineInOrder() {
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium]))
        #expect(lines.lines == ["Firefox", "Firefox (always)", "Chromium", "Chromium (always)"])
        #expect(lines.choices.map(\.answer) == [.justOnce(0), .always(0), .justOnce(1), .always(1)])
        #expect(String(decoding: lines.input, as: UTF8.self) == "Firefox\nFirefox (always)\nChromium\nChromium (always)\n")
    }

    @Test func aWebLinkAddsAnAlwaysForItsSiteLineAfterTheTwoOthers() {
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium], site: "example.co.uk"))
        #expect(
            lines.lines == [
                "Firefox", "Firefox (always)", "Firefox (always for example.co.uk)",
                "Chromium", "Chromium (always)", "Chromium (always for example.co.uk)",
            ])
        #expect(lines.answer(line: "Chromium (always for example.co.uk)") == .alwaysForSite(1))
        // Like *always*, it needs remembering.
        let once = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox], allowAlways: false, site: "example.co.uk"))
        #expect(once.lines == ["Firefox"])
    }

    @Test func noRememberLeavesOutTheAlwaysLines() {
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium], allowAlways: false))
        #expect(lines.lines == ["Firefox", "Chromium"])
        #expect(lines.answer(line: "Chromium (always)") == .cancelled)
        #expect(lines.answer(line: "Chromium") == .justOnce(1))
    }

    @Test func candidatesWithTheSameNameGetTheirAppKeyOnBothLines() {
        let web = PickerCandidate(appKey: "firefox_web", displayName: "Firefox")
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium, web]))
        #expect(lines.labels == ["Firefox [firefox]", "Chromium", "Firefox [firefox_web]"])
        #expect(
            lines.lines == [
                "Firefox [firefox]", "Firefox [firefox] (always)", "Chromium", "Chromium (always)",
                "Firefox [firefox_web]", "Firefox [firefox_web] (always)",
            ])
        #expect(lines.answer(line: "Firefox [firefox_web] (always)") == .always(2))
        #expect(lines.answer(line: "Firefox") == .cancelled)
    }

    /// Control and format characters are shown as escapes (doc/security.md, "What choosy
    /// prints"), so two names that differ only by them are told apart.
    @Test func namesAreMadeSafeForOneLine() {
        let odd = PickerCandidate(appKey: "odd", displayName: "Evil\nName\u{1B}[31m ")
        let blank = PickerCandidate(appKey: "blank", displayName: " \t")
        let bidi = PickerCandidate(appKey: "bidi\u{202E}", displayName: "Evil\u{202E}Name\u{9B}")
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [odd, blank, bidi], allowAlways: false))
        #expect(lines.lines == ["Evil\\u{A}Name\\u{1B}[31m", "blank", "Evil\\u{202E}Name\\u{9B}"])
        let twins = ChoiceLines(
            PickerRequest(
                title: "Open",
                candidates: [
                    PickerCandidate(appKey: "a\u{1B}", displayName: "Same"), PickerCandidate(appKey: "b\u{2028}", displayName: "Same"),
                ]))
        #expect(twins.lines == ["Same [a\\u{1B}]", "Same [a\\u{1B}] (always)", "Same [b\\u{2028}]", "Same [b\\u{2028}] (always)"])
    }

    @Test func theOutputMapsBackWithItsLineEndingStripped() {
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium]))
        #expect(lines.answer(output: Array("Chromium (always)\n".utf8), status: 0) == .always(1))
        #expect(lines.answer(output: Array("Firefox\r\n".utf8), status: 0) == .justOnce(0))
        #expect(lines.answer(output: Array("Firefox".utf8), status: 0) == .justOnce(0))
    }

    @Test(arguments: [
        ("", Int32(0)), ("\n", 0), ("Opera\n", 0), ("firefox\n", 0), ("Firefox\nChromium\n", 0),
        ("Firefox \n", 0), ("Firefox\n", 1), ("Chromium (always)\n", 130),
    ])
    func emptyUnknownOrFailedOutputIsACancel(output: String, status: Int32) {
        let lines = ChoiceLines(PickerRequest(title: "Open", candidates: [firefox, chromium]))
        #expect(lines.answer(output: Array(output.utf8), status: status) == .cancelled)
    }
}
