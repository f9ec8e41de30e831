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
    /// (`auto`'s order per session is `GraphicalPicker.automaticOrder`).
    package static let named: [PickerPreference] = [.automatic, .tty, .fzf] + GraphicalPicker.allCases.map { .graphical($0) }

    /// The names of `named`: what `--picker` completes to.
    package static var names: [String] { named.compactMap(\.name) }

    /// What `--picker` calls it; nil for a command.
    package var name: String? {
        switch self {
        case .automatic: "auto"
        case .tty: "tty"
        case .fzf: "fzf"
        case .graphical(let picker): picker.program
        case .command: nil
        }
    }

    /// A name of `named`; an empty value is automatic, anything else a command.
    package init(_ text: String) {
        self = text.isEmpty ? .automatic : PickerPreference.named.first { $0.name == text } ?? .command(text)
    }

    /// `--picker` (nil when not given) wins over `CHOOSY_PICKER`; neither means automatic.
    package static func resolve(option: String?, environment: Environment) -> PickerPreference {
        PickerPreference(option ?? environment["CHOOSY_PICKER"] ?? "")
    }
}
