extension CommandGrammar.Command {
    /// `choosy list [TYPE] [--json]`: the arguments and the options only this command takes.
    package var shortSynopsis: String {
        synopsisParts(full: false).joined(separator: " ")
    }

    /// The short synopsis and the shared options: listed in full by the command that owns
    /// them, `[open's options]` for the others.
    package var synopsis: String {
        synopsisParts(full: true).joined(separator: " ")
    }

    /// The synopsis in lines of at most `width` characters, the later ones indented to the
    /// first argument.
    package func synopsis(width: Int) -> String {
        wrapped(synopsisParts(full: true), width: width, indent: String(repeating: " ", count: "choosy \(name) ".count))
    }

    /// The words of the synopsis; a bracketed option with its value is one.
    private func synopsisParts(full: Bool) -> [String] {
        var parts = ["choosy", name] + arguments.map(\.synopsis)
        let alternatives = (alternative.map { [$0] } ?? []) + (showsOptionsInsteadOfCommand ? CommandGrammar.insteadOfCommand : [])
        parts += alternatives.flatMap { ["|", $0.name] }
        parts += ownOptions.map(\.synopsis)
        if full, let shared {
            parts += shared.owner == name ? shared.options.map(\.synopsis) : ["[\(shared.owner)'s options]"]
        }
        return parts
    }
}

extension CommandGrammar.Argument {
    /// `TYPE`, `[ACTION]` or `[KEY=VALUE…]`.
    var synopsis: String {
        switch count {
        case .one: name
        case .optional: "[\(name)]"
        case .any: "[\(name)…]"
        }
    }
}

extension CommandGrammar.Option {
    /// `[--app KEY]`.
    var synopsis: String {
        "[" + name + (valueName.map { " " + $0 } ?? "") + "]"
    }
}
