/// zenity's list dialog on the display (GTK: Wayland, else X11): one column of choice lines.
package typealias ZenityPicker = ExternalPicker<ZenityProgram>

package enum ZenityProgram: ExternalPickerProgram {
    package static let name = "zenity"
    package static let isGraphical = true

    /// With no rows on the command line zenity reads them from stdin, one per line.
    package static func argv(_ executable: String, title: String) -> [String] {
        [executable, "--list", "--title=\(title)", "--text=\(pangoEscaped(title))", "--column=App", "--hide-header"]
    }

    /// zenity shows `--text` as Pango markup; a title is plain text.
    private static func pangoEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
