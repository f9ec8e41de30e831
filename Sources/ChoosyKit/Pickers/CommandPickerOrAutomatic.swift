/// `--picker CMD` (doc/desktop.md): a command the shell cannot run (its status 126 or 127: a
/// misspelled or missing program, `rofy`, `dmenu -i` without dmenu) could not show itself,
/// which is no cancel: one line names it and `auto`'s picker is asked instead (the terminal,
/// else the session's graphical pickers), which answers `.notShown` in turn when none can
/// show itself, for the no-picker path.
struct CommandPickerOrAutomatic: Picker {
    let command: CommandPicker
    /// `auto`'s picker, made only when the command could not run.
    let automatic: @Sendable () throws(ChoosyError) -> any Picker
    let diagnostics: DiagnosticSink?

    func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let answer = try command.choose(request)
        guard case .notShown(let reason) = answer else { return answer }
        diagnostics?.warning("\(reason); trying the automatic picker")
        return try automatic().choose(request)
    }
}
