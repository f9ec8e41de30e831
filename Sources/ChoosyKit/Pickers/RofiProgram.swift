/// rofi's dmenu mode on the display (X11; through XWayland on Wayland), with each app's icon
/// from its desktop entry.
package typealias RofiPicker = ExternalPicker<RofiProgram>

package enum RofiProgram: ExternalPickerProgram {
    package static let name = "rofi"
    package static let isGraphical = true

    /// -no-custom: typed text that matches no row is not an answer; -i: case-insensitive;
    /// -no-markup and -no-markup-rows: the prompt and the rows are plain text even when the
    /// user's rofi configuration turns Pango markup on; `-mesg`, the link, is always markup,
    /// so it is given escaped.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        [executable, "-dmenu", "-p", title, "-i", "-no-custom", "-show-icons", "-no-markup", "-no-markup-rows", "-l", "\(size.shownRows)"]
            + (link.map { ["-mesg", DisplayText.pangoMarkup($0)] } ?? [])
    }

    /// rofi prints the row's text alone, so the answer maps back like any other picker's.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] {
        lines.inputWithIcons(for: request)
    }
}
