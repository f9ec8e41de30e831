/// Graphical pickers tried in order (doc/desktop.md). One that cannot show itself is not a cancel:
/// before each starts, the display it would use must answer (its socket accepts a
/// connection), and one that fails with its display's own error counts the same; the next
/// is tried. When none is left, the answer is `.notShown`, with why.
package struct PickerSequence: Picker {
    package struct Step: Sendable {
        package var name: String
        package var picker: any Picker
        /// Where it would draw, in the order it tries them; one must answer.
        package var displays: [DisplayServer]
    }

    package let steps: [Step]
    /// Why no picker is left when there was none to try (no display, none installed).
    let whenEmpty: String
    private let environment: Environment
    private let probe: DisplayProbe
    private let diagnostics: DiagnosticSink?

    init(steps: [Step], whenEmpty: String, environment: Environment, probe: DisplayProbe, diagnostics: DiagnosticSink?) {
        self.steps = steps
        self.whenEmpty = whenEmpty
        self.environment = environment
        self.probe = probe
        self.diagnostics = diagnostics
    }

    package func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        var failures: [String] = []
        for step in steps {
            let failure: String
            if let display = step.displays.first(where: { probe.answers($0, in: environment) }) {
                diagnostics?.explain("starting \(step.name) on \(display.description)")
                let answer = try step.picker.choose(request)
                guard case .notShown(let reason) = answer else { return answer }
                failure = reason
            } else {
                failure = "\(step.name): \(step.displays.map(\.description).joined(separator: " and ")) does not answer"
            }
            diagnostics?.explain("\(failure); trying the next picker")
            failures.append(failure)
        }
        return .notShown(steps.isEmpty ? whenEmpty : failures.joined(separator: "; "))
    }
}
