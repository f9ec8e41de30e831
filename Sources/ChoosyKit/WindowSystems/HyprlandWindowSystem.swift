/// Hyprland, through its request socket `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket.sock`
/// (doc/running.md): one request per connection, answered until Hyprland closes it, as its
/// own hyprctl reads them. `j/activeworkspace` and `j/clients` say where the windows are;
/// `dispatch focuswindow address:A` focuses one by its address (`pid:N` would take any window
/// of the process, maybe one on another workspace).
package struct HyprlandWindowSystem: WindowSystem {
    package let name = "Hyprland"
    let socket: String
    let sockets: LocalSockets

    package func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow] {
        let active = try WindowSystemError.asking {
            try HyprlandReplies.activeWorkspace(try request("j/activeworkspace", before: deadline))
        }
        let clients = try WindowSystemError.asking { try HyprlandReplies.clients(try request("j/clients", before: deadline)) }
        return clients.map { SessionWindow(id: $0.address, pid: $0.pid, onCurrentWorkspace: $0.workspace == active) }
    }

    package func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError) {
        guard HyprlandReplies.isAddress(window.id) else { throw WindowSystemError("no window address \(window.id)") }
        guard HyprlandReplies.dispatched(try request("dispatch focuswindow address:\(window.id)", before: deadline)) else {
            throw WindowSystemError("would not focus window \(window.id)")
        }
    }

    private func request(_ text: String, before deadline: Deadline) throws(WindowSystemError) -> [UInt8] {
        try WindowSystemError.asking {
            let connection = try sockets.connect(socket)
            try connection.send(Array(text.utf8), before: deadline)
            return try connection.receive(limit: I3WindowSystem.replyLimit, before: deadline) { _, _ in nil }.reply
        }
    }
}
