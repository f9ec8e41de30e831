import Testing

@testable import ChoosyKit

/// Variables whose bytes are not UTF-8 keep them for the children (doc/security.md, "Links
/// byte for byte"); `uniqued` keeps the first of each string.
@Suite struct EnvironmentBytesTests {
    @Test func aValueSetAsBytesKeepsThemUntilItIsSetAgain() {
        var environment = Environment(["PATH": "/usr/bin"])
        environment.set("TOKEN", bytes: Array("tok".utf8) + [0xE9])
        #expect(environment["TOKEN"] == "tok\u{FFFD}")
        #expect(environment.bytes(of: "TOKEN") == Array("tok".utf8) + [0xE9])
        #expect(environment.givenEntries["TOKEN"] == Array("TOKEN=tok".utf8) + [0xE9])
        environment["TOKEN"] = "plain"
        #expect(environment.bytes(of: "TOKEN") == Array("plain".utf8), "a new value stands for itself")
        environment.set("TOKEN", bytes: Array("utf8".utf8))
        #expect(environment.givenEntries["TOKEN"] == nil)
        #expect(environment.bytes(of: "PATH") == Array("/usr/bin".utf8))
        #expect(environment.bytes(of: "UNSET") == nil)
    }

    @Test func anEntryStandsForTheVariableItRepairsTo() {
        let entry = Array("N".utf8) + [0xFF] + Array("=v".utf8) + [0xC0]
        #expect(Environment.entry(entry, isGivenFor: "N\u{FFFD}", "v\u{FFFD}"))
        #expect(!Environment.entry(entry, isGivenFor: "N\u{FFFD}", "w\u{FFFD}"))
        #expect(!Environment.entry(Array("novalue".utf8), isGivenFor: "novalue", ""))
    }

    @Test func uniquedKeepsTheFirstOfEachFewOrMany() {
        #expect(uniqued(["b", "a", "b", "c", "a"]) == ["b", "a", "c"])
        let many = (0..<1000).map { "s\($0 % 100)" }
        #expect(uniqued(many) == (0..<100).map { "s\($0)" })
        #expect(uniqued([]) == [])
    }
}
