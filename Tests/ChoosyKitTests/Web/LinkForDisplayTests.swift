import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The link a picker shows beside its title (SPEC §6.1).
@Suite struct LinkForDisplayTests {
    @Test func aHostWithIDNALabelsIsShownInUnicodeWithItsASCIIFormAfterIt() {
        #expect(LinkForDisplay.text("https://xn--bcher-kva.example/a?b=c#d") == "https://bücher.example [xn--bcher-kva.example]/a?b=c#d")
        // Typed in Unicode, the same.
        #expect(LinkForDisplay.text("https://bücher.example/") == "https://bücher.example [xn--bcher-kva.example]/")
        #expect(LinkForDisplay.text("https://example.org:8080/x") == "https://example.org:8080/x")
    }

    @Test func aUserNameAndPasswordThatDressUpAnotherHostAreNotShown() {
        #expect(LinkForDisplay.text("https://paypal.com:login@evil.example/") == "https://evil.example/")
    }

    @Test func aLongLinkIsCutInTheMiddleKeepingItsHostAndEnd() {
        let link = "https://example.org/" + String(repeating: "a", count: 200) + "/end.html"
        let shown = LinkForDisplay.text(link)
        #expect(shown.count == LinkForDisplay.longest)
        #expect(shown.hasPrefix("https://example.org/aaa") && shown.hasSuffix("aaa/end.html") && shown.contains("…"))
        // The ASCII form of an IDNA host stays beside the host.
        let idna = LinkForDisplay.text("https://xn--bcher-kva.example/" + String(repeating: "b", count: 200))
        #expect(idna.hasPrefix("https://bücher.example [xn--bcher-kva.example]/bbb") && idna.contains("…"), "\(idna)")
    }

    @Test func controlCharactersAreEscapedAndACutNeverSplitsAnEscape() {
        #expect(LinkForDisplay.text("mailto:a@b\u{1B}]52;c;aGk=\u{7}") == "mailto:a@b\\u{1B}]52;c;aGk=\\u{7}")
        #expect(LinkForDisplay.text("name=x\u{202E}y\r\n") == "name=x\\u{202E}y\\u{D}\\u{A}")
        for offset in 0..<12 {
            let text =
                String(repeating: "x", count: 30 + offset) + String(repeating: "\u{1B}", count: 20) + String(repeating: "y", count: 40)
            let shown = LinkForDisplay.text(text)
            #expect(shown.count <= LinkForDisplay.longest)
            #expect(!shown.unicodeScalars.contains(where: DisplayText.isEscaped), "\(shown.debugDescription)")
            // Every escape that is shown is whole.
            let pieces = shown.split(separator: "…", maxSplits: 1)
            for piece in pieces {
                let opened = piece.components(separatedBy: "\\u{").count - 1
                let closed = piece.filter { $0 == "}" }.count
                #expect(opened == closed, "\(shown)")
            }
        }
    }

    @Test func aShortLinkIsShownWhole() {
        #expect(LinkForDisplay.text("https://example.org/") == "https://example.org/")
        #expect(LinkForDisplay.text("profile_screenname=jack") == "profile_screenname=jack")
    }
}
