import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct PercentEncodingTests {
    @Test func encodesEverythingButUnreservedWithUppercaseHex() {
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("choosy:") == "choosy%3A")
        #expect(PercentEncoding.encode("a b+c/d?e#f&g=h%i") == "a%20b%2Bc%2Fd%3Fe%23f%26g%3Dh%25i")
        #expect(PercentEncoding.encode("é👍") == "%C3%A9%F0%9F%91%8D")
        #expect(PercentEncoding.encode("\u{0}\n") == "%00%0A")
    }

    @Test func decodesAndRoundTrips() {
        let text = "a b+c/d?e#f&g=h%i é日本👍"
        #expect(PercentEncoding.decode(PercentEncoding.encode(text)) == text)
        #expect(PercentEncoding.decode("%c3%a9") == "é")
        #expect(PercentEncoding.decode("a+b") == "a+b")
    }

    @Test func rejectsMalformedInput() {
        #expect(PercentEncoding.decode("%") == nil)
        #expect(PercentEncoding.decode("%4") == nil)
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%FF%FE") == nil)
        #expect(PercentEncoding.decodeBytes("%FF") == [0xFF])
    }

    @Test func lenientDecodingKeepsWhatItCannotDecode() {
        #expect(PercentEncoding.decodeLeniently("100% sure%2") == "100% sure%2")
        #expect(PercentEncoding.decodeLeniently("a%FFb") == "a\u{FFFD}b")
        #expect(PercentEncoding.decodeLeniently("a+b%2B", plusIsSpace: true) == "a b+")
    }
}
