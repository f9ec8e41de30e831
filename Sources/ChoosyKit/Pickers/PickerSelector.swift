/// Turns a `PickerPreference` into a picker that can be shown here and now.
package struct PickerSelector: Sendable {
    private let environment: Environment
    private let runner: ProcessRunner
    private let fileSystem: FileSystem
    private let terminalAvailable: Bool

    /// `terminalAvailable` says whether `/dev/tty` can be opened (`TTYPicker.isAvailable()`).
    package init(
        environment: Environment, terminalAvailable: Bool = TTYPicker.isAvailable(),
        runner: ProcessRunner = PosixProcessRunner(), fileSystem: FileSystem = LocalFileSystem()
    ) {
        self.environment = environment
        self.terminalAvailable = terminalAvailable
        self.runner = runner
        self.fileSystem = fileSystem
    }

    /// The picker to show, or nil when `.automatic` finds none (the caller then fails with
    /// `ChoosyError.noPickerAvailable`). A named picker that cannot be shown is an error.
    package func picker(for preference: PickerPreference) throws(ChoosyError) -> (any Picker)? {
        switch preference {
        case .automatic:
            if terminalAvailable { return TTYPicker(environment: environment) }
            guard hasDisplay else { return nil }
            if let rofi = find("rofi") { return RofiPicker(executable: rofi, environment: environment, runner: runner) }
            if let zenity = find("zenity") { return ZenityPicker(executable: zenity, environment: environment, runner: runner) }
            return nil
        case .tty:
            guard terminalAvailable else {
                throw ChoosyError.noChoice("the tty picker needs a terminal, and \(TTYPicker.device) cannot be opened")
            }
            return TTYPicker(environment: environment)
        case .fzf:
            return FzfPicker(executable: try installed("fzf"), environment: environment, runner: runner)
        case .rofi:
            return RofiPicker(executable: try installed("rofi"), environment: environment, runner: runner)
        case .zenity:
            return ZenityPicker(executable: try installed("zenity"), environment: environment, runner: runner)
        case .command(let command):
            return CommandPicker(command: command, environment: environment, runner: runner)
        }
    }

    /// X11 or Wayland: where rofi and zenity can draw.
    private var hasDisplay: Bool {
        environment.value("DISPLAY") != nil || environment.value("WAYLAND_DISPLAY") != nil
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
