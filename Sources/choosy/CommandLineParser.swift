import ChoosyKit

/// Turns argv into an `Invocation`: `CommandLineReader` reads it against `CommandGrammar`
/// (usage errors, exit 2), and this says what each command's arguments mean.
enum CommandLineParser {
    static func parse(_ words: [String]) throws(ChoosyError) -> Invocation {
        let line = try CommandLineReader.read(words)
        guard let command = line.command?.name else {
            return Invocation(command: line.options.version ? .version : .help(topic: nil), options: line.options)
        }
        if line.options.help {
            return Invocation(command: .help(topic: command), options: line.options)
        }
        return Invocation(command: try meaning(of: command, line.arguments, line.options), options: line.options)
    }

    /// The arguments already fit the command's in number (`CommandLineReader` checked them).
    private static func meaning(of command: String, _ arguments: [String], _ options: OptionValues) throws(ChoosyError) -> Invocation.Command {
        switch command {
        case "open":
            var rest = Array(arguments.dropFirst())
            var action: String?
            if let next = rest.first, !next.contains("=") {
                action = next
                rest.removeFirst()
            }
            return .open(type: arguments[0], action: action, parameters: try parameters(rest))
        case "url":
            return .url(type: arguments[0], action: arguments[1], parameters: try parameters(Array(arguments.dropFirst(2))))
        case "reset":
            return .reset(type: options.all ? nil : arguments[0])
        case "default":
            return arguments.count == 1 ? .showDefault(type: arguments[0]) : .setDefault(type: arguments[0], app: arguments[1])
        case "list":
            return .list(type: arguments.first)
        case "describe":
            return .describe(type: arguments[0])
        case "update":
            return .update(types: arguments)
        case "handle":
            return .handle(url: arguments[0])
        case "route":
            return .route(url: arguments[0])
        case "install":
            return .install(defaultHandler: options.defaultHandler)
        case "uninstall":
            return .uninstall
        case "rule":
            return try rule(arguments, options)
        case "completions":
            return .completions(shell: arguments[0])
        case "help":
            return .help(topic: arguments.first)
        case "__complete":
            return .complete(words: arguments)
        case "__refresh":
            return .refresh(types: arguments)
        default:
            preconditionFailure("CommandGrammar has a command '\(command)' that means nothing here")
        }
    }

    /// `rule add|list|remove|test`: each takes its own of the rule options.
    private static func rule(_ arguments: [String], _ options: OptionValues) throws(ChoosyError) -> Invocation.Command {
        let site = arguments.count == 2 ? arguments[1] : nil
        let given = [
            ("--app", options.open.app != nil), ("--profile", options.profile != nil), ("--private", options.open.privateWindow),
            ("--ask", options.ask), ("--json", options.json),
        ].filter(\.1).map(\.0)
        func only(_ allowed: [String]) throws(ChoosyError) {
            if let stray = given.first(where: { !allowed.contains($0) }) {
                throw .usage("rule \(arguments[0]) does not take \(stray)")
            }
        }
        switch arguments[0] {
        case "add":
            guard let site else { throw .usage("rule add needs a SITE, e.g. 'choosy rule add github.com --app firefox'") }
            if options.ask {
                try only(["--ask"])
                return .addRule(site: site, target: .ask)
            }
            try only(["--app", "--profile", "--private"])
            guard let app = options.open.app else { throw .usage("rule add needs --app KEY or --ask") }
            return .addRule(site: site, target: .app(key: app, profile: options.profile, privateWindow: options.open.privateWindow))
        case "list":
            guard site == nil else { throw .usage("rule list takes no SITE") }
            try only(["--json"])
            return .listRules
        case "remove":
            guard let site else { throw .usage("rule remove needs a SITE (see 'choosy rule list')") }
            try only([])
            return .removeRule(site: site)
        default:
            guard let site else { throw .usage("rule test needs a URL, e.g. 'choosy rule test https://github.com/'") }
            try only([])
            return .testRule(url: site)
        }
    }

    /// `KEY=VALUE` words, split at the first `=`; a word without `=` or with an empty key is a
    /// usage error.
    private static func parameters(_ words: [String]) throws(ChoosyError) -> [(String, String)] {
        try words.map { word throws(ChoosyError) in
            guard let equals = word.firstIndex(of: "=") else {
                throw .usage("'\(word)' is not a parameter: write KEY=VALUE")
            }
            let key = String(word[..<equals])
            guard !key.isEmpty else { throw .usage("'\(word)' has an empty parameter key: write KEY=VALUE") }
            return (key, String(word[word.index(after: equals)...]))
        }
    }
}
