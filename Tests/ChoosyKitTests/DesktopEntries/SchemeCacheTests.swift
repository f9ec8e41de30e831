import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The saved scheme map (`desktop-entries.cache`), read bytewise and decoded per scheme.
@Suite struct SchemeCacheFormatTests {
    let header = "choosy-desktop-index 1\n"

    @Test func everyNameSurvivesTheFile() throws {
        let cache = SchemeCache(
            roots: ["/a\tb/applications", "/c%d\r/applications"],
            directories: [("/x\ny", 5), ("/p", -1), ("/ü%25", 1_700_000_000_123_456_789)],
            handlers: ["s": ["a%b.desktop", "t\tab.desktop", "n\nl.desktop", ""], "m": ["x.desktop"], "e%\t": ["é.desktop"]]
        )
        let decoded = try #require(SchemeCache(decoding: cache.encoded()))
        #expect(decoded.roots == cache.roots)
        #expect(decoded.directories.map(\.path) == cache.directories.map(\.path))
        #expect(decoded.directories.map(\.modified) == cache.directories.map(\.modified))
        #expect(decoded.ids(forScheme: "s") == ["a%b.desktop", "t\tab.desktop", "n\nl.desktop", ""])
        #expect(decoded.ids(forScheme: "e%\t") == ["é.desktop"])
        #expect(decoded.ids(forScheme: "nothing") == [])
        #expect(decoded.handlers == cache.handlers)
        #expect(decoded.encoded() == cache.encoded())
    }

    @Test func wellFormedFiles() throws {
        #expect(try #require(SchemeCache(decoding: Array(header.utf8))).roots.isEmpty)
        let cache = try #require(SchemeCache(decoding: Array((header + "R\t\nD\t-1\t\nS\ts\t\nS\tt\ta\tb\n").utf8)))
        #expect(cache.roots == [""])
        #expect(cache.directories.map(\.modified) == [-1])
        #expect(cache.ids(forScheme: "s") == [""])
        #expect(cache.ids(forScheme: "t") == ["a", "b"])
    }

    @Test(arguments: [
        "R\ta\tb\n", "D\t5\n", "D\t5\ta\tb\n", "D\tx\ta\n", "D\t%35\ta\n", "S\ts\n", "S\ts\ta\nS\ts\tb\n", "S\tt\ta\nS\ts\tb\n", "R\t%2\n",
        "R\t%41\n",
        "R\t%0a\n", "R\ta", "\n", "R\n", "RX\ta\n", "X\ta\n", "R\ta\n\n",
    ])
    func malformedFilesAreNotUsed(_ body: String) {
        #expect(SchemeCache(decoding: Array((header + body).utf8)) == nil)
    }

    /// The program map holds a line per program: every one is found, by the bytes of its name.
    @Test func thousandsOfSchemesAreEachFoundAndOnlyTheirs() throws {
        var handlers: [String: [String]] = [:]
        for number in 0..<3000 { handlers["p\(number)-\(number % 7 == 0 ? "é%\t" : "x")"] = ["\(number).desktop"] }
        let decoded = try #require(SchemeCache(decoding: SchemeCache(roots: [], directories: [], handlers: handlers).encoded()))
        for (scheme, ids) in handlers { #expect(decoded.ids(forScheme: scheme) == ids, "\(scheme)") }
        for absent in ["", "p", "p1", "p3000-x", "p0-\u{65}\u{301}%\t", "q"] { #expect(decoded.ids(forScheme: absent) == [], "\(absent)") }
    }

    @Test func otherVersionsAndInvalidUTF8AreNotUsed() {
        #expect(SchemeCache(decoding: Array("choosy-desktop-index 2\n".utf8)) == nil)
        #expect(SchemeCache(decoding: Array("choosy-desktop-index 1".utf8)) == nil)
        #expect(SchemeCache(decoding: Array(header.utf8) + [0x52, 0x09, 0xC3, 0x0A]) == nil)
    }
}
