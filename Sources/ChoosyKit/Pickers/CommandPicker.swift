/// `--picker CMD`: any shell command that reads the choice lines on stdin and prints the
/// chosen one (`fzf`, `dmenu`, `wofi --dmenu`, a script). It finds the title in the
/// environment variable `CHOOSY_PICKER_TITLE`.
public struct CommandPicker: Picker {
    public let command: String
    private let environment: Environment
    private let runner: ProcessRunner

    public init(command: String, environment: Environment, runner: ProcessRunner = PosixProcessRunner()) {
        self.command = command
        self.environment = environment
        self.runner = runner
    }

    public func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let program = ChoiceLineProgram(argv: ["/bin/sh", "-c", command], environment: environment, runner: runner)
        return try program.choose(request, lines: ChoiceLines(request))
    }
}
