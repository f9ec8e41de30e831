import CSystem

/// Whether a display answers: its socket accepts a connection (doc/desktop.md). A seam, so that the
/// choice of picker is tested for any session and the real check for real.
package protocol DisplayProbe: Sendable {
    func accepts(_ address: SocketAddress) -> Bool
}

extension DisplayProbe {
    package func answers(_ display: DisplayServer, in environment: Environment) -> Bool {
        display.addresses(in: environment).contains(where: accepts)
    }
}

/// Connects, and hangs up at once: the server sees a client that left before its handshake.
package struct SocketDisplayProbe: DisplayProbe {
    package init() {}

    package func accepts(_ address: SocketAddress) -> Bool {
        switch address {
        case .unix(let path): choosy_unix_socket_accepts(path, 0) == 0
        case .abstractUnix(let path): choosy_unix_socket_accepts(path, 1) == 0
        // A remote display (ssh -X) may be slow, not gone: a second is long enough to tell.
        case .tcp(let host, let port): choosy_tcp_socket_accepts(host, Int32(port), 1000) == 0
        }
    }
}
