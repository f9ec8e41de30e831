/// How the URL standard reads and writes the hosts that are addresses: IPv4 in all the forms
/// browsers accept (`127.0.0.1`, `0x7f.1`, `017700000001`, `2130706433`) and IPv6 (`[::1]`,
/// with an embedded IPv4 part or not).
enum IPAddressSyntax {
    /// Above every address part, so that a long run of digits saturates instead of overflowing
    /// and is still too large.
    private static let saturated: UInt64 = 1 << 40

    /// True when the last label of `domain` (after one trailing dot) is a number, which makes
    /// the whole host an IPv4 address: `1.2.3.4`, `example.0x10`, not `example.com`.
    static func endsInANumber(_ domain: [UInt8]) -> Bool {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts[parts.count - 1].isEmpty {
            guard parts.count > 1 else { return false }
            parts.removeLast()
        }
        let last = parts[parts.count - 1]
        if !last.isEmpty, last.allSatisfy(isDigit) { return true }
        return number(last) != nil
    }

    /// The IPv4 parser: one to four parts, each decimal, octal (`0` first) or hex (`0x`), the
    /// last filling the bytes that are left.
    static func ipv4(_ domain: [UInt8]) throws(WebError) -> UInt32 {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts[parts.count - 1].isEmpty, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { throw WebError("the IPv4 address has more than four parts") }
        var numbers: [UInt64] = []
        for part in parts {
            guard let value = number(part) else {
                throw WebError(
                    "the host ends in a number but '\(String(decoding: part, as: UTF8.self))' is not one, so it is no IPv4 address")
            }
            numbers.append(value)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }), numbers[numbers.count - 1] < 1 << (8 * (5 - UInt64(numbers.count))) else {
            throw WebError("the IPv4 address has a part out of range")
        }
        var address = numbers[numbers.count - 1]
        for (index, value) in numbers.dropLast().enumerated() {
            address += value << (8 * (3 - UInt64(index)))
        }
        return UInt32(address)
    }

    /// The IPv4 number parser: nil when `text` is empty or has a digit its radix lacks.
    private static func number(_ text: ArraySlice<UInt8>) -> UInt64? {
        guard !text.isEmpty else { return nil }
        var digits = text
        var radix: UInt64 = 10
        if digits.count >= 2, digits[digits.startIndex] == UInt8(ascii: "0"), digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits[digits.startIndex] == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = byte.hexDigitValue.map(UInt64.init), digit < radix else { return nil }
            value = min(value * radix + digit, saturated)
        }
        return value
    }

    /// The IPv6 parser, on the text between the brackets: eight pieces, `::` once for a run of
    /// zeros, an IPv4 part in the last two pieces.
    static func ipv6(_ text: ArraySlice<UInt8>) throws(WebError) -> [UInt16] {
        let input = Array(text)
        func at(_ index: Int) -> UInt8? { index < input.count ? input[index] : nil }
        let colon = UInt8(ascii: ":")
        let invalid = WebError("'[\(String(decoding: input, as: UTF8.self))]' is no IPv6 address")
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        if at(0) == colon {
            guard at(1) == colon else { throw invalid }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        pieces: while let c = at(pointer) {
            guard pieceIndex < 8 else { throw invalid }
            if c == colon {
                guard compress == nil else { throw invalid }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let digit = at(pointer)?.hexDigitValue {
                value = value * 16 + UInt16(digit)
                pointer += 1
                length += 1
            }
            switch at(pointer) {
            case UInt8(ascii: "."):
                guard length > 0, pieceIndex <= 6 else { throw invalid }
                pointer -= length
                var numbersSeen = 0
                while let byte = at(pointer) {
                    if numbersSeen > 0 {
                        guard byte == UInt8(ascii: "."), numbersSeen < 4 else { throw invalid }
                        pointer += 1
                    }
                    guard let first = at(pointer), isDigit(first) else { throw invalid }
                    var part: Int?
                    while let digit = at(pointer), isDigit(digit) {
                        let number = Int(digit - UInt8(ascii: "0"))
                        guard let current = part else {
                            part = number
                            pointer += 1
                            continue
                        }
                        // A part with a leading zero is refused, as it is octal in the IPv4 parser.
                        guard current != 0, current * 10 + number <= 255 else { throw invalid }
                        part = current * 10 + number
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] << 8 | UInt16(part!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { throw invalid }
                break pieces
            case colon:
                pointer += 1
                guard at(pointer) != nil else { throw invalid }
            case nil:
                break
            default:
                throw invalid
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            throw invalid
        }
        return address
    }

    static func serialize(ipv4 address: UInt32) -> String {
        [24, 16, 8, 0].map { String((address >> $0) & 0xFF) }.joined(separator: ".")
    }

    /// Lowercase hex pieces, the first longest run of two or more zero pieces as `::`.
    static func serialize(ipv6 address: [UInt16]) -> String {
        var compress: Int?
        var longest = 1
        var index = 0
        while index < 8 {
            var end = index
            while end < 8, address[end] == 0 { end += 1 }
            if end - index > longest {
                compress = index
                longest = end - index
            }
            index = max(end, index + 1)
        }
        var output = "["
        index = 0
        while index < 8 {
            if index == compress {
                output += index == 0 ? "::" : ":"
                index += longest
                continue
            }
            output += String(address[index], radix: 16)
            if index != 7 { output += ":" }
            index += 1
        }
        return output + "]"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
