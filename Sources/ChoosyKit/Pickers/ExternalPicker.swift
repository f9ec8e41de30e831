/// A picker that is another program (fzf, rofi, zenity, a command): the choice lines (or the
/// program's own rows) go to its stdin, and the line it prints on stdout is the choice (see
/// `ChoiceLines`). `Program` says how to start it and what it reads. It draws on the terminal
/// or the display itself, so it keeps choosy's process group (to stay in the terminal's
/// foreground) and gets no timeout: the user takes their time.
package struct ExternalPicker<Program: ExternalPickerProgram>: Picker {
    /// The program found on PATH; for a command picker, the shell command.
    package let executable: String
    private let environment: Environment
    private let runner: ProcessRunner

    /// Name of the variable that carries the picker's title (documented for command pickers).
    static var titleVariable: String { "CHOOSY_PICKER_TITLE" }

    package init(executable: String, environment: Environment, runner: ProcessRunner = PosixProcessRunner()) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    package func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let lines = ChoiceLines(request)
        guard !lines.choices.isEmpty else { return .cancelled }
        var variables = environment.variables
        variables[Self.titleVariable] = request.title
        let process = ProcessRequest(
            argv: Program.argv(executable, title: request.title),
            environment: variables,
            input: Program.input(lines, for: request),
            stdout: .capture,
            stderr: Program.stderr
        )
        let result: ProcessResult
        do {
            result = try runner.run(process)
        } catch {
            throw ChoosyError.noChoice("cannot start the picker: \(error.description)")
        }
        return lines.answer(output: result.stdout, status: result.status)
    }
}

/// How one external picker is started and what it reads; its answer is always a choice line.
package protocol ExternalPickerProgram: Sendable {
    static func argv(_ executable: String, title: String) -> [String]
    /// What the picker reads on stdin: by default the choice lines.
    static func input(_ lines: ChoiceLines, for request: PickerRequest) -> [UInt8]
    /// Where its stderr goes: by default choosy's own.
    static var stderr: ProcessRequest.Output { get }
}

extension ExternalPickerProgram {
    package static func input(_ lines: ChoiceLines, for request: PickerRequest) -> [UInt8] { lines.input }
    package static var stderr: ProcessRequest.Output { .inherit }
}
