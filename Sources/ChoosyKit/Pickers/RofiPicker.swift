/// rofi's dmenu mode on the display, with each app's icon from its desktop entry.
package typealias RofiPicker = ExternalPicker<RofiProgram>

package enum RofiProgram: ExternalPickerProgram {
    /// -no-custom: typed text that matches no row is not an answer; -i: case-insensitive.
    package static func argv(_ executable: String, title: String) -> [String] {
        [executable, "-dmenu", "-p", title, "-i", "-no-custom", "-show-icons"]
    }

    /// rofi reads per-row options after a NUL: `\0icon\x1f<name or path>`. It prints the row's
    /// text alone, so the answer maps back like any other picker's.
    package static func input(_ lines: ChoiceLines, for request: PickerRequest) -> [UInt8] {
        var input = ""
        for choice in lines.choices {
            input += choice.line
            if let icon = icon(for: choice.answer, in: request) { input += "\0icon\u{1F}\(icon)" }
            input += "\n"
        }
        return Array(input.utf8)
    }

    private static func icon(for answer: PickerAnswer, in request: PickerRequest) -> String? {
        switch answer {
        case .justOnce(let index), .always(let index), .alwaysForSite(let index):
            guard let icon = request.candidates[index].icon, !icon.isEmpty,
                  !icon.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return nil }
            return icon
        case .cancelled:
            return nil
        }
    }
}
