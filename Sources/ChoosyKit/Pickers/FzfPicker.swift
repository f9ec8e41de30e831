import Glibc

/// fzf on the terminal, below the cursor (it keeps the rest of the screen), the title as its
/// header, rows in the order given.
public struct FzfPicker: Picker {
    /// The fzf found on PATH.
    public let executable: String
    private let environment: Environment
    private let runner: ProcessRunner

    public init(executable: String, environment: Environment, runner: ProcessRunner = PosixProcessRunner()) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    public func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let argv = [
            executable, "--no-multi", "--no-sort", "--layout=reverse", "--height=~50%",
            "--prompt=choosy> ", "--header=\(request.title)",
        ]
        var program = ChoiceLineProgram(argv: argv, environment: environment, runner: runner)
        // fzf draws on its stderr: when choosy's is a file or a pipe (`2>log`), the list must
        // still reach the terminal.
        if isatty(2) != 1 { program.stderr = .file(TTYPicker.device) }
        return try program.choose(request, lines: ChoiceLines(request))
    }
}
