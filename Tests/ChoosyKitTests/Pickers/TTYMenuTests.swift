import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The key handling of the tty picker, without a terminal; `TTYPickerTmuxTests` drive the
/// real thing.
@Suite struct TTYMenuTests {
    private func menu(allowAlways: Bool = true, arrowKeys: Bool = true, site: String? = nil) -> TTYMenu {
        let request = PickerRequest(
            title: "Open with",
            candidates: [
                PickerCandidate(appKey: "firefox", displayName: "Firefox", isDefault: true),
                PickerCandidate(appKey: "chromium", displayName: "Chromium"),
                PickerCandidate(appKey: "epiphany", displayName: "Web"),
            ], allowAlways: allowAlways, site: site)
        return TTYMenu(request: request, labels: ChoiceLines(request).labels, arrowKeys: arrowKeys)
    }

    private func keys(_ text: String) -> [TTYKey] {
        text.map { $0 == "\n" ? .enter : .text($0) }
    }

    /// Feeds keys until one gives an answer.
    private func answer(_ menu: inout TTYMenu, _ keys: [TTYKey]) -> PickerAnswer? {
        for key in keys {
            if let answer = menu.handle(key) { return answer }
        }
        return nil
    }

    @Test func typedNumbersPickJustOnceAndWithABangAlways() {
        var first = menu()
        #expect(answer(&first, keys("2\n")) == .justOnce(1))
        var second = menu()
        #expect(answer(&second, keys("3!\n")) == .always(2))
        var third = menu(arrowKeys: false)
        #expect(third.submit(" 2 !\r") == .always(1))
    }

    @Test func anAtPicksAlwaysForTheSiteOfAWebLink() {
        var typed = menu(site: "example.org")
        #expect(answer(&typed, keys("2@\n")) == .alwaysForSite(1))
        var highlighted = menu(site: "example.org")
        #expect(answer(&highlighted, [.down, .text("@"), .enter]) == .alwaysForSite(1))
        #expect(
            menu(site: "example.org").lines(style: TerminalStyle(enabled: false), width: 200).last
                == "1-3 Enter: just once, N! Enter: always, N@ Enter: always for example.org, Up/Down then Enter, q or Esc: cancel")
        // On 80 columns the hint is whole, on two lines.
        #expect(
            Array(menu(site: "www.example.org").lines(style: TerminalStyle(enabled: false), width: 80).suffix(2)) == [
                "1-3 Enter: just once, N! Enter: always, N@ Enter: always for www.example.org,",
                "Up/Down then Enter, q or Esc: cancel",
            ])
        var noSite = menu()
        #expect(noSite.submit("2@") == nil)
        #expect(noSite.hint == "Always for a site is offered for web links only: type N or N!.")
    }

    @Test(arguments: [[TTYKey.escape], [.interrupt], [.endOfInput], [.text("q"), .enter], [.text("Q"), .enter]])
    func cancelKeys(_ keys: [TTYKey]) {
        var menu = menu()
        #expect(answer(&menu, keys) == .cancelled)
    }

    @Test func arrowsMoveTheHighlightAndEnterPicksIt() {
        var menu = menu()
        #expect(answer(&menu, [.down, .down, .down, .up]) == nil)
        #expect(menu.highlighted == 2)
        #expect(answer(&menu, [.enter]) == .justOnce(2))
        var always = self.menu()
        #expect(answer(&always, [.up, .text("!"), .enter]) == .always(2))
    }

    @Test func typingANumberMovesTheHighlightAndBackspaceEdits() {
        var menu = menu()
        #expect(answer(&menu, keys("3")) == nil)
        #expect(menu.highlighted == 2)
        #expect(answer(&menu, [.backspace, .text("2"), .enter]) == .justOnce(1))
    }

    @Test(arguments: ["0\n", "4\n", "x\n", "2x\n", "!!\n", "12345678901\n"])
    func invalidInputLeavesAHintAndKeepsAsking(_ typed: String) {
        var menu = menu()
        #expect(answer(&menu, keys(typed)) == nil)
        #expect(menu.hint == "Not a choice: type a number from 1 to 3, then Enter.")
        #expect(menu.typed.isEmpty)
        #expect(answer(&menu, keys("1\n")) == .justOnce(0))
    }

    @Test func alwaysIsRejectedWhenNotOffered() {
        var menu = menu(allowAlways: false)
        #expect(answer(&menu, keys("2!\n")) == nil)
        #expect(menu.hint == "Always is not offered here: type the number alone.")
        #expect(answer(&menu, keys("2\n")) == .justOnce(1))
        #expect(!menu.lines(style: TerminalStyle(enabled: false), width: 80).joined().contains("!"))
    }

    @Test func withoutArrowKeysAnEmptyLineIsNotAChoice() {
        var menu = menu(arrowKeys: false)
        #expect(menu.submit("") == nil)
        #expect(menu.handle(.down) == nil)
        #expect(menu.submit("\u{1B}") == .cancelled)
    }

    @Test func theListIsNumberedMarksTheDefaultAndTheHighlight() {
        var menu = menu()
        _ = menu.handle(.down)
        #expect(
            menu.lines(style: TerminalStyle(enabled: false), width: 80) == [
                "Open with",
                "  1  Firefox  (default)",
                "> 2  Chromium",
                "  3  Web",
                "1-3 Enter: just once, N! Enter: always, Up/Down then Enter, q or Esc: cancel",
            ])
        let colored = menu.lines(style: TerminalStyle(enabled: true), width: 80)
        #expect(colored[2] == "\u{1B}[7m> 2  Chromium\u{1B}[0m")
    }

    @Test func theTitleCannotDriveTheTerminal() {
        let request = PickerRequest(title: "Open\n\u{1B}[2J\u{202E}with", candidates: [PickerCandidate(appKey: "a", displayName: "A")])
        let menu = TTYMenu(request: request, labels: ["A"], arrowKeys: true)
        #expect(menu.lines(style: TerminalStyle(enabled: false), width: 80)[0] == "Open\\u{A}\\u{1B}[2J\\u{202E}with")
    }

    @Test func longLinesAreCutToTheTerminalWidth() {
        let lines = menu().lines(style: TerminalStyle(enabled: false), width: 20)
        #expect(lines.allSatisfy { $0.count < 20 })
        #expect(lines[1] == "> 1  Firefox  (def~")
    }
}
