/// niri, through its socket (`NIRI_SOCKET`; doc/running.md): requests and replies are lines of
/// JSON on one connection, so `"Workspaces"` and `"Windows"` are sent at once; the action
/// `FocusWindow` focuses a window by its ID.
package struct NiriWindowSystem: WindowSystem {
    package let name = "niri"
    let socket: String
    let sockets: LocalSockets

    package func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow] {
        let replies = try exchange(["\"Workspaces\"", "\"Windows\""], before: deadline)
        return try WindowSystemError.asking {
            let focused = try NiriReplies.focusedWorkspace(replies[0])
            return try NiriReplies.windows(replies[1]).map { window in
                SessionWindow(id: String(window.id), pid: window.pid, onCurrentWorkspace: focused != nil && window.workspace == focused)
            }
        }
    }

    package func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError) {
        guard let id = UInt64(window.id) else { throw WindowSystemError("no window \(window.id)") }
        let reply = try exchange(["{\"Action\":{\"FocusWindow\":{\"id\":\(id)}}}"], before: deadline)[0]
        guard NiriReplies.handled(reply) else { throw WindowSystemError("would not focus window \(id)") }
    }

    /// Sends each request as a line, then reads a line for each.
    private func exchange(_ requests: [String], before deadline: Deadline) throws(WindowSystemError) -> [ArraySlice<UInt8>] {
        try WindowSystemError.asking {
            let connection = try sockets.connect(socket)
            try connection.send(Array(requests.map { $0 + "\n" }.joined().utf8), before: deadline)
            var replies: [ArraySlice<UInt8>] = []
            for _ in requests {
                let reply = try connection.receive(limit: I3WindowSystem.replyLimit, before: deadline) { bytes, unseen in
                    bytes[unseen...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }
                }
                guard !reply.closed else { throw WindowSystemError("closed the connection mid-reply") }
                replies.append(reply.reply.dropLast())
            }
            return replies
        }
    }
}
