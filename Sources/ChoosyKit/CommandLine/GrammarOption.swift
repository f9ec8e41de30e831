extension CommandGrammar {
    /// One option: how it is written, what it sets in `OptionValues`, and its line of help.
    public struct Option: Sendable {
        enum Form: Sendable {
            case flag(WritableKeyPath<OptionValues, Bool> & Sendable)
            /// The value comes as the next word or after `=` (`--app tweetbot`, `--app=tweetbot`).
            case value(name: String, kind: ValueKind, WritableKeyPath<OptionValues, String?> & Sendable)
        }

        /// The long name, `--app`.
        public let name: String
        /// `-v`, for the few that have one.
        public let short: String?
        public let summary: String
        let form: Form

        static func flag(_ name: String, short: String? = nil, _ field: WritableKeyPath<OptionValues, Bool> & Sendable, _ summary: String) -> Option {
            Option(name: name, short: short, summary: summary, form: .flag(field))
        }

        static func value(
            _ name: String, _ valueName: String, _ kind: ValueKind, _ field: WritableKeyPath<OptionValues, String?> & Sendable, _ summary: String
        ) -> Option {
            Option(name: name, short: nil, summary: summary, form: .value(name: valueName, kind: kind, field))
        }

        public var takesValue: Bool { valueName != nil }

        /// What help calls its value (`KEY`); nil for a flag.
        public var valueName: String? {
            if case .value(let name, _, _) = form { return name }
            return nil
        }

        public var valueKind: ValueKind? {
            if case .value(_, let kind, _) = form { return kind }
            return nil
        }

        /// `-v, --verbose` or `--app KEY`, as help and the man page list it.
        public var label: String {
            (short.map { $0 + ", " } ?? "") + name + (valueName.map { " " + $0 } ?? "")
        }

        func isWritten(_ word: String) -> Bool { word == name || word == short }

        /// Records the option in `values`; `value` is nil for a flag.
        func set(_ value: String?, in values: inout OptionValues) {
            switch form {
            case .flag(let field): values[keyPath: field] = true
            case .value(_, _, let field): values[keyPath: field] = value
            }
        }

        public func isSet(in values: OptionValues) -> Bool {
            switch form {
            case .flag(let field): values[keyPath: field]
            case .value(_, _, let field): values[keyPath: field] != nil
            }
        }
    }

    /// Options several commands take; `owner`'s synopsis lists them, the others' say `[open's options]`.
    public struct OptionGroup: Sendable {
        public let owner: String
        public let options: [Option]
    }
}
