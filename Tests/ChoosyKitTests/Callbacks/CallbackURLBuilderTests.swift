import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct CallbackURLBuilderTests {
    @Test func successAppendsEncodedParametersKeepingTheQuery() throws {
        #expect(
            try CallbackURLBuilder.success("app://done?q=a%2Bb", adding: [("app", "tweetbot"), ("url", "a b&c=d")])
                == "app://done?q=a%2Bb&app=tweetbot&url=a%20b%26c%3Dd")
        #expect(try CallbackURLBuilder.success("app://done", adding: [("app", "é")]) == "app://done?app=%C3%A9")
        #expect(try CallbackURLBuilder.success("app://done?", adding: [("a", "1")]) == "app://done?a=1")
        #expect(try CallbackURLBuilder.success("app://done?x=1&", adding: [("a", "1")]) == "app://done?x=1&a=1")
    }

    @Test func fragmentStaysLast() throws {
        #expect(
            try CallbackURLBuilder.success("https://example.org/p?x=1#top?not=query", adding: [("a", "#")])
                == "https://example.org/p?x=1&a=%23#top?not=query")
        #expect(
            try CallbackURLBuilder.error("app://e#f", code: 402, message: "unknown action 'x'")
                == "app://e?errorCode=402&errorMessage=unknown%20action%20%27x%27#f")
    }

    @Test func nothingAddedLeavesTheURLAlone() throws {
        #expect(try CallbackURLBuilder.success("app://done?q=a+b%2b#f", adding: []) == "app://done?q=a+b%2b#f")
        #expect(try CallbackURLBuilder.cancel("app://cancel?x=%41") == "app://cancel?x=%41")
    }

    @Test(arguments: [
        "file:///etc/passwd", "FILE:///etc/passwd", "data:text/html,<script>", "javascript:alert(1)",
        " \tJavaScript:alert(1)", "\u{0}vbscript:msgbox", "VBScript:x", "java\tscript:alert(1)",
        "relative/path", "", "   ", "1app://x",
    ])
    func refusesUnsafeCallbacks(url: String) {
        #expect(throws: CallbackURLError.self) { try CallbackURLBuilder.cancel(url) }
        #expect(throws: CallbackURLError.self) { try CallbackURLBuilder.success(url, adding: [("a", "b")]) }
    }

    @Test func refusalNamesTheScheme() {
        do {
            _ = try CallbackURLBuilder.cancel("  javascript:alert(1)")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.description.contains("'javascript:' callbacks are never opened"))
        }
    }

    @Test func trimsSurroundingWhitespace() throws {
        #expect(try CallbackURLBuilder.cancel(" https://example.org/ \n") == "https://example.org/")
    }
}
