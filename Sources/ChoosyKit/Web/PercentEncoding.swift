/// RFC 3986 percent-encoding as choosy uses it (doc/spec-choices.md, "URLs"): everything but the unreserved bytes is
/// encoded, so a value can never add structure (`&`, `=`, `#`, `?`, `/`) to a URL.
package enum PercentEncoding {
    /// Encodes the UTF-8 of `text`; every byte outside `A-Z a-z 0-9 - . _ ~` (and `kept`)
    /// becomes `%XX` with uppercase hex.
    package static func encode(_ text: some StringProtocol, keeping kept: [UInt8] = []) -> String {
        encode(bytes: text.utf8, keeping: kept)
    }

    /// Encodes bytes, keeping the unreserved ones and those of `kept` as they are.
    package static func encode(bytes: some Collection<UInt8>, keeping kept: some Collection<UInt8>) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count)
        for byte in bytes {
            if isUnreserved(byte) || kept.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The decoded text, or nil when a `%` is not followed by two hex digits or the bytes
    /// are not UTF-8. `+` is left alone (it is a space only in HTML forms).
    package static func decode(_ text: some StringProtocol) -> String? {
        guard let bytes = decodeBytes(text) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decoding for text that is shown or passed on rather than trusted: a malformed `%` is
    /// kept as written and invalid UTF-8 becomes U+FFFD, so nothing is lost or rejected.
    /// With `plusIsSpace`, `+` means a space, as in HTML form data.
    package static func decodeLeniently(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String {
        String(decoding: decode(text, strict: false, plusIsSpace: plusIsSpace)!, as: UTF8.self)
    }

    /// The decoded bytes, or nil for a `%` without two hex digits after it.
    package static func decodeBytes(_ text: some StringProtocol) -> [UInt8]? {
        decode(text, strict: true, plusIsSpace: false)
    }

    private static func decode(_ text: some StringProtocol, strict: Bool, plusIsSpace: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%") {
                if input.count >= 2,
                    let high = input[input.startIndex].hexDigitValue, let low = input[input.startIndex + 1].hexDigitValue
                {
                    bytes.append(high << 4 | low)
                    input = input.dropFirst(2)
                } else if strict {
                    return nil
                } else {
                    bytes.append(byte)
                }
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// RFC 3986 §2.3 unreserved characters.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
