/// zenity's list dialog on the display: one column of choice lines.
public struct ZenityPicker: Picker {
    /// The zenity found on PATH.
    public let executable: String
    private let environment: Environment
    private let runner: ProcessRunner

    public init(executable: String, environment: Environment, runner: ProcessRunner = PosixProcessRunner()) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    public func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        // With no rows on the command line zenity reads them from stdin, one per line.
        let argv = [
            executable, "--list", "--title=\(request.title)", "--text=\(pangoEscaped(request.title))",
            "--column=App", "--hide-header",
        ]
        let program = ChoiceLineProgram(argv: argv, environment: environment, runner: runner)
        return try program.choose(request, lines: ChoiceLines(request))
    }

    /// zenity shows `--text` as Pango markup; a title is plain text.
    private func pangoEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
