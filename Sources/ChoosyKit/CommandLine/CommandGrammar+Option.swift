extension CommandGrammar {
    /// One option: how it is written, what it sets in `OptionValues`, and its line of help.
    /// What it sets is a closure, not a key path: key paths are built at run time, and the
    /// table is read on every Tab. A class, like `Command`.
    package final class Option: Sendable {
        enum Form: Sendable {
            case flag(@Sendable (inout OptionValues) -> Void)
            /// The value comes as the next word or after `=` (`--app tweetbot`, `--app=tweetbot`).
            case value(name: String, kind: ValueKind, @Sendable (inout OptionValues, String) -> Void)
        }

        /// The long name, `--app`.
        package let name: String
        /// `-v`, for the few that have one.
        package let short: String?
        package let summary: String
        let form: Form

        private init(name: String, short: String?, summary: String, form: Form) {
            self.name = name
            self.short = short
            self.summary = summary
            self.form = form
        }

        static func flag(_ name: String, short: String? = nil, _ summary: String, sets: @escaping @Sendable (inout OptionValues) -> Void)
            -> Option
        {
            Option(name: name, short: short, summary: summary, form: .flag(sets))
        }

        static func value(
            _ name: String, _ valueName: String, _ kind: ValueKind, _ summary: String,
            sets: @escaping @Sendable (inout OptionValues, String) -> Void
        ) -> Option {
            Option(name: name, short: nil, summary: summary, form: .value(name: valueName, kind: kind, sets))
        }

        package var takesValue: Bool { valueName != nil }

        /// What help calls its value (`KEY`); nil for a flag.
        package var valueName: String? {
            if case .value(let name, _, _) = form { return name }
            return nil
        }

        package var valueKind: ValueKind? {
            if case .value(_, let kind, _) = form { return kind }
            return nil
        }

        /// `-v, --verbose` or `--app KEY`, as help and the man page list it.
        package var label: String {
            (short.map { $0 + ", " } ?? "") + name + (valueName.map { " " + $0 } ?? "")
        }

        func isWritten(_ word: String) -> Bool { word == name || word == short }

        /// Records the option in `values`; `value` is nil for a flag.
        package func set(_ value: String?, in values: inout OptionValues) {
            switch form {
            case .flag(let set): set(&values)
            case .value(_, _, let set): set(&values, value ?? "")
            }
        }
    }

    /// Options several commands take; `owner`'s synopsis lists them, the others' say `[open's options]`.
    package struct OptionGroup: Sendable {
        package let owner: String
        package let options: [Option]
    }
}
