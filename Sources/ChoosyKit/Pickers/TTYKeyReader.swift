import Glibc

/// Reads key presses (non-canonical mode) or whole lines (canonical mode) from a terminal.
struct TTYKeyReader {
    let fd: Int32

    /// How long an Esc waits for the rest of an escape sequence. A terminal sends a sequence
    /// in one write, so a byte that comes later belongs to a new key press and a lone Esc
    /// cancels at once.
    static let escapeSequenceMilliseconds: Int32 = 50

    func nextKey() -> TTYKey {
        guard let byte = readByte() else { return .endOfInput }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x1B: return escapeSequence()
        case 0x20...0x7E: return .text(Character(Unicode.Scalar(byte)))
        default: return .ignored
        }
    }

    /// A line without its newline, or nil at end of input.
    func nextLine() -> String? {
        var bytes: [UInt8] = []
        while let byte = readByte() {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// After an Esc: `ESC [ … A` / `ESC O A` are Up, the same with `B` Down (any parameters,
    /// so Ctrl-Up counts too); Esc alone, or twice, is Esc.
    private func escapeSequence() -> TTYKey {
        guard let introducer = readByte(within: TTYKeyReader.escapeSequenceMilliseconds) else { return .escape }
        switch introducer {
        case 0x1B:
            return .escape
        case UInt8(ascii: "["), UInt8(ascii: "O"):
            // Parameter and intermediate bytes come before one final byte in 0x40...0x7E.
            for _ in 0..<16 {
                guard let byte = readByte(within: TTYKeyReader.escapeSequenceMilliseconds) else { return .ignored }
                if (0x40...0x7E).contains(byte) {
                    switch byte {
                    case UInt8(ascii: "A"): return .up
                    case UInt8(ascii: "B"): return .down
                    default: return .ignored
                    }
                }
            }
            return .ignored
        default:
            return .ignored
        }
    }

    private func readByte(within milliseconds: Int32) -> UInt8? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return readByte() }
            if ready == 0 || errno != EINTR { return nil }
        }
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
