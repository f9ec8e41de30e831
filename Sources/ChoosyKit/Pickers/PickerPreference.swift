/// The picker the user asked for with `--picker` or `CHOOSY_PICKER`.
package enum PickerPreference: Equatable, Sendable {
    /// The terminal when there is one, else a graphical picker when there is a display.
    case automatic
    case tty
    case fzf
    case rofi
    case zenity
    case fuzzel
    case wofi
    case bemenu
    case tofi
    /// Anything that is not one of the names: a shell command speaking the choice lines.
    case command(String)

    /// `auto` or an empty value is automatic.
    package init(_ text: String) {
        switch text {
        case "", "auto": self = .automatic
        case "tty": self = .tty
        case "fzf": self = .fzf
        case "rofi": self = .rofi
        case "zenity": self = .zenity
        case "fuzzel": self = .fuzzel
        case "wofi": self = .wofi
        case "bemenu": self = .bemenu
        case "tofi": self = .tofi
        default: self = .command(text)
        }
    }

    /// The graphical picker it names, if it names one.
    package var graphical: GraphicalPicker? {
        switch self {
        case .rofi: .rofi
        case .zenity: .zenity
        case .fuzzel: .fuzzel
        case .wofi: .wofi
        case .bemenu: .bemenu
        case .tofi: .tofi
        case .automatic, .tty, .fzf, .command: nil
        }
    }

    /// `--picker` (nil when not given) wins over `CHOOSY_PICKER`; neither means automatic.
    package static func resolve(option: String?, environment: Environment) -> PickerPreference {
        PickerPreference(option ?? environment["CHOOSY_PICKER"] ?? "")
    }
}
