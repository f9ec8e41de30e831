/// `--picker CMD`: any shell command that reads the choice lines on stdin and prints the
/// chosen one (`fzf`, `dmenu`, `wofi --dmenu`, a script). It finds the title in the
/// environment variable `CHOOSY_PICKER_TITLE`.
package typealias CommandPicker = ExternalPicker<ShellCommandProgram>

package enum ShellCommandProgram: ExternalPickerProgram {
    package static let name = "the picker command"
    /// The shell's own statuses for a command it cannot run: 127 not found (a misspelled or
    /// missing program), 126 found but not executable.
    package static let notRunStatuses: Set<Int32> = [126, 127]

    /// The command, run by `sh -c`.
    package static func argv(_ command: String, title: String, link: String?, size: PickerSize) -> [String] {
        ["/bin/sh", "-c", command]
    }
}

extension ExternalPicker where Program == ShellCommandProgram {
    package init(command: String, environment: Environment, runner: ProcessRunner) {
        self.init(executable: command, environment: environment, runner: runner)
    }

    package var command: String { executable }
}
