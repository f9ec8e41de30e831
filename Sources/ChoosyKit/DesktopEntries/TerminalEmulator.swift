/// The terminal emulators that draw on one kind of display only (doc/spec-choices.md,
/// "Launching"): the xterm and rxvt families, st, aterm and Eterm have no Wayland client, and foot no
/// X11 one. Started where their display is missing (a Wayland session without XWayland), they
/// fail out of sight, so the launch warns as it does for a graphical app with no display at all.
enum TerminalEmulator {
    /// By the file name of the program that runs, links followed (`x-terminal-emulator`).
    static let x11Only: Set<String> = [
        "xterm", "uxterm", "lxterm", "koi8rxterm", "rxvt", "rxvt-unicode", "urxvt", "urxvtc", "urxvtcd", "rxvt-xpm", "rxvt-xterm",
        "st", "stterm", "aterm", "eterm", "Eterm", "xvt", "mrxvt",
    ]
    static let waylandOnly: Set<String> = ["foot", "footclient"]

    /// Why `program` (as an argv starts it) cannot show itself in `environment`, or nil when it
    /// can or its display needs are not known.
    static func missingDisplay(of program: String, in environment: Environment, fileSystem: FileSystem) -> String? {
        guard var path = resolveExecutable(program, searchPath: environment.searchPath, fileSystem: fileSystem) else { return nil }
        // Alternatives are links to links (/usr/bin/x-terminal-emulator → /etc/alternatives/… → xterm).
        for _ in 0..<8 {
            guard let target = fileSystem.linkTarget(path) else { break }
            path = target.hasPrefix("/") ? target : joinPath(parentDirectory(of: path), target)
        }
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        if x11Only.contains(name), DisplayServer.x11(in: environment) == nil {
            return "\(name) draws on X11 only, and DISPLAY is not set"
        }
        if waylandOnly.contains(name), DisplayServer.wayland(in: environment) == nil {
            return "\(name) draws on Wayland only, and WAYLAND_DISPLAY is not set"
        }
        return nil
    }
}
