/// What `choosy __complete WORD…` answers: the candidates for the last word (the one being
/// typed, possibly empty), given the words before it — everything after `choosy` on the
/// command line. Commands and options come from `CommandGrammar`; app types, actions,
/// parameter keys (`key=`) and app keys come from the catalog it is given.
public struct Completer {
    private let catalog: Catalog

    /// `catalog` should be offline: completion runs on every Tab and must never wait.
    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    public func candidates(for words: [String]) -> [CompletionCandidate] {
        guard let current = words.last else { return [] }
        var before = words.dropLast()[...]
        while let first = before.first, CommandGrammar.leadingOptions.contains(first) {
            before = before.dropFirst()
        }
        guard let command = before.first else {
            if current.hasPrefix("-") {
                return matching(current, [
                    CompletionCandidate("--help", "show help"), CompletionCandidate("--version", "show the version"),
                    CompletionCandidate("--verbose", "explain each decision on stderr"),
                    CompletionCandidate("--offline", "never use the network"),
                ])
            }
            return matching(current, CommandGrammar.commands.map { CompletionCandidate($0.name, $0.summary) })
        }
        guard CommandGrammar.commands.contains(where: { $0.name == command }) else { return [] }
        let line = CommandLineSoFar(command: command, words: Array(before.dropFirst()))
        if let option = line.optionAwaitingValue {
            return values(of: option, line: line, typed: current)
        }
        if !line.endOfOptions && current.hasPrefix("-") {
            return options(command: command, line: line, typed: current)
        }
        return positionals(line: line, typed: current)
    }

    // MARK: What the word can be

    private func options(command: String, line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        // `--app=tw`: the value of an option written with `=`.
        if let equals = typed.firstIndex(of: "="),
           let option = CommandGrammar.options(for: command).first(where: { $0.takesValue && $0.name == typed[..<equals] }) {
            let prefix = String(typed[...equals])
            return values(of: option.name, line: line, typed: String(typed[typed.index(after: equals)...]))
                .map { CompletionCandidate(prefix + $0.word, $0.description) }
        }
        let options = CommandGrammar.options(for: command).filter { !line.usedOptions.contains($0.name) }
        return matching(typed, options.map { CompletionCandidate($0.name, $0.summary) })
    }

    private func values(of option: String, line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        switch option {
        case "--app":
            guard ["open", "url"].contains(line.command), let type = line.positionals.first.flatMap(appType) else { return [] }
            return appKeys(of: type, typed: typed)
        case "--picker":
            return matching(typed, CommandGrammar.pickers.map { CompletionCandidate($0, "") })
        default:
            return []
        }
    }

    private func positionals(line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        let given = line.positionals
        switch (line.command, given.count) {
        case ("open", 0), ("url", 0), ("reset", 0), ("default", 0), ("list", 0), ("describe", 0):
            return types(typed: typed)
        case ("update", _):
            return types(typed: typed).filter { !given.contains($0.word) }
        case ("default", 1):
            return appType(given[0]).map { appKeys(of: $0, typed: typed) } ?? []
        case ("open", 1), ("url", 1):
            guard let type = appType(given[0]) else { return [] }
            return matching(typed, type.knownActions.map { CompletionCandidate($0.key, $0.name == $0.key ? "" : $0.name) },
                            names: type.knownActions.map(\.name))
        case ("open", _), ("url", _):
            guard let type = appType(given[0]) else { return [] }
            // `open TYPE key=value …` has no action: every word after the type is a parameter.
            let action = type.knownAction(given[1])
            return parameterKeys(of: type, action: action, given: Array(given.dropFirst(action == nil ? 1 : 2)), typed: typed)
        case ("completions", 0):
            return matching(typed, CommandGrammar.shells.map { CompletionCandidate($0, "") })
        case ("help", 0):
            return matching(typed, CommandGrammar.commands.map { CompletionCandidate($0.name, $0.summary) })
        default:
            // URLs for handle and route, and nothing more for the rest.
            return []
        }
    }

    /// Type keys; names when the word is not the start of a key (`Tw` → `Twitter`).
    private func types(typed: String) -> [CompletionCandidate] {
        let summaries = catalog.summaries()
        return matching(typed, summaries.map { CompletionCandidate($0.key, $0.name) }, names: summaries.map(\.name))
    }

    private func appKeys(of type: AppType, typed: String) -> [CompletionCandidate] {
        matching(typed.lowercased(), type.apps.map { CompletionCandidate($0.key, $0.name) })
    }

    /// `key=` for each parameter the action's URL templates use (every parameter of the type
    /// when there is no such action or none uses any), leaving out keys already given.
    private func parameterKeys(of type: AppType, action: Action?, given: [String], typed: String) -> [CompletionCandidate] {
        // After `=` comes a value, which could be anything.
        guard !typed.contains("=") else { return [] }
        var keys = type.parameters.map(\.key)
        if let action {
            let used = type.apps.flatMap { $0.parameterKeys(for: action.key) }
            if !used.isEmpty {
                keys = keys.filter(used.contains) + used.filter { !keys.contains($0) }
            }
        }
        let givenKeys = given.compactMap { word in word.firstIndex(of: "=").map { String(word[..<$0]) } }
        var seen: Set<String> = []
        let candidates = keys.filter { !givenKeys.contains($0) && seen.insert($0).inserted }.map { key in
            CompletionCandidate(key + "=", type.parameter(key)?.name ?? "")
        }
        return matching(typed, candidates)
    }

    private func appType(_ input: String) -> AppType? {
        guard let key = try? catalog.resolve(input) else { return nil }
        return try? catalog.appType(key)
    }

    /// The candidates that start with `typed`. With `names` (one per candidate, as the parser
    /// also accepts them), a word that starts no candidate is matched against the names, any
    /// case, and completes to the name.
    private func matching(_ typed: String, _ candidates: [CompletionCandidate], names: [String] = []) -> [CompletionCandidate] {
        let byKey = candidates.filter { $0.word.hasPrefix(typed) }
        guard byKey.isEmpty, names.count == candidates.count else { return byKey }
        let lowered = typed.lowercased()
        return zip(candidates, names).compactMap { candidate, name in
            name.lowercased().hasPrefix(lowered) ? CompletionCandidate(name, candidate.word) : nil
        }
    }
}

/// The words between the command and the one being completed, read the way the parser reads
/// them: options anywhere, `--` ends them, a value-taking option eats the next word.
private struct CommandLineSoFar {
    let command: String
    private(set) var positionals: [String] = []
    private(set) var usedOptions: Set<String> = []
    private(set) var endOfOptions = false
    /// The option whose value is the word being completed (`--app <TAB>`).
    private(set) var optionAwaitingValue: String?

    init(command: String, words: [String]) {
        self.command = command
        let valueOptions = Set(CommandGrammar.options(for: command).filter(\.takesValue).map(\.name))
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if endOfOptions || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
            } else if word == "--" {
                endOfOptions = true
            } else {
                let name = String(word.prefix { $0 != "=" })
                usedOptions.insert(name)
                if valueOptions.contains(name) && !word.contains("=") {
                    if index == words.count { optionAwaitingValue = name }
                    index += 1
                }
            }
        }
    }
}
