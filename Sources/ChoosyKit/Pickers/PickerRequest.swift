/// What a picker is asked: which app, of these, should handle this one request.
package struct PickerRequest: Equatable {
    package var title: String
    /// The link (or file, or parameter) the choice is for, as shown (`LinkForDisplay`: plain
    /// text, nothing raw), beside the title in each picker's place for a message (SPEC §6.1).
    package var link: String?
    /// In the order they are shown.
    package var candidates: [PickerCandidate]
    /// False for `--no-remember`: only *just once* is offered.
    package var allowAlways: Bool
    /// The host of the web link whose site *always for SITE* names, when there is one: no
    /// shorter than the site, it sizes the picker before the site is found (`PickerSize`).
    package var siteHost: String?
    private let foundSite: FoundSite

    /// `site` is found when first asked, which an external picker does once it has started:
    /// finding it loads the Public Suffix List, while the picker opens its window.
    package init(
        title: String, link: String? = nil, candidates: [PickerCandidate], allowAlways: Bool = true, siteHost: String? = nil,
        site: @escaping @autoclosure () -> String? = nil
    ) {
        self.siteHost = siteHost
        self.title = title
        self.link = link
        self.candidates = candidates
        self.allowAlways = allowAlways
        foundSite = FoundSite(site)
    }

    /// For an http(s) link, when *always* is allowed: the site (its registrable domain) that
    /// a third choice per app, *always for SITE*, writes a site rule for.
    package var site: String? { allowAlways ? foundSite.site : nil }

    package static func == (left: PickerRequest, right: PickerRequest) -> Bool {
        left.title == right.title && left.link == right.link && left.candidates == right.candidates && left.allowAlways == right.allowAlways
            && left.site == right.site
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

/// The site of a request, found once.
private final class FoundSite {
    private let find: () -> String?
    lazy var site: String? = find()

    init(_ find: @escaping () -> String?) {
        self.find = find
    }
}
