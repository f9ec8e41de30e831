/// The i3 IPC message format that i3 and sway share (doc/running.md, after i3's "IPC
/// interface" document and sway-ipc(7)): the magic `i3-ipc`, the payload's length and the
/// message type as 32-bit integers in the machine's byte order, then the payload.
package enum I3IPC {
    package static let runCommand: UInt32 = 0
    package static let getWorkspaces: UInt32 = 1
    package static let getTree: UInt32 = 4

    private static let magic = Array("i3-ipc".utf8)
    private static let headerLength = 14

    /// The message of `type` with `payload`.
    package static func message(_ type: UInt32, _ payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        var bytes = magic
        withUnsafeBytes(of: UInt32(body.count)) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        return bytes + body
    }

    /// The length of the whole reply that `bytes` begins with, once its header is there; for
    /// bytes that are no reply, their own length (what was read is all that is looked at).
    package static func replyLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.starts(with: magic.prefix(bytes.count)) else { return bytes.count }
        guard bytes.count >= headerLength else { return nil }
        return headerLength + Int(integer(bytes, at: 6))
    }

    /// The payload of a whole reply of `type`, or nil for bytes that are not one.
    package static func payload(_ bytes: [UInt8], type: UInt32) -> ArraySlice<UInt8>? {
        guard bytes.count >= headerLength, bytes.starts(with: magic), integer(bytes, at: 10) == type,
            bytes.count == headerLength + Int(integer(bytes, at: 6))
        else { return nil }
        return bytes[headerLength...]
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<(offset + 4)]) }
        return value
    }
}
