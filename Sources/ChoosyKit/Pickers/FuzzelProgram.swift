/// fuzzel's dmenu mode, a Wayland launcher (layer shell: wlroots compositors, KDE), with
/// each app's icon.
package typealias FuzzelPicker = ExternalPicker<FuzzelProgram>

package enum FuzzelProgram: ExternalPickerProgram {
    package static let name = "fuzzel"
    package static let isGraphical = true

    /// The title (and link) is the prompt. The list is as tall as its rows and as wide as the
    /// longest (in characters, with room for the icon) or the prompt, within
    /// `PickerSize.mostColumns`; fuzzel's own 15 rows of 30 cut `(always for SITE)` to "(al…".
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        let prompt = prompt(title: title, link: link)
        let width = max(size.shownColumns + 6, min(prompt.count + 2, PickerSize.mostColumns), 30)
        return [executable, "--dmenu", "--prompt=\(prompt) ", "--lines=\(size.shownRows)", "--width=\(width)"]
    }

    /// fuzzel refuses a prompt its locale cannot decode ("invalid prompt").
    package static func adjust(_ variables: inout [String: String]) { decodeAsUTF8(&variables) }

    /// fuzzel reads rofi's per-row icon option and prints the row's text alone.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] {
        lines.inputWithIcons(for: request)
    }
}
