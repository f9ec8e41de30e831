/// The window system of this session, by the variables it sets for its clients (doc/running.md),
/// the first of: sway (`SWAYSOCK`; sway sets `I3SOCK` too), Hyprland
/// (`HYPRLAND_INSTANCE_SIGNATURE`), niri (`NIRI_SOCKET`), i3 (`I3SOCK`), then, in an X11
/// session (no `WAYLAND_DISPLAY`: under Wayland an X window manager sees only Xwayland's
/// windows), the X11 window manager by EWMH.
package enum SessionWindowSystem {
    package static func find(in environment: Environment, sockets: LocalSockets, x11: X11Server) -> (any WindowSystem)? {
        let display = environment.value("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        if let socket = absolute(environment.value("SWAYSOCK")) {
            return I3WindowSystem(name: "sway", socket: socket, sockets: sockets, pids: nil)
        }
        if let signature = environment.value("HYPRLAND_INSTANCE_SIGNATURE"), isPathComponent(signature),
            let runtime = absolute(environment.value("XDG_RUNTIME_DIR"))
        {
            return HyprlandWindowSystem(socket: joinPath(runtime, "hypr", signature, ".socket.sock"), sockets: sockets)
        }
        if let socket = absolute(environment.value("NIRI_SOCKET")) {
            return NiriWindowSystem(socket: socket, sockets: sockets)
        }
        if let socket = absolute(environment.value("I3SOCK")) {
            return I3WindowSystem(
                name: "i3", socket: socket, sockets: sockets, pids: display.map { EWMHWindowSystem(display: $0, server: x11) })
        }
        if environment.value("WAYLAND_DISPLAY") == nil, let display {
            return EWMHWindowSystem(display: display, server: x11)
        }
        return nil
    }

    private static func absolute(_ path: String?) -> String? {
        path.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    private static func isPathComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
    }
}
