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
    /// zenity shows `--text` as Pango markup, the window title and the rows as plain text. Its
    /// window is sized in pixels for the rows (about 23 each with GTK's default theme, 28 with
    /// room for larger fonts, and 150 for the text and buttons): by itself it shows five.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        let text = DisplayText.pangoMarkup(title) + (link.map { "\n" + DisplayText.pangoMarkup($0) } ?? "")
        return [
            executable, "--list", "--title=\(title)", "--text=\(text)", "--column=App", "--hide-header",
            "--width=\(min(max(size.shownColumns * 9 + 120, 420), 1100))", "--height=\(min(150 + size.shownRows * 28, 900))",
        ]
    }
}
