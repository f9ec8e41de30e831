import Glibc

/// fzf on the terminal, below the cursor (it keeps the rest of the screen), the title as its
/// header, rows in the order given.
package typealias FzfPicker = ExternalPicker<FzfProgram>

package enum FzfProgram: ExternalPickerProgram {
    package static let name = "fzf"

    /// The link goes on the header's second line.
    package static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String] {
        [
            executable, "--no-multi", "--no-sort", "--layout=reverse", "--height=~50%", "--prompt=choosy> ",
            "--header=\(title)" + (link.map { "\n" + $0 } ?? ""),
        ]
    }

    /// fzf draws on its stderr: when choosy's is a file or a pipe (`2>log`), the list must
    /// still reach the terminal.
    package static var stderr: ProcessRequest.Output {
        isatty(2) == 1 ? .inherit : .file(TTYPicker.device)
    }
}
