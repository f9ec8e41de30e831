/// A key press on the terminal, as the tty picker understands it.
enum TTYKey: Equatable, Sendable {
    /// A printable ASCII character.
    case text(Character)
    case enter
    case backspace
    case up
    case down
    case escape
    /// Ctrl-C (signal keys are off while the picker reads).
    case interrupt
    /// Ctrl-D, end of file or a terminal that went away.
    case endOfInput
    /// Anything else: function keys, Alt combinations, non-ASCII bytes.
    case ignored
}
