/// What a picker is asked: which app, of these, should handle this one request.
package struct PickerRequest: Equatable, Sendable {
    package var title: String
    /// In the order they are shown.
    package var candidates: [PickerCandidate]
    /// False for `--no-remember`: only *just once* is offered.
    package var allowAlways: Bool

    package init(title: String, candidates: [PickerCandidate], allowAlways: Bool = true) {
        self.title = title
        self.candidates = candidates
        self.allowAlways = allowAlways
    }
}
