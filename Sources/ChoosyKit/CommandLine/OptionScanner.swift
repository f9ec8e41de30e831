/// The words after a command, one argument or option at a time, as the reader and completion
/// both take them: options anywhere, `--` ends them (a lone `-` is an argument), `--name=value`
/// is split at its `=`, and an option of the command that takes a value and has no `=` takes
/// the next word.
struct OptionScanner {
    enum Word {
        /// Not an option, or any word after `--`.
        case argument(String)
        /// An option as written: its name (before any `=`), the command's option of that name
        /// (nil when it has none), its `=` value, and the next word when the option took it
        /// (nil too when the words ended first).
        case option(name: String, option: CommandGrammar.Option?, inline: String?, following: String?)
    }

    private let command: CommandGrammar.Command
    private let words: [String]
    private var index = 0
    /// Whether `--` was read.
    private(set) var endOfOptions = false

    init(_ words: [String], of command: CommandGrammar.Command) {
        self.words = words
        self.command = command
    }

    mutating func next() -> Word? {
        while index < words.count {
            let word = words[index]
            index += 1
            if endOfOptions || !word.hasPrefix("-") || word == "-" { return .argument(word) }
            if word == "--" {
                endOfOptions = true
                continue
            }
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            let option = command.option(name)
            var following: String?
            if inline == nil, option?.takesValue == true, index < words.count {
                following = words[index]
                index += 1
            }
            return .option(name: name, option: option, inline: inline, following: following)
        }
        return nil
    }
}
