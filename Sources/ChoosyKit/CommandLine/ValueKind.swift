extension CommandGrammar {
    /// What a word on the command line stands for: completion offers candidates by it, and the
    /// parser refuses a word outside a closed set.
    package enum ValueKind: Sendable, Equatable {
        /// An app type's key or name, any case.
        case appType
        /// An action of the app type given before it.
        case action
        /// `KEY=VALUE`: a parameter of the action.
        case parameter
        /// An app of the app type given before it.
        case appKey
        case url
        /// One of the commands.
        case command
        /// A shell `choosy completions` has a script for.
        case shell
        /// A named picker, or a command.
        case picker
        /// Anything: a title, a shell command.
        case text
        /// What `rule` does: add, list, remove, test.
        case ruleCommand
        /// A rule's SITE (or, for `rule test`, a URL).
        case site
        /// A rule's app: a browser, or an app of a type with links.
        case ruleApp

        /// The only words allowed, for a kind that is a closed set.
        package var choices: [String]? {
            switch self {
            case .shell: CommandGrammar.shells
            case .ruleCommand: CommandGrammar.ruleCommands
            default: nil
            }
        }
    }
}
