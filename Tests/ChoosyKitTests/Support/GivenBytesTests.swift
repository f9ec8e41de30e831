import Testing

@testable import ChoosyKit

@Suite struct GivenBytesTests {
    let link = Array("https://example.org/".utf8) + [0xFF]
    var read: String { String(decoding: link, as: UTF8.self) }

    @Test func anArgumentReadWithReplacementsGetsItsBytesBack() {
        let given = GivenBytes([Array("handle".utf8), link])
        #expect(given.originals(in: ["firefox", read, "handle"]) == [1: link])
        #expect(given.original(of: "https://example.org/") == nil)
    }

    @Test func aParameterValueGetsItsBytesBack() {
        let given = GivenBytes([Array("url=".utf8) + link])
        #expect(given.originals(in: ["firefox", read]) == [1: link])
    }

    @Test func aUTF8ArgumentIsPassedAsItIs() {
        #expect(GivenBytes([Array("https://example.org/é".utf8)]).originals(in: ["https://example.org/é"]).isEmpty)
    }

    /// `\xff` and `\xfe` both read as U+FFFD: which was meant cannot be told.
    @Test func twoArgumentsReadAsTheSameTextArePassedAsRead() {
        let other = Array("https://example.org/".utf8) + [0xFE]
        let given = GivenBytes([link, other])
        #expect(given.originals(in: [read]).isEmpty)
        #expect(GivenBytes([link, link]).originals(in: [read]) == [0: link])
    }
}
