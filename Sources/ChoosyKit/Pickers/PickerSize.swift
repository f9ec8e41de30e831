/// How large a graphical picker's list is made, so that every row shows whole and none hides
/// below the fold (SPEC §6.1: fuzzel cut *always for SITE* to "(al…", zenity showed 5 rows of
/// 15). Known before the picker starts, without the site: a web link's host stands for it, and
/// is never shorter.
package struct PickerSize: Equatable, Sendable {
    /// The choice lines.
    package var rows: Int
    /// The longest choice line, in characters.
    package var columns: Int

    /// No list is made taller than this: more rows scroll.
    package static let mostRows = 20
    /// Nor wider, in characters: a longer line is cut by the picker.
    package static let mostColumns = 100

    package init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    package init(_ request: PickerRequest) {
        let labels = ChoiceLines.labels(of: request.candidates)
        let forSite = request.allowAlways ? request.siteHost.map { ChoiceLines.alwaysForSiteSuffix(singleLine($0)) } : nil
        let suffix = forSite ?? (request.allowAlways ? ChoiceLines.alwaysSuffix : "")
        rows = labels.count * (1 + (request.allowAlways ? 1 : 0) + (forSite == nil ? 0 : 1))
        columns = (labels.map(\.count).max() ?? 0) + suffix.count
    }

    /// The rows a list shows: all of them, up to `mostRows`.
    package var shownRows: Int { min(max(rows, 1), Self.mostRows) }
    /// The width a list needs, in characters, up to `mostColumns`.
    package var shownColumns: Int { min(columns, Self.mostColumns) }
}
