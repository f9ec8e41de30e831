/// rofi's dmenu mode on the display, with each app's icon from its desktop entry.
public struct RofiPicker: Picker {
    /// The rofi found on PATH.
    public let executable: String
    private let environment: Environment
    private let runner: ProcessRunner

    public init(executable: String, environment: Environment, runner: ProcessRunner = PosixProcessRunner()) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    public func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let lines = ChoiceLines(request)
        // rofi reads per-row options after a NUL: `\0icon\x1f<name or path>`. It prints the
        // row's text alone, so the answer maps back like any other picker's.
        var input = ""
        for choice in lines.choices {
            input += choice.line
            if let icon = icon(for: choice.answer, in: request) { input += "\0icon\u{1F}\(icon)" }
            input += "\n"
        }
        // -no-custom: typed text that matches no row is not an answer; -i: case-insensitive.
        let argv = [executable, "-dmenu", "-p", request.title, "-i", "-no-custom", "-show-icons"]
        let program = ChoiceLineProgram(argv: argv, environment: environment, runner: runner)
        return try program.choose(request, lines: lines, input: Array(input.utf8))
    }

    private func icon(for answer: PickerAnswer, in request: PickerRequest) -> String? {
        switch answer {
        case .justOnce(let index), .always(let index):
            guard let icon = request.candidates[index].icon, !icon.isEmpty,
                  !icon.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return nil }
            return icon
        case .cancelled:
            return nil
        }
    }
}
