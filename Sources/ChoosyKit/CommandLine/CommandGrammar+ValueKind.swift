extension CommandGrammar {
    /// What a word on the command line stands for: completion offers candidates by it, and the
    /// parser refuses a word outside a closed set.
    package indirect enum ValueKind: Sendable, Equatable {
        /// An app type's key or name, any case.
        case appType
        /// An action of the app type given before it.
        case action
        /// `KEY=VALUE`: a parameter of the action.
        case parameter
        /// An app of the app type given before it.
        case appKey
        /// An app of the browser type.
        case browserApp
        case url
        /// One of the commands.
        case command
        /// One of these words, and no other.
        case choice([String])
        /// A named picker, or a command.
        case picker
        /// The site of one of the user's site rules.
        case ruleSite
        /// Where a link came from: a desktop ID or an app key.
        case source
        /// A choice the user hid (`hidden` in config.json).
        case hiddenChoice
        /// What the word is depends on the command's first argument (`rule remove SITE`); after
        /// any other, anything.
        case chosenBy([String: ValueKind])
        /// Anything: a title, a shell command.
        case text

        /// The only words allowed, for a kind that is a closed set.
        package var choices: [String]? {
            if case .choice(let words) = self { return words }
            return nil
        }
    }
}
