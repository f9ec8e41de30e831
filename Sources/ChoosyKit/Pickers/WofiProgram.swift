/// wofi's dmenu mode, a GTK launcher for Wayland (layer shell), with each app's icon.
package typealias WofiPicker = ExternalPicker<WofiProgram>

package enum WofiProgram: ExternalPickerProgram {
    package static let name = "wofi"
    package static let isGraphical = true

    /// --insensitive: case-insensitive search; --allow-images: rows may start with an image.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        // wofi's `--lines` counts the search entry as one.
        [
            executable, "--dmenu", "--prompt", prompt(title: title, link: link), "--insensitive", "--allow-images",
            "--lines=\(size.shownRows + 1)",
        ]
    }

    /// wofi shows an image only from a file: `img:<path>:text:<row>`. A `:` in the path would
    /// end it early, so such an icon is left out.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] {
        var input = ""
        for choice in lines.choices {
            if let icon = request.icon(for: choice.answer), let path = iconFile(icon), !path.contains(":") {
                input += "img:\(path):text:"
            }
            input += choice.line + "\n"
        }
        return Array(input.utf8)
    }

    /// wofi prints the row as it was given, image and all.
    package static func choiceLine(_ output: String) -> String {
        guard output.hasPrefix("img:") else { return output }
        let marker = Array(":text:".utf8)
        let bytes = Array(output.utf8)
        guard let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) }) else {
            return output
        }
        return String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
    }
}
