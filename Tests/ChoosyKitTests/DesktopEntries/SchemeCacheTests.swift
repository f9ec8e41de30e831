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
        // A byte that is written escaped is never there as it is (found by fuzz/scheme-cache).
        "S\ts\r\ta\n", "D\t5\ta\rb\n",
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

    /// The program map is read with only its stamps checked: a lookup finds what the whole
    /// check would, and checks the lines it reads.
    @Test func aMapReadByItsStampsFindsTheSameAndChecksWhatItReads() throws {
        var handlers: [String: [String]] = [:]
        for number in 0..<3000 { handlers["p\(number)-\(number % 7 == 0 ? "é%\t" : "x")"] = ["\(number).desktop", "b%\(number)"] }
        let cache = SchemeCache(roots: ["/r"], directories: [("/r", 7), ("/r/s\t", -1)], handlers: handlers)
        let bytes = cache.encoded()
        let strict = try #require(SchemeCache(decoding: bytes))
        let lazy = try #require(SchemeCache(decodingStampsOf: bytes))
        #expect(lazy.roots == ["/r"])
        #expect(lazy.directories.map(\.path) == ["/r", "/r/s\t"] && lazy.directories.map(\.modified) == [7, -1])
        #expect(!lazy.hasCheckedStamps)
        for (scheme, ids) in handlers { #expect(lazy.ids(forScheme: scheme) == ids, "\(scheme)") }
        for absent in ["", "p", "p1", "p3000-x", "q", "\u{10FFFF}"] { #expect(lazy.ids(forScheme: absent) == [], "\(absent)") }
        #expect(lazy.handlers == strict.handlers)

        // With the stamps of a map checked before, they are taken from it.
        let same = try #require(SchemeCache(decodingStampsOf: bytes, sameAs: strict))
        #expect(same.hasCheckedStamps && same.roots == ["/r"] && same.directories.count == 2)
        #expect(same.ids(forScheme: "p43-x") == ["43.desktop", "b%43"])
        let other = try #require(SchemeCache(decoding: SchemeCache(roots: ["/r"], directories: [("/r", 8)], handlers: [:]).encoded()))
        #expect(try #require(SchemeCache(decodingStampsOf: bytes, sameAs: other)).hasCheckedStamps == false)

        // A malformed line is nil where a lookup reads it, and the stamps are checked whole.
        let text = header + "R\t/r\nS\ta\tx\nS\tb\t%zz\nS\tc\ty\n"
        let broken = try #require(SchemeCache(decodingStampsOf: Array(text.utf8)))
        #expect(broken.ids(forScheme: "a") == ["x"])
        #expect(broken.ids(forScheme: "b") == nil)
        #expect(SchemeCache(decodingStampsOf: Array((header + "S\ta\tx\nX\n").utf8))?.ids(forScheme: "b") == nil)
        #expect(SchemeCache(decodingStampsOf: Array((header + "S\ta\t\u{E9}\n").utf8))?.ids(forScheme: "a") == ["\u{E9}"])
        #expect(SchemeCache(decodingStampsOf: Array(header.utf8) + [0x53, 0x09, 0x61, 0x09, 0xC3, 0x0A])?.ids(forScheme: "a") == nil)
        for stamps in ["R\ta\tb\n", "D\tx\ta\n", "R\t%2\n", "R", "R\t\u{E9}"] {
            #expect(SchemeCache(decodingStampsOf: Array((header + stamps).utf8)) == nil, "\(stamps)")
        }
        #expect(SchemeCache(decodingStampsOf: Array(header.utf8) + [0x52, 0x09, 0xC3, 0x0A, 0x53, 0x09, 0x61, 0x09, 0x0A]) == nil)
    }

    @Test func otherVersionsAndInvalidUTF8AreNotUsed() {
        #expect(SchemeCache(decoding: Array("choosy-desktop-index 2\n".utf8)) == nil)
        #expect(SchemeCache(decoding: Array("choosy-desktop-index 1".utf8)) == nil)
        #expect(SchemeCache(decoding: Array(header.utf8) + [0x52, 0x09, 0xC3, 0x0A]) == nil)
    }
}
