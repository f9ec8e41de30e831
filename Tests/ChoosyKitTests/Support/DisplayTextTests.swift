import ChoosyKit
import Testing

/// How choosy shows text from outside (doc/security.md, "What choosy prints"); the fuzz target
/// `display-text` checks the same on any text.
@Suite struct DisplayTextTests {
    @Test(arguments: [
        ("plain text, é and 漢字", "plain text, é and 漢字"),
        ("OSC 52: \u{1B}]52;c;aGk=\u{7}", "OSC 52: \\u{1B}]52;c;aGk=\\u{7}"),
        ("C1 CSI \u{9B}31m, DEL \u{7F}, NUL \u{0}", "C1 CSI \\u{9B}31m, DEL \\u{7F}, NUL \\u{0}"),
        ("a\tb", "a\\u{9}b"),
        ("line\r\nbreaks\u{2028}and\u{2029}", "line\\u{D}\\u{A}breaks\\u{2028}and\\u{2029}"),
        ("bidi \u{202E}txt.exe\u{2066}\u{2069}", "bidi \\u{202E}txt.exe\\u{2066}\\u{2069}"),
        ("Wo\u{200B}rk\u{FEFF}\u{AD}", "Wo\\u{200B}rk\\u{FEFF}\\u{AD}"),
        ("tag \u{E0041}", "tag \\u{E0041}"),
    ])
    func controlAndFormatCharactersAreShownAsEscapes(_ text: String, _ shown: String) {
        #expect(singleLine(text) == shown)
        #expect(singleLine(shown) == shown, "shown again, it does not change")
        #expect(DisplayText.isShownAsIs(text) == (text == shown))
    }

    @Test func markupIsShownAsText() {
        #expect(
            DisplayText.pangoMarkup("Open <span>this</span> & that\u{1B}[2J") == "Open &lt;span&gt;this&lt;/span&gt; &amp; that\\u{1B}[2J")
        #expect(DisplayText.pangoMarkup("Firefox — Work's") == "Firefox — Work's")
    }

    /// JSON keeps the value (it reads back the same) and prints none of them raw.
    @Test func jsonEscapesWhatIsNotShownRaw() {
        #expect(JSONValue.string("a\u{1B}b\u{9B}c\u{202E}d\u{E0041}").rendered() == #""a\u001bb\u009bc\u202ed\udb40\udc41""#)
    }
}
