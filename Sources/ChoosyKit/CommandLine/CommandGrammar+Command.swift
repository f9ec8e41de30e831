extension CommandGrammar {
    /// One command: what it is called, the words it takes and the options it takes. A class:
    /// passing one around costs a reference count, where a struct of this size costs copies
    /// of every field and, at the first copy, building its type's metadata.
    package final class Command: Sendable {
        package let name: String
        /// One line, for the overview of `choosy help` and for completion.
        package let summary: String
        package let arguments: [Argument]
        /// The options only this command takes (the alternative aside).
        package let ownOptions: [Option]
        /// Options it has in common with other commands.
        package let shared: OptionGroup?
        /// An option written instead of the arguments: `reset TYPE | --all`.
        package let alternative: Option?
        /// Its synopsis also shows `CommandGrammar.insteadOfCommand` (`help [COMMAND] | --help | --version`).
        package let showsOptionsInsteadOfCommand: Bool
        /// The usage error for arguments that do not fit `arguments` (none when any fit).
        package let misuse: String
        /// The usage error for arguments given together with `alternative`.
        package let conflict: String?
        /// What `choosy help NAME` says below the synopsis.
        package let help: String
        /// Not offered, listed or documented (`__complete`); the words after it are its own,
        /// none of them an option.
        package let hidden: Bool

        init(
            _ name: String, _ summary: String, arguments: [Argument] = [], options: [Option] = [], shared: OptionGroup? = nil,
            alternative: Option? = nil, insteadOfCommand: Bool = false, misuse: String = "", conflict: String? = nil, help: String,
            hidden: Bool = false
        ) {
            self.name = name
            self.summary = summary
            self.arguments = arguments
            self.ownOptions = options
            self.shared = shared
            self.alternative = alternative
            self.showsOptionsInsteadOfCommand = insteadOfCommand
            self.misuse = misuse
            self.conflict = conflict
            self.help = help
            self.hidden = hidden
        }

        static func hidden(_ name: String) -> Command { Command(name, "", help: "", hidden: true) }

        /// A command of one link and the options of `open` (`handle`, `route`).
        /// `argument` names the one argument, and `wanted` says what it is in an error.
        static func opening(
            _ name: String, _ summary: String, argument: String = "URL", wanted: String = "URL", options: [Option] = [], help: String
        ) -> Command {
            Command(
                name, summary, arguments: [.one(argument, .url)], options: options, shared: CommandGrammar.openOptions,
                misuse: "\(name) needs one \(wanted)",
                help: help
            )
        }

        /// Every option it takes, in the order completion offers them. (Put together when asked:
        /// the table is built on every run, and most runs look at one command.)
        package var options: [Option] {
            guard !hidden else { return [] }
            return CommandGrammar.everyCommand + (shared?.options ?? []) + ownOptions + (alternative.map { [$0] } ?? [])
        }

        /// The option written `word` (`--app`, `-v`), if the command takes it.
        package func option(_ word: String) -> Option? {
            // `options` without putting the list together: this runs for every option given.
            CommandGrammar.everyCommand.first { $0.isWritten(word) } ?? shared?.options.first { $0.isWritten(word) }
                ?? ownOptions.first { $0.isWritten(word) } ?? alternative.flatMap { $0.isWritten(word) ? $0 : nil }
        }

        /// The argument that the word at `index` among the arguments given stands for.
        package func argument(at index: Int) -> Argument? {
            if index < arguments.count { return arguments[index] }
            return arguments.last.flatMap { $0.count == .any ? $0 : nil }
        }

        /// Whether `words` fit `arguments`: how many, and one of the choices where there are some.
        func fits(_ words: [String]) -> Bool {
            let least = arguments.filter { $0.count == .one }.count
            let most = arguments.contains { $0.count == .any } ? Int.max : arguments.count
            guard (least...most).contains(words.count) else { return false }
            return words.indices.allSatisfy { index in
                argument(at: index)?.kind.choices?.contains(words[index]) ?? true
            }
        }
    }

    /// A word after the command that is not an option: `TYPE`, `[ACTION]`, `[KEY=VALUE…]`.
    package struct Argument: Sendable {
        package enum Count: Sendable { case one, optional, any }

        /// What help and the man page call it; the words themselves for a closed set (`bash|zsh|fish`).
        package var name: String {
            ownName ?? (kind.choices ?? []).joined(separator: "|")
        }
        package let kind: ValueKind
        package let count: Count
        private let ownName: String?

        static func one(_ name: String, _ kind: ValueKind) -> Argument { Argument(kind: kind, count: .one, ownName: name) }
        static func optional(_ name: String, _ kind: ValueKind) -> Argument { Argument(kind: kind, count: .optional, ownName: name) }
        static func any(_ name: String, _ kind: ValueKind) -> Argument { Argument(kind: kind, count: .any, ownName: name) }

        /// One of a closed set of words.
        static func one(of kind: ValueKind) -> Argument { Argument(kind: kind, count: .one, ownName: nil) }
    }
}
