import Testing

@testable import ChoosyKit

/// The numbers of the caches and of `/proc` read back as written, and nothing else reads.
@Suite struct ASCIINumberTests {
    @Test func decimalsReadOnlyFromDigits() {
        #expect(ASCIINumber.decimal(Array("0".utf8)[...]) == 0)
        #expect(ASCIINumber.decimal(Array("4194304".utf8)[...]) == 4_194_304)
        #expect(ASCIINumber.decimal(Array("999999999999999999".utf8)[...]) == 999_999_999_999_999_999)
        for text in ["", "-1", "+1", " 1", "1 ", "1a", "1234567890123456789"] {
            #expect(ASCIINumber.decimal(Array(text.utf8)[...]) == nil, "\(text.debugDescription)")
        }
    }

    @Test func hexReadsBackAsWritten() {
        for value: UInt64 in [0, 1, 0xdead_beef, .max, 0x0123_4567_89ab_cdef] {
            let text = ASCIINumber.hex16(value)
            #expect(text.utf8.count == 16)
            #expect(ASCIINumber.hex16(Array(text.utf8)[...]) == value)
        }
        for text in ["", "0", "00000000000000001", "000000000000000G", "+00000000000000f", "DEADBEEFDEADBEEF"] {
            #expect(ASCIINumber.hex16(Array(text.utf8)[...]) == nil, "\(text.debugDescription)")
        }
    }
}
