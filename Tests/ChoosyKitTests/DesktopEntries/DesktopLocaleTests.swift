import ChoosyTestSupport
import Testing

@testable import ChoosyKit

@Suite struct DesktopLocaleTests {
    @Test func parsesPOSIXLocaleNames() {
        #expect(DesktopLocale(parsing: "de_DE.UTF-8") == DesktopLocale(language: "de", country: "DE"))
        #expect(DesktopLocale(parsing: "sr_RS.UTF-8@latin") == DesktopLocale(language: "sr", country: "RS", modifier: "latin"))
        #expect(DesktopLocale(parsing: "sr@latin") == DesktopLocale(language: "sr", modifier: "latin"))
        #expect(DesktopLocale(parsing: "fr") == DesktopLocale(language: "fr"))
        for c in ["C", "POSIX", "C.UTF-8"] {
            #expect(DesktopLocale(parsing: c) == DesktopLocale(language: "C"), "\(c)")
            #expect(DesktopLocale(parsing: c)?.candidates == ["C"])
        }
        for none in ["", "_DE", "de_", "de@"] {
            #expect(DesktopLocale(parsing: none) == nil, "\(none)")
        }
    }

    @Test func followsPOSIXPrecedence() {
        let all: [String: String] = ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"]
        #expect(DesktopLocale.messages(in: Environment(all))?.language == "fr")
        var noAll = all
        noAll["LC_ALL"] = ""
        #expect(DesktopLocale.messages(in: Environment(noAll))?.language == "de")
        #expect(DesktopLocale.messages(in: Environment(["LANG": "es_ES.UTF-8"]))?.language == "es")
        // LC_ALL=C selects Key[C] even when LANG names a language.
        #expect(DesktopLocale.messages(in: Environment(["LC_ALL": "C", "LANG": "de_DE.UTF-8"]))?.candidates == ["C"])
        #expect(DesktopLocale.messages(in: Environment([:])) == nil)
    }

    @Test func matchesInTheSpecOrder() throws {
        let locale = try #require(DesktopLocale(parsing: "sr_RS.UTF-8@latin"))
        #expect(locale.candidates == ["sr_RS@latin", "sr_RS", "sr@latin", "sr"])
        #expect(DesktopLocale(parsing: "de_DE")?.candidates == ["de_DE", "de"])
        #expect(DesktopLocale(parsing: "sr@latin")?.candidates == ["sr@latin", "sr"])

        var keys = [
            "Name": "Viewer", "Name[sr]": "sr", "Name[sr@latin]": "sr@latin",
            "Name[sr_RS]": "sr_RS", "Name[sr_RS@latin]": "sr_RS@latin", "Name[de]": "de",
        ]
        func name() -> String? {
            DesktopEntry(id: "v.desktop", path: "/v.desktop", keys: keys).translation(of: "Name", for: locale)
        }
        #expect(name() == "sr_RS@latin")
        keys["Name[sr_RS@latin]"] = nil
        #expect(name() == "sr_RS")
        keys["Name[sr_RS]"] = nil
        #expect(name() == "sr@latin")
        keys["Name[sr@latin]"] = nil
        #expect(name() == "sr")
        keys["Name[sr]"] = nil
        #expect(name() == nil)
        #expect(DesktopEntry(id: "v.desktop", path: "/v.desktop", keys: keys).localizedValue("Name", for: locale) == "Viewer")
    }

    @Test func aCountryLocaleDoesNotMatchAModifierKey() throws {
        let locale = try #require(DesktopLocale(parsing: "sr_RS"))
        let entry = DesktopEntry(
            id: "v.desktop", path: "/v.desktop", keys: ["Name": "V", "Name[sr@latin]": "latinica", "Name[sr]": "ћирилица"])
        #expect(entry.translation(of: "Name", for: locale) == "ћирилица")
    }
}
