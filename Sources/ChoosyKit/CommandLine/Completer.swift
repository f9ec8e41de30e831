/// What `choosy __complete WORD…` answers: the candidates for the last word (the one being
/// typed, possibly empty), given the words before it — everything after `choosy` on the
/// command line. Commands and options come from the grammar it is given; app types, actions,
/// parameter keys (`key=`) and app keys from the catalog.
package struct Completer {
    private let grammar: CommandGrammar
    private let catalog: Catalog
    /// The profiles of an installed app that declares them; asked only once `app@` is typed.
    private let profiles: (App) -> [BrowserProfile]
    /// The installed apps of a type that no catalog names (`org_gnome_maps`), which `--app`
    /// takes as `list` shows them; asked only when an app key is completed.
    private let discoveredApps: (AppType) -> [App]
    /// The sites of the user's site rules; read only when such a site is being typed.
    private let ruleSites: () -> [String]
    /// The IDs of the installed desktop entries; listed only when a source is being typed.
    private let desktopIDs: () -> [String]
    /// The choices the user hid; read only when `unhide` completes one.
    private let hiddenChoices: () -> [String]

    /// `catalog` should be offline: completion runs on every Tab and must never wait.
    package init(
        grammar: CommandGrammar, catalog: Catalog, profiles: @escaping (App) -> [BrowserProfile],
        discoveredApps: @escaping (AppType) -> [App], ruleSites: @escaping () -> [String], desktopIDs: @escaping () -> [String],
        hiddenChoices: @escaping () -> [String]
    ) {
        self.hiddenChoices = hiddenChoices
        self.desktopIDs = desktopIDs
        self.grammar = grammar
        self.catalog = catalog
        self.profiles = profiles
        self.discoveredApps = discoveredApps
        self.ruleSites = ruleSites
    }

    package func candidates(for words: [String]) -> [CompletionCandidate] {
        guard let current = words.last else { return [] }
        var before = words.dropLast()[...]
        while let first = before.first, CommandGrammar.beforeCommand.contains(where: { $0.isWritten(first) }) {
            before = before.dropFirst()
        }
        guard let name = before.first else {
            if current.hasPrefix("-") {
                return matching(current, (CommandGrammar.insteadOfCommand + CommandGrammar.beforeCommand).map(Self.candidate))
            }
            return commands(typed: current)
        }
        guard let command = grammar.commands.first(where: { $0.name == name }) else { return [] }
        let line = CommandLineSoFar(command: command, words: Array(before.dropFirst()))
        if let option = line.optionAwaitingValue {
            return values(of: option, line: line, typed: current)
        }
        if !line.endOfOptions && current.hasPrefix("-") {
            return options(line: line, typed: current)
        }
        guard let argument = command.argument(at: line.positionals.count) else { return [] }
        let candidates = values(argument.kind, line: line, typed: current)
        // A word that repeats (`update TYPE…`) is not offered twice.
        return argument.count == .any ? candidates.filter { !line.positionals.contains($0.word) } : candidates
    }

    // MARK: What the word can be

    private func options(line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        // `--app=tw`: the value of an option written with `=`.
        if let equals = typed.firstIndex(of: "="), let option = line.command.option(String(typed[..<equals])), option.takesValue {
            let prefix = String(typed[...equals])
            return values(of: option, line: line, typed: String(typed[typed.index(after: equals)...]))
                .map { CompletionCandidate(prefix + $0.word, $0.description) }
        }
        let options = line.command.options.filter { !line.usedOptions.contains($0.name) }
        return matching(typed, options.map(Self.candidate))
    }

    private func values(of option: CommandGrammar.Option, line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        option.valueKind.map { values($0, line: line, typed: typed) } ?? []
    }

    /// The candidates for a word of `kind`; an action, app key or parameter belongs to the app
    /// type given as the command's TYPE.
    private func values(_ kind: CommandGrammar.ValueKind, line: CommandLineSoFar, typed: String) -> [CompletionCandidate] {
        switch kind {
        case .appType:
            return types(typed: typed)
        case .action:
            guard let type = line.appType.flatMap(appType) else { return [] }
            return matching(
                typed, type.knownActions.map { CompletionCandidate($0.key, $0.name == $0.key ? "" : $0.name) },
                names: type.knownActions.map(\.name))
        case .appKey:
            return line.appType.flatMap(appType).map { appKeys(of: $0, typed: typed) } ?? []
        case .parameter:
            guard let type = line.appType.flatMap(appType) else { return [] }
            // After TYPE comes ACTION, unless it is not one: `open TYPE key=value …` has no action.
            let rest = line.positionals.dropFirst()
            let action = rest.first.flatMap(type.knownAction)
            return parameterKeys(of: type, action: action, given: Array(rest.dropFirst(action == nil ? 0 : 1)), typed: typed)
        case .command:
            return commands(typed: typed)
        case .choice(let words):
            return matching(typed, words.map { CompletionCandidate($0, "") })
        case .picker:
            return matching(typed, PickerPreference.names.map { CompletionCandidate($0, "") })
        case .ruleSite:
            return matching(typed, ruleSites().map { CompletionCandidate($0, "") })
        case .source:
            return sources(typed: typed)
        case .hiddenChoice:
            return matching(typed, hiddenChoices().map { CompletionCandidate($0, "hidden") })
        case .chosenBy(let kinds):
            return line.positionals.first.flatMap { kinds[$0] }.map { values($0, line: line, typed: typed) } ?? []
        case .browserApp:
            return appType("browser").map { appKeys(of: $0, typed: typed) } ?? []
        case .url, .text:
            return []
        }
    }

    /// What `--from` takes: the catalog's app keys, then the installed entries' desktop IDs
    /// (without `.desktop`).
    private func sources(typed: String) -> [CompletionCandidate] {
        var keys: Set<String> = []
        var candidates: [CompletionCandidate] = []
        for summary in catalog.summaries() {
            for app in (try? catalog.appType(summary.key))?.apps ?? [] where !app.desktopIDs.isEmpty && keys.insert(app.key).inserted {
                candidates.append(CompletionCandidate(app.key, app.name))
            }
        }
        for id in desktopIDs() where keys.insert(String(id.dropLast(".desktop".count))).inserted {
            candidates.append(CompletionCandidate(String(id.dropLast(".desktop".count)), "desktop entry"))
        }
        return matching(typed, candidates)
    }

    private func commands(typed: String) -> [CompletionCandidate] {
        matching(typed, grammar.commands.map { CompletionCandidate($0.name, $0.summary) })
    }

    private static func candidate(_ option: CommandGrammar.Option) -> CompletionCandidate {
        CompletionCandidate(option.name, option.summary)
    }

    /// Type keys; names when the word is not the start of a key (`Tw` → `Twitter`).
    private func types(typed: String) -> [CompletionCandidate] {
        let summaries = catalog.summaries()
        return matching(typed, summaries.map { CompletionCandidate($0.key, $0.name) }, names: summaries.map(\.name))
    }

    /// App keys; after `app@`, that app's profile keys (`firefox@Work`), which are case-sensitive.
    private func appKeys(of type: AppType, typed: String) -> [CompletionCandidate] {
        let (appKey, profile) = ChoiceKey.split(typed)
        guard profile != nil else {
            return matching(typed.lowercased(), (type.apps + discoveredApps(type)).map { CompletionCandidate($0.key, $0.name) })
        }
        guard let app = type.app(appKey.lowercased()), app.profiles != nil else { return [] }
        return matching(
            ChoiceKey.make(app: app.key, profile: profile),
            profiles(app).map { profile in
                CompletionCandidate(ChoiceKey.make(app: app.key, profile: profile.choiceName), "\(app.name) — \(profile.shownName)")
            })
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
    let command: CommandGrammar.Command
    private(set) var positionals: [String] = []
    private(set) var usedOptions: Set<String> = []
    private(set) var endOfOptions = false
    /// The option whose value is the word being completed (`--app <TAB>`).
    private(set) var optionAwaitingValue: CommandGrammar.Option?

    init(command: CommandGrammar.Command, words: [String]) {
        self.command = command
        var scanner = OptionScanner(words, of: command)
        while let word = scanner.next() {
            switch word {
            case .argument(let argument):
                positionals.append(argument)
            case .option(let name, let option, let inline, let following):
                usedOptions.insert(name)
                if let option, option.takesValue, inline == nil, following == nil { optionAwaitingValue = option }
            }
        }
        endOfOptions = scanner.endOfOptions
    }

    /// The app type given, for the words that belong to one.
    var appType: String? {
        command.arguments.firstIndex { $0.kind == .appType }.flatMap { positionals.indices.contains($0) ? positionals[$0] : nil }
    }
}
