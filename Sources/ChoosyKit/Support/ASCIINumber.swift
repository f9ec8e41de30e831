/// Numbers as choosy's caches and `/proc` write them in ASCII.
enum ASCIINumber {
    /// The value of decimal `digits`; nil for anything else, or for more than 18 digits (which
    /// could overflow).
    static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `value` as 16 lowercase hex digits.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The value of exactly 16 lowercase hex digits, as `hex16` writes them.
    static func hex16(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            // Lowercase only, as written.
            guard let digit = byte.hexDigitValue, !(UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}

extension UInt8 {
    /// The value of this byte as a hex digit (either case), or nil.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
