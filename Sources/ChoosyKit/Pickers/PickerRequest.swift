/// What a picker is asked: which app, of these, should handle this one request.
package struct PickerRequest: Equatable, Sendable {
    package var title: String
    /// In the order they are shown.
    package var candidates: [PickerCandidate]
    /// False for `--no-remember`: only *just once* is offered.
    package var allowAlways: Bool
    /// For an http(s) link, when *always* is allowed: the site (its registrable domain) that
    /// a third choice per app, *always for SITE*, writes a site rule for.
    package var site: String?

    package init(title: String, candidates: [PickerCandidate], allowAlways: Bool = true, site: String? = nil) {
        self.title = title
        self.candidates = candidates
        self.allowAlways = allowAlways
        self.site = allowAlways ? site : nil
    }

    /// The icon of the candidate an answer stands for, when it is one a picker can be handed
    /// on its line (no control characters).
    package func icon(for answer: PickerAnswer) -> String? {
        switch answer {
        case .justOnce(let index), .always(let index), .alwaysForSite(let index):
            guard let icon = candidates[index].icon, !icon.isEmpty,
                !icon.unicodeScalars.contains(where: { $0.value < 0x20 })
            else { return nil }
            return icon
        case .cancelled, .notShown:
            return nil
        }
    }
}
