/// Turns a `PickerPreference` into a picker that can be shown here and now.
package struct PickerSelector: Sendable {
    private let environment: Environment
    private let terminalAvailable: Bool
    private let runner: ProcessRunner
    private let fileSystem: FileSystem
    private let probe: DisplayProbe
    private let extras: ExternalPickerExtras

    /// `terminalAvailable` says whether `/dev/tty` can be opened (`TTYPicker.isAvailable()`).
    package init(
        environment: Environment, terminalAvailable: Bool, runner: ProcessRunner, fileSystem: FileSystem,
        probe: DisplayProbe, extras: ExternalPickerExtras
    ) {
        self.environment = environment
        self.terminalAvailable = terminalAvailable
        self.runner = runner
        self.fileSystem = fileSystem
        self.probe = probe
        self.extras = extras
    }

    /// The picker to show. `.automatic` without a terminal is the session's graphical
    /// pickers in order (a `PickerSequence`, which answers `.notShown` when none can show
    /// itself); a named graphical picker is a sequence of one; a command that cannot be run
    /// gives way to `.automatic`. A named picker that is not installed, or the tty picker
    /// without a terminal, is an error.
    package func picker(for preference: PickerPreference) throws(ChoosyError) -> any Picker {
        switch preference {
        case .automatic:
            if terminalAvailable { return TTYPicker(environment: environment) }
            let order = GraphicalPicker.automaticOrder(in: environment)
            let steps = order.compactMap { kind in find(kind.program).map { step(kind, executable: $0) } }
            let whenEmpty =
                order.isEmpty
                ? "no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset"
                : "install \(PickerSelector.either(order.map(\.program))) to choose"
            return sequence(steps, whenEmpty: whenEmpty)
        case .tty:
            guard terminalAvailable else {
                throw ChoosyError.noChoice("the tty picker needs a terminal, and \(TTYPicker.device) cannot be opened")
            }
            return TTYPicker(environment: environment)
        case .fzf:
            return FzfPicker(executable: try installed("fzf"), environment: environment, runner: runner)
        case .graphical(let kind):
            let step = step(kind, executable: try installed(kind.program))
            return sequence(step.displays.isEmpty ? [] : [step], whenEmpty: "\(kind.program): \(kind.missingDisplay)")
        case .command(let command):
            return CommandPickerOrAutomatic(
                command: CommandPicker(command: command, environment: environment, runner: runner),
                automatic: { [self] () throws(ChoosyError) in try picker(for: .automatic) }, diagnostics: extras.diagnostics)
        }
    }

    private func step(_ kind: GraphicalPicker, executable: String) -> PickerSequence.Step {
        PickerSequence.Step(
            name: kind.program, picker: kind.picker(executable: executable, environment: environment, runner: runner, extras: extras),
            displays: kind.displays(in: environment)
        )
    }

    private func sequence(_ steps: [PickerSequence.Step], whenEmpty: String) -> PickerSequence {
        PickerSequence(steps: steps, whenEmpty: whenEmpty, environment: environment, probe: probe, diagnostics: extras.diagnostics)
    }

    /// `a, b or c`.
    static func either(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    private func find(_ program: String) -> String? {
        resolveExecutable(program, searchPath: environment.searchPath, fileSystem: fileSystem)
    }

    private func installed(_ program: String) throws(ChoosyError) -> String {
        guard let path = find(program) else {
            throw ChoosyError.noChoice("picker '\(program)' is not installed (not found on PATH)")
        }
        return path
    }
}
