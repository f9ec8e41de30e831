import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct SuggestionTests {
    @Test func nearMissesAreSuggested() {
        #expect(suggestion(for: "Twiter", among: ["twitter", "browser"]) == "twitter")
        #expect(suggestion(for: "show_profil", among: ["post", "show_profile"]) == "show_profile")
        #expect(suggestion(for: "x_wb", among: ["x_web"]) == "x_web")
    }

    @Test func swappedNeighboursCountAsOneEdit() {
        #expect(suggestion(for: "opne", among: ["open", "url", "list"]) == "open")
        #expect(suggestion(for: "lsit", among: ["open", "url", "list"]) == "list")
        #expect(suggestion(for: "broswer", among: ["browser", "email"]) == "browser")
    }

    @Test func farOffInputGetsNoSuggestion() {
        #expect(suggestion(for: "zzzz", among: ["open", "url", "list"]) == nil)
        #expect(suggestion(for: "pone", among: ["open"]) == nil)
        #expect(suggestion(for: "x", among: []) == nil)
    }
}
