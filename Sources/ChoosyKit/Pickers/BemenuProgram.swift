/// bemenu, a dmenu for Wayland (and X11 with its X11 renderer): a list of rows, no icons.
package typealias BemenuPicker = ExternalPicker<BemenuProgram>

package enum BemenuProgram: ExternalPickerProgram {
    package static let name = "bemenu"
    package static let isGraphical = true

    /// --list: rows one below the other (15, then it scrolls); -i: case-insensitive.
    package static func argv(_ executable: String, title: String) -> [String] {
        [executable, "--prompt", title, "--list", "15", "-i"]
    }
}
