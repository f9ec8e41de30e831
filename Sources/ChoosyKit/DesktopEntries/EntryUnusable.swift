/// Why a desktop entry cannot be launched (doc/spec-choices.md, "Desktop entries").
package enum EntryUnusable: Equatable, Sendable, CustomStringConvertible {
    case notApplication
    case noExec
    /// An `Exec` that does not parse, or holds a field code the spec does not allow.
    case invalidExec(String)
    /// The program `TryExec` names is not an installed executable.
    case tryExec(String)
    /// choosy's own entry: it is never handed a link.
    case choosy

    package var description: String {
        switch self {
        case .notApplication: "Type is not Application"
        case .noExec: "it has no Exec"
        case .invalidExec(let detail): "invalid Exec: \(detail)"
        case .tryExec(let program): "TryExec '\(program)' is not an installed executable"
        case .choosy: "it is choosy itself"
        }
    }
}
