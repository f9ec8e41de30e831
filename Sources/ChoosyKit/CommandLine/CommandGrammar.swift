/// A command line's grammar, once: its commands with their arguments and options. The parser
/// (`CommandLineReader`), `choosy help` and completion (`Completer`) read it, and tests hold
/// doc/choosy.1 and README.md to it. Each command declares its own entry (`CommandTable`
/// lists them); what several share is declared here, an option in one line.
package struct CommandGrammar: Sendable {
    /// The commands a user types, in the order help lists them.
    package let commands: [Command]
    /// Not offered, listed or documented: what the completion scripts and the background
    /// refresh call.
    package let hiddenCommands: [Command]
    /// Every option a command takes, each once, in the order the commands list them.
    package let options: [Option]

    package init(commands: [Command], hiddenCommands: [Command]) {
        self.commands = commands
        self.hiddenCommands = hiddenCommands
        options = commands.flatMap(\.options).reduce(into: []) { unique, option in
            if !unique.contains(where: { $0.name == option.name }) { unique.append(option) }
        }
    }

    package func command(named name: String) -> Command? {
        commands.first { $0.name == name } ?? hiddenCommands.first { $0.name == name }
    }

    /// The options every command takes.
    package static let everyCommand: [Option] = [help, verbose, offline]

    /// The options that may also come before the command (`choosy -v open …`).
    package static let beforeCommand: [Option] = [verbose, offline]

    /// The options written in place of a command (`choosy --version`).
    package static let insteadOfCommand: [Option] = [help, version]

    static let help = Option.flag("--help", short: "-h", "show help") { $0.help = true }
    static let version = Option.flag("--version", short: "-V", "show the version") { $0.version = true }
    static let verbose = Option.flag("--verbose", short: "-v", "explain each decision on stderr") { $0.verbose = true }
    static let offline = Option.flag("--offline", "never use the network") { $0.offline = true }
    static let json = Option.flag("--json", "print the result as JSON") { $0.json = true }

    /// What open, url, handle and route have in common: how the app is decided and launched.
    static let openOptions = OptionGroup(
        owner: "open",
        options: [
            .value("--app", "KEY", .appKey, "this app, this once (nothing is remembered)") { $0.open.app = $1 },
            .flag("--choose", "show the picker (the default stays unless you pick always)") { $0.open.choose = true },
            .flag("--no-remember", "offer \"just once\" only") { $0.open.noRemember = true },
            .value(
                "--picker", "P", .picker, concatenated(PickerPreference.names, separator: ", ") + ", or a command reading choices on stdin"
            ) { $0.open.picker = $1 },
            .value("--title", "T", .text, "the picker's title") { $0.open.title = $1 },
            .flag("--dry-run", "launch nothing, write nothing; print the command line") { $0.open.dryRun = true },
            json,
            .value("--configure", "CMD", .text, "run CMD (like a prepare hook) before launching") { $0.open.configure = $1 },
            .flag("--private", "open a private window (apps that cannot are refused)") { $0.open.privateWindow = true },
        ])

    /// Whether the link is cleaned of trackers first (handle, open, rule test), and whether a
    /// shortened one is followed before that; without either option, `clean_links` and
    /// `unshorten` in the config decide.
    static let cleaning: [Option] = [
        .flag("--clean", "remove the link's trackers first (choosy help clean)") { $0.clean = true },
        .flag("--no-clean", "leave the link as it is, whatever clean_links says") { $0.clean = false },
        unshorten,
        .flag("--no-unshorten", "never follow a shortened link, whatever unshorten says") { $0.unshorten = false },
    ]

    /// `clean` takes it too.
    static let unshorten = Option.flag("--unshorten", "follow a shortened link (t.co, bit.ly, …) to where it leads first") {
        $0.unshorten = true
    }
}
