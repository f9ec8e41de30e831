/// sway and i3, through their IPC socket (`SWAYSOCK`, `I3SOCK`; doc/running.md): GET_WORKSPACES
/// for the focused workspace and GET_TREE for the windows, asked at once on one connection;
/// RUN_COMMAND `[con_id=N] focus` to focus one. i3's tree names X windows, not processes: their
/// pids are the X server's `_NET_WM_PID`.
package final class I3WindowSystem: WindowSystem {
    package let name: String
    private let socket: String
    private let sockets: LocalSockets
    /// For i3: the X server its windows are on.
    private let pids: EWMHWindowSystem?

    /// The largest reply read: a tree of a thousand windows is a few MiB.
    package static let replyLimit = 8 << 20

    package init(name: String, socket: String, sockets: LocalSockets, pids: EWMHWindowSystem?) {
        self.name = name
        self.socket = socket
        self.sockets = sockets
        self.pids = pids
    }

    package func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow] {
        let replies = try exchange([(I3IPC.getWorkspaces, ""), (I3IPC.getTree, "")], before: deadline)
        let (focused, found) = try WindowSystemError.asking {
            (try I3Replies.focusedWorkspace(replies[0]), try I3Replies.windows(replies[1]))
        }
        var windows = found
        if let pids {
            let unknown = windows.indices.filter { windows[$0].pid == nil && windows[$0].xWindow != nil }
            let found = try pids.pids(of: unknown.map { windows[$0].xWindow! }, before: deadline)
            for (index, pid) in zip(unknown, found) { windows[index].pid = pid }
        }
        return windows.map { window in
            SessionWindow(
                id: String(window.container), pid: window.pid, onCurrentWorkspace: focused != nil && window.onWorkspace == focused)
        }
    }

    package func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError) {
        // The ID is one this reader made of a number: no other command can ride along.
        guard let container = Int(window.id) else { throw WindowSystemError("no container \(window.id)") }
        let reply = try exchange([(I3IPC.runCommand, "[con_id=\(container)] focus")], before: deadline)[0]
        guard I3Replies.commandSucceeded(reply) else { throw WindowSystemError("would not focus container \(container)") }
    }

    /// Sends every message, then reads a reply to each, in order.
    private func exchange(_ messages: [(UInt32, String)], before deadline: Deadline) throws(WindowSystemError) -> [ArraySlice<UInt8>] {
        try WindowSystemError.asking {
            let connection = try sockets.connect(socket)
            try connection.send(messages.flatMap { I3IPC.message($0.0, $0.1) }, before: deadline)
            var payloads: [ArraySlice<UInt8>] = []
            for (type, _) in messages {
                let reply = try connection.receive(limit: Self.replyLimit, before: deadline) { bytes, _ in I3IPC.replyLength(bytes) }
                guard let payload = I3IPC.payload(reply.reply, type: type) else {
                    throw WindowSystemError(reply.closed ? "closed the connection mid-reply" : "answered what is no reply of its")
                }
                payloads.append(payload)
            }
            return payloads
        }
    }
}
