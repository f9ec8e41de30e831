/// bemenu, a dmenu for Wayland (and X11 with its X11 renderer): a list of rows, no icons.
package typealias BemenuPicker = ExternalPicker<BemenuProgram>

package enum BemenuProgram: ExternalPickerProgram {
    package static let name = "bemenu"
    package static let isGraphical = true

    /// --list: rows one below the other (15, then it scrolls); -i: case-insensitive.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        [executable, "--prompt", prompt(title: title, link: link), "--list", "\(size.shownRows)", "-i"]
    }
}
