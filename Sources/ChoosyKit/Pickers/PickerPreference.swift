/// The picker the user asked for with `--picker` or `CHOOSY_PICKER`.
package enum PickerPreference: Equatable, Sendable {
    /// The terminal when there is one, else a graphical picker when there is a display.
    case automatic
    case tty
    case fzf
    case graphical(GraphicalPicker)
    /// Anything that is not one of the names: a shell command speaking the choice lines.
    case command(String)

    /// Every picker choosy knows by name, in the order help, completion and the docs list them
    /// (`auto`'s order per session is `GraphicalPicker.automaticOrder`). Strings, not
    /// preferences: the grammar reads them for `--picker`'s help on every command, and an array
    /// of a new type would cost its metadata there.
    package static let names = ["auto", "tty", "fzf"] + GraphicalPicker.allCases.map(\.program)

    /// A name of `names`; an empty value is automatic, anything else a command.
    package init(_ text: String) {
        switch text {
        case "", "auto": self = .automatic
        case "tty": self = .tty
        case "fzf": self = .fzf
        default: self = GraphicalPicker(rawValue: text).map { .graphical($0) } ?? .command(text)
        }
    }

    /// `--picker` (nil when not given) wins over `CHOOSY_PICKER`; neither means automatic.
    package static func resolve(option: String?, environment: Environment) -> PickerPreference {
        PickerPreference(option ?? environment["CHOOSY_PICKER"] ?? "")
    }
}
