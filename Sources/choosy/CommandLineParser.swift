import ChoosyKit

/// Turns argv into an `Invocation`, or a usage error (exit 2) naming what was wrong.
struct CommandLineParser {
    private var arguments: [String]
    private var positionals: [String] = []
    private var invocation = Invocation(command: .help(topic: nil))
    private var seenAll = false

    static let commands = CommandGrammar.commands.map(\.name)

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    static func parse(_ arguments: [String]) throws(ChoosyError) -> Invocation {
        var parser = CommandLineParser(arguments)
        return try parser.run()
    }

    private mutating func run() throws(ChoosyError) -> Invocation {
        // -v and --offline may also come before the command (`choosy -v open …`).
        while let first = arguments.first, ["-v", "--verbose", "--offline"].contains(first) {
            arguments.removeFirst()
            if first == "--offline" { invocation.offline = true } else { invocation.verbose = true }
        }
        guard let first = arguments.first else { return invocation }
        arguments.removeFirst()
        switch first {
        case "--help", "-h": return Invocation(command: .help(topic: nil))
        case "--version", "-V": return Invocation(command: .version)
        case "__complete":
            return Invocation(command: .complete(words: arguments))
        case "__refresh":
            return Invocation(command: .refresh(types: arguments))
        default: break
        }
        guard Self.commands.contains(first) else {
            if first.hasPrefix("-") {
                throw .usage("'\(first)' must come after a command (see 'choosy help')")
            }
            throw .usage("unknown command '\(first)'" + didYouMean(first, among: Self.commands) + "; see 'choosy help'")
        }
        try readOptions(for: first)
        if invocation.showHelp {
            invocation.command = .help(topic: first)
            return invocation
        }
        invocation.command = try command(first)
        return invocation
    }

    /// Separates options (anywhere after the command) from positionals; `--` ends options.
    private mutating func readOptions(for command: String) throws(ChoosyError) {
        let openLike = ["open", "url", "handle", "route"].contains(command)
        var index = 0
        var endOfOptions = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if endOfOptions || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                endOfOptions = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ChoosyError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw .usage("\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func flag() throws(ChoosyError) {
                if inlineValue != nil { throw .usage("\(name) takes no value") }
            }
            switch name {
            case "-h", "--help": invocation.showHelp = true
            case "-v", "--verbose": try flag(); invocation.verbose = true
            case "--offline": try flag(); invocation.offline = true
            case "--json" where ["open", "url", "list", "describe", "handle", "route"].contains(command):
                try flag(); invocation.json = true
            case "--all" where command == "reset": try flag(); seenAll = true
            case "--default-handler" where command == "install": try flag(); invocation.defaultHandler = true
            case "--app" where openLike: invocation.options.app = try value()
            case "--choose" where openLike: try flag(); invocation.options.choose = true
            case "--no-remember" where openLike: try flag(); invocation.options.noRemember = true
            case "--picker" where openLike: invocation.options.picker = try value()
            case "--title" where openLike: invocation.options.title = try value()
            case "--dry-run" where openLike: try flag(); invocation.options.dryRun = true
            case "--configure" where openLike: invocation.options.configure = try value()
            default:
                let known = CommandGrammar.options.map(\.name)
                if known.contains(name) {
                    throw .usage("option \(name) does not apply to '\(command)'")
                }
                throw .usage("unknown option '\(name)'" + didYouMean(name, among: known))
            }
        }
    }

    private mutating func command(_ name: String) throws(ChoosyError) -> Invocation.Command {
        switch name {
        case "open":
            guard let type = positionals.first else { throw .usage("open needs an app type, e.g. 'choosy open Browser browse url=https://example.org'") }
            var rest = Array(positionals.dropFirst())
            var action: String?
            if let next = rest.first, !next.contains("=") {
                action = next
                rest.removeFirst()
            }
            return .open(type: type, action: action, parameters: try Self.parameters(rest))
        case "url":
            guard positionals.count >= 2 else { throw .usage("url needs an app type and an action, e.g. 'choosy url Twitter show_profile profile_screenname=x'") }
            return .url(type: positionals[0], action: positionals[1], parameters: try Self.parameters(Array(positionals.dropFirst(2))))
        case "reset":
            if seenAll {
                guard positionals.isEmpty else { throw .usage("reset takes an app type or --all, not both") }
                return .reset(type: nil)
            }
            guard positionals.count == 1 else { throw .usage("reset needs one app type, or --all") }
            return .reset(type: positionals[0])
        case "default":
            switch positionals.count {
            case 1: return .showDefault(type: positionals[0])
            case 2: return .setDefault(type: positionals[0], app: positionals[1])
            default: throw .usage("default needs an app type and optionally an app key")
            }
        case "list":
            guard positionals.count <= 1 else { throw .usage("list takes at most one app type") }
            return .list(type: positionals.first)
        case "describe":
            guard positionals.count == 1 else { throw .usage("describe needs one app type") }
            return .describe(type: positionals[0])
        case "update":
            return .update(types: positionals)
        case "handle", "route":
            guard positionals.count == 1 else { throw .usage("\(name) needs one URL") }
            return name == "handle" ? .handle(url: positionals[0]) : .route(url: positionals[0])
        case "install":
            guard positionals.isEmpty else { throw .usage("install takes no arguments besides --default-handler") }
            return .install(defaultHandler: invocation.defaultHandler)
        case "uninstall":
            guard positionals.isEmpty else { throw .usage("uninstall takes no arguments") }
            return .uninstall
        case "completions":
            guard positionals.count == 1, CommandGrammar.shells.contains(positionals[0]) else {
                throw .usage("completions needs one of: bash, zsh, fish")
            }
            return .completions(shell: positionals[0])
        default:
            guard positionals.count <= 1 else { throw .usage("help takes at most one command") }
            return .help(topic: positionals.first)
        }
    }

    /// `KEY=VALUE` words, split at the first `=`; a word without `=` or with an empty key is a
    /// usage error (SPEC §7).
    static func parameters(_ words: [String]) throws(ChoosyError) -> [(String, String)] {
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
