import Glibc

/// fzf on the terminal, below the cursor (it keeps the rest of the screen), the title as its
/// header, rows in the order given.
public typealias FzfPicker = ExternalPicker<FzfProgram>

public enum FzfProgram: ExternalPickerProgram {
    public static func argv(_ executable: String, title: String) -> [String] {
        [executable, "--no-multi", "--no-sort", "--layout=reverse", "--height=~50%", "--prompt=choosy> ", "--header=\(title)"]
    }

    /// fzf draws on its stderr: when choosy's is a file or a pipe (`2>log`), the list must
    /// still reach the terminal.
    public static var stderr: ProcessRequest.Output {
        isatty(2) == 1 ? .inherit : .file(TTYPicker.device)
    }
}
