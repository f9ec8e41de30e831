/// What a picker is asked: which app, of these, should handle this one request.
public struct PickerRequest: Equatable, Sendable {
    public var title: String
    /// In the order they are shown.
    public var candidates: [PickerCandidate]
    /// False for `--no-remember`: only *just once* is offered.
    public var allowAlways: Bool

    public init(title: String, candidates: [PickerCandidate], allowAlways: Bool = true) {
        self.title = title
        self.candidates = candidates
        self.allowAlways = allowAlways
    }
}
