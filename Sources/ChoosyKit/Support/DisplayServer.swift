/// A display a session names (doc/desktop.md): Wayland by `WAYLAND_DISPLAY`, X11 by `DISPLAY`, with
/// the sockets its clients connect to, so that choosy can tell whether it answers before it
/// starts a picker there.
package enum DisplayServer: Equatable, Sendable {
    case wayland(String)
    case x11(String)

    package static func wayland(in environment: Environment) -> DisplayServer? {
        environment.value("WAYLAND_DISPLAY").map(DisplayServer.wayland)
    }

    package static func x11(in environment: Environment) -> DisplayServer? {
        environment.value("DISPLAY").map(DisplayServer.x11)
    }

    /// `WAYLAND_DISPLAY=wayland-0`, as the user would look it up.
    package var description: String {
        switch self {
        case .wayland(let name): "WAYLAND_DISPLAY=\(name)"
        case .x11(let name): "DISPLAY=\(name)"
        }
    }

    /// Where a client connects, in the order libwayland and Xlib try: a Wayland name is a
    /// socket in `XDG_RUNTIME_DIR` (or an absolute path); an X11 `:N` is the abstract socket
    /// `/tmp/.X11-unix/XN`, then that file; `host:N` is TCP port 6000 + N.
    package func addresses(in environment: Environment) -> [SocketAddress] {
        switch self {
        case .wayland(let name):
            if name.hasPrefix("/") { return [.unix(name)] }
            guard let runtime = environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return [] }
            return [.unix(joinPath(runtime, name))]
        case .x11(let name):
            guard let colon = name.lastIndex(of: ":") else { return [] }
            var host = String(name[..<colon])
            if host.hasSuffix("/unix") { host.removeLast("/unix".count) }
            let number = name[name.index(after: colon)...].prefix { $0 != "." }
            guard !number.isEmpty, number.allSatisfy(\.isASCII), let display = Int(number), display < 10_000 else { return [] }
            if host.isEmpty || host == "unix" {
                let path = "/tmp/.X11-unix/X\(display)"
                return [.abstractUnix(path), .unix(path)]
            }
            return [.tcp(host: host, port: 6000 + display)]
        }
    }
}

package enum SocketAddress: Equatable, Sendable {
    case unix(String)
    /// Linux's abstract namespace: no file, the name alone.
    case abstractUnix(String)
    case tcp(host: String, port: Int)
}
