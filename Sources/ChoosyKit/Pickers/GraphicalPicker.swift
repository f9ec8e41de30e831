/// The graphical pickers choosy knows (doc/desktop.md): the program each one is, the displays it
/// can draw on, and the order `auto` tries them in per session.
package enum GraphicalPicker: String, CaseIterable, Sendable {
    case rofi, zenity, fuzzel, wofi, bemenu, tofi

    /// The program on PATH.
    package var program: String { rawValue }

    /// The displays it would use in this session, in the order it tries them: Debian's rofi
    /// is X11 only (XWayland on Wayland); fuzzel, wofi and tofi are Wayland only; GTK
    /// (zenity) and bemenu take Wayland when it is there, else X11.
    package func displays(in environment: Environment) -> [DisplayServer] {
        let wayland = DisplayServer.wayland(in: environment)
        let x11 = DisplayServer.x11(in: environment)
        switch self {
        case .rofi: return [x11].compactMap { $0 }
        case .fuzzel, .wofi, .tofi: return [wayland].compactMap { $0 }
        case .zenity, .bemenu: return [wayland, x11].compactMap { $0 }
        }
    }

    /// Why it has no display at all, when `displays` is empty.
    var missingDisplay: String {
        switch self {
        case .rofi: "DISPLAY is not set"
        case .fuzzel, .wofi, .tofi: "WAYLAND_DISPLAY is not set"
        case .zenity, .bemenu: "DISPLAY and WAYLAND_DISPLAY are unset"
        }
    }

    /// What `auto` tries when there is no terminal: on Wayland, GNOME (no layer shell) gets
    /// zenity, every other compositor the layer-shell launchers first; rofi comes last,
    /// through XWayland, when `DISPLAY` is set too; X11 alone gets rofi, then zenity.
    package static func automaticOrder(in environment: Environment) -> [GraphicalPicker] {
        let x11 = DisplayServer.x11(in: environment) != nil
        guard DisplayServer.wayland(in: environment) != nil else { return x11 ? [.rofi, .zenity] : [] }
        let xwayland: [GraphicalPicker] = x11 ? [.rofi] : []
        if environment.currentDesktops.contains("gnome") { return [.zenity] + xwayland }
        return [.fuzzel, .wofi, .bemenu, .tofi, .zenity] + xwayland
    }

    /// The picker, started from `executable`.
    func picker(executable: String, environment: Environment, runner: ProcessRunner, extras: ExternalPickerExtras) -> any Picker {
        switch self {
        case .rofi: RofiPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        case .zenity: ZenityPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        case .fuzzel: FuzzelPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        case .wofi: WofiPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        case .bemenu: BemenuPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        case .tofi: TofiPicker(executable: executable, environment: environment, runner: runner, extras: extras)
        }
    }
}
