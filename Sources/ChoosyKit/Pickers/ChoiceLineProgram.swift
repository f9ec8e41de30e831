/// Runs an external picker: the choice lines (or `input`, for pickers that want extra row
/// data) go to its stdin, the chosen line comes back on its stdout. It draws on the terminal
/// or the display itself, so stderr is inherited, it keeps choosy's process group (to stay
/// in the terminal's foreground) and it gets no timeout: the user takes their time.
struct ChoiceLineProgram: Sendable {
    var argv: [String]
    var environment: Environment
    var runner: ProcessRunner
    /// Where the picker's stderr goes: choosy's own, unless the picker draws there.
    var stderr: ProcessRequest.Output = .inherit

    /// Name of the variable that carries the picker's title (documented for `CMD` pickers).
    static let titleVariable = "CHOOSY_PICKER_TITLE"

    func choose(_ request: PickerRequest, lines: ChoiceLines, input: [UInt8]? = nil) throws(ChoosyError) -> PickerAnswer {
        guard !lines.choices.isEmpty else { return .cancelled }
        var variables = environment.variables
        variables[ChoiceLineProgram.titleVariable] = request.title
        let process = ProcessRequest(
            argv: argv,
            environment: variables,
            input: input ?? lines.input,
            stdout: .capture,
            stderr: stderr
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
