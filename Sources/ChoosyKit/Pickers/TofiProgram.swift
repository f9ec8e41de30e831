/// tofi, a dmenu for Wayland (layer shell): a list of rows, no icons.
package typealias TofiPicker = ExternalPicker<TofiProgram>

package enum TofiProgram: ExternalPickerProgram {
    package static let name = "tofi"
    package static let isGraphical = true

    /// tofi requires a match by default: typed text is never an answer.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        [executable, "--prompt-text=\(prompt(title: title, link: link)): "]
    }
}
