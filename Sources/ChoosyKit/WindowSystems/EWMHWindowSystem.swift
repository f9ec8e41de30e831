/// An X11 window manager, by the EWMH properties it keeps (doc/running.md): the root
/// window's `_NET_CURRENT_DESKTOP` and `_NET_CLIENT_LIST`, each window's `_NET_WM_DESKTOP`
/// (0xFFFFFFFF: on every desktop) and `_NET_WM_PID`; a `_NET_ACTIVE_WINDOW` client message
/// focuses one, as a pager asks (source 2). One connection, made when first asked.
package final class EWMHWindowSystem: WindowSystem {
    package let name = "the X11 window manager"
    private let display: String
    private let server: X11Server
    private var connection: (any X11Connection)?

    /// More windows than a desktop has; a longer client list is read this far.
    private static let windowLimit = 4096
    private static let allDesktops: UInt32 = 0xFFFF_FFFF
    /// `_NET_ACTIVE_WINDOW`'s source indication for a pager, which window managers obey.
    private static let pagerSource: UInt32 = 2

    package init(display: String, server: X11Server) {
        self.display = display
        self.server = server
    }

    package func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow] {
        let connection = try connected(before: deadline)
        let root = try values(["_NET_CURRENT_DESKTOP", "_NET_CLIENT_LIST"], on: [connection.root], before: deadline)[0]
        guard let clients = root[1] else { throw WindowSystemError("keeps no _NET_CLIENT_LIST") }
        let current = root[0]?.first
        let properties = try values(["_NET_WM_DESKTOP", "_NET_WM_PID"], on: clients, before: deadline)
        return zip(clients, properties).map { window, values in
            let desktop = values[0]?.first
            let here = current != nil && (desktop == current || desktop == Self.allDesktops)
            return SessionWindow(id: String(window), pid: Self.pid(values[1]), onCurrentWorkspace: here)
        }
    }

    /// The `_NET_WM_PID` of each window, for a window manager that names X windows (i3).
    package func pids(of windows: [UInt32], before deadline: Deadline) throws(WindowSystemError) -> [Int32?] {
        guard !windows.isEmpty else { return [] }
        try connected(before: deadline)
        return try values(["_NET_WM_PID"], on: windows, before: deadline).map { Self.pid($0[0]) }
    }

    package func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError) {
        guard let id = UInt32(window.id) else { throw WindowSystemError("no X window \(window.id)") }
        let connection = try connected(before: deadline)
        try WindowSystemError.asking {
            try connection.sendToRoot("_NET_ACTIVE_WINDOW", window: id, data: [Self.pagerSource, 0, 0], before: deadline)
        }
    }

    @discardableResult
    private func connected(before deadline: Deadline) throws(WindowSystemError) -> any X11Connection {
        if let connection { return connection }
        let made = try WindowSystemError.asking { try server.connect(display, before: deadline) }
        connection = made
        return made
    }

    private func values(_ properties: [String], on windows: [UInt32], before deadline: Deadline) throws(WindowSystemError) -> [[[UInt32]?]]
    {
        let connection = try connected(before: deadline)
        return try WindowSystemError.asking {
            try connection.values(of: properties, on: windows, limit: Self.windowLimit, before: deadline)
        }
    }

    private static func pid(_ values: [UInt32]?) -> Int32? {
        values?.first.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
    }
}
