/// zenity's list dialog on the display (GTK: Wayland, else X11): one column of choice lines.
package typealias ZenityPicker = ExternalPicker<ZenityProgram>

package enum ZenityProgram: ExternalPickerProgram {
    package static let name = "zenity"
    package static let isGraphical = true

    /// GLib converts zenity's arguments from the locale's character set, and zenity refuses a
    /// title it cannot convert ("This option is not available") before it shows.
    package static func adjust(_ variables: inout [String: String]) { decodeAsUTF8(&variables) }

    /// zenity's -1, for an option it refuses or a dialog it cannot make; 1 is Cancel or the
    /// window closed.
    package static let errorStatus: Int32? = 255

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
