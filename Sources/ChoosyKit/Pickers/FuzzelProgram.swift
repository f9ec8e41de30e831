/// fuzzel's dmenu mode, a Wayland launcher (layer shell: wlroots compositors, KDE), with
/// each app's icon.
package typealias FuzzelPicker = ExternalPicker<FuzzelProgram>

package enum FuzzelProgram: ExternalPickerProgram {
    package static let name = "fuzzel"
    package static let isGraphical = true

    /// The title is the prompt; the list scrolls past its 15 rows.
    package static func argv(_ executable: String, title: String, link: String?) -> [String] {
        [executable, "--dmenu", "--prompt=\(prompt(title: title, link: link)) "]
    }

    /// fuzzel refuses a prompt its locale cannot decode ("invalid prompt").
    package static func adjust(_ variables: inout [String: String]) { decodeAsUTF8(&variables) }

    /// fuzzel reads rofi's per-row icon option and prints the row's text alone.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] {
        lines.inputWithIcons(for: request)
    }
}
