@testable import ChoosyKit

// What a window system answers (doc/running.md) is read like any outside data: sway's and
// i3's tree and workspaces, their command replies and message frames, Hyprland's clients and
// active workspace, niri's reply lines, what choosy's KWin script calls back with. None of it may crash choosy, and what comes out is
// what goes into the commands choosy sends back: a pid is positive, a Hyprland address is
// `0x` and hex digits (so no other command can ride along in `focuswindow address:`), a
// container or window is a number, deterministically. An i3 frame reads back its payload.
//
// Input: the whole input is each reply in turn; its first 0xFF-separated field is also a
// command framed as an i3 message and read back.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWindowSystems(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let bytes = input.bytes
    let payload = ArraySlice(bytes)

    if let windows = try? I3Replies.windows(payload) {
        invariant((try? I3Replies.windows(payload)) == windows, "the tree \(bytes) reads two ways")
        invariant(windows.allSatisfy { ($0.pid ?? 1) > 0 && ($0.xWindow ?? 1) > 0 }, "the tree \(bytes) gives \(windows)")
    }
    _ = try? I3Replies.focusedWorkspace(payload)
    _ = I3Replies.commandSucceeded(payload)
    if let length = I3IPC.replyLength(bytes) {
        invariant(length >= 14 || length == bytes.count, "\(bytes) is a reply of \(length) bytes")
    }
    let command = input.field(0)
    let frame = I3IPC.message(I3IPC.runCommand, command)
    invariant(I3IPC.replyLength(frame) == frame.count, "the frame of \(command.debugDescription) has another length")
    invariant(
        I3IPC.payload(frame, type: I3IPC.runCommand).map(Array.init) == Array(command.utf8),
        "\(command.debugDescription) does not read back")

    if let clients = try? HyprlandReplies.clients(bytes) {
        for client in clients {
            invariant(HyprlandReplies.isAddress(client.address), "the clients \(bytes) give the address \(client.address.debugDescription)")
            let digits = client.address.utf8.dropFirst(2)
            invariant(
                client.address.hasPrefix("0x") && !digits.isEmpty && digits.allSatisfy { "0123456789abcdefABCDEF".utf8.contains($0) },
                "\(client.address.debugDescription) is no address")
            invariant((client.pid ?? 1) > 0, "the clients \(bytes) give the pid \(client.pid!)")
        }
    }
    _ = try? HyprlandReplies.activeWorkspace(bytes)
    _ = HyprlandReplies.dispatched(bytes)

    if let windows = try? NiriReplies.windows(payload) {
        invariant(windows.allSatisfy { ($0.pid ?? 1) > 0 }, "the windows \(bytes) give \(windows)")
        invariant((try? NiriReplies.windows(payload)) == windows, "the windows \(bytes) read two ways")
    }
    _ = try? NiriReplies.focusedWorkspace(payload)
    _ = NiriReplies.handled(payload)

    // A KWin window's ID goes back into the focus script, as a JavaScript string.
    if let windows = try? KWinReplies.windows(String(decoding: bytes, as: UTF8.self)) {
        for window in windows {
            invariant(KWinReplies.isWindowID(window.id) && window.id.utf8.count == 38, "\(window.id.debugDescription) is no KWin window ID")
            invariant(
                !window.id.utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }, "\(window.id) could leave its string")
            invariant((window.pid ?? 1) > 0, "the windows \(bytes) give the pid \(window.pid!)")
        }
    }
    return 0
}
