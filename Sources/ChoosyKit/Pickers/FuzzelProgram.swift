/// fuzzel's dmenu mode, a Wayland launcher (layer shell: wlroots compositors, KDE), with
/// each app's icon.
package typealias FuzzelPicker = ExternalPicker<FuzzelProgram>

package enum FuzzelProgram: ExternalPickerProgram {
    package static let name = "fuzzel"
    package static let isGraphical = true

    /// The title is the prompt; the list scrolls past its 15 rows.
    package static func argv(_ executable: String, title: String) -> [String] {
        [executable, "--dmenu", "--prompt=\(ChoiceLines.singleLineText(title)) "]
    }

    /// fuzzel decodes its prompt and rows in the locale's character set and refuses a prompt
    /// it cannot decode ("invalid prompt"), which would end it before it shows: under a locale
    /// that is not UTF-8 (`LANG=C`), choosy's UTF-8 text ("…", "—") is given to it as UTF-8.
    package static func adjust(_ variables: inout [String: String]) {
        let characterSet =
            [variables["LC_ALL"], variables["LC_CTYPE"], variables["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lowered = characterSet.lowercased()
        guard !lowered.contains("utf-8") && !lowered.contains("utf8") else { return }
        variables["LC_ALL"] = nil
        variables["LC_CTYPE"] = "C.UTF-8"
    }

    /// fuzzel reads rofi's per-row icon option and prints the row's text alone.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] {
        lines.inputWithIcons(for: request)
    }
}
