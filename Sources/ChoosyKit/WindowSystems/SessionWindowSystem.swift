/// The window system of this session, by the variables it sets for its clients (doc/running.md),
/// the first of: sway (`SWAYSOCK`; sway sets `I3SOCK` too), Hyprland
/// (`HYPRLAND_INSTANCE_SIGNATURE`), niri (`NIRI_SOCKET`), i3 (`I3SOCK`), KWin in a KDE Plasma
/// Wayland session (`XDG_CURRENT_DESKTOP` naming KDE; over the session bus, `bus`), then, in an
/// X11 session (no `WAYLAND_DISPLAY`: under Wayland an X window manager sees only Xwayland's
/// windows), the X11 window manager by EWMH, KWin's too.
package enum SessionWindowSystem {
    /// `processID`: choosy's, which names the files and scripts it makes (KWin).
    package static func find(
        in environment: Environment, sockets: LocalSockets, x11: X11Server, bus: @autoclosure () -> MessageBus, fileSystem: FileSystem,
        processID: Int32
    ) -> (any WindowSystem)? {
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
        if environment.value("WAYLAND_DISPLAY") != nil, isKDE(environment), let runtime = absolute(environment.value("XDG_RUNTIME_DIR")) {
            return KWinWindowSystem(bus: bus(), fileSystem: fileSystem, runtimeDirectory: runtime, processID: processID)
        }
        if environment.value("WAYLAND_DISPLAY") == nil, let display {
            return EWMHWindowSystem(display: display, server: x11)
        }
        return nil
    }

    /// Whether the desktop is KDE's, by `XDG_CURRENT_DESKTOP` (a colon-separated list).
    private static func isKDE(_ environment: Environment) -> Bool {
        (environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").contains { $0 == "KDE" }
    }

    private static func absolute(_ path: String?) -> String? {
        path.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    private static func isPathComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
    }
}
