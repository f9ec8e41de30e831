/// choosy's command line, once: every command with its arguments and options. The parser
/// (`CommandLineReader`), `choosy help` (`HelpText`) and completion (`Completer`) read it, and
/// tests hold doc/choosy.1 and README.md to it. An option is one line here.
package enum CommandGrammar {
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
    static let openOptions = OptionGroup(owner: "open", options: [
        .value("--app", "KEY", .appKey, "this app, this once (nothing is remembered)") { $0.open.app = $1 },
        .flag("--choose", "show the picker (the default stays unless you pick always)") { $0.open.choose = true },
        .flag("--no-remember", "offer \"just once\" only") { $0.open.noRemember = true },
        .value("--picker", "P", .picker, "tty, fzf, rofi, zenity, or a command reading choices on stdin") { $0.open.picker = $1 },
        .value("--title", "T", .text, "the picker's title") { $0.open.title = $1 },
        .flag("--dry-run", "launch nothing, write nothing; print the command line") { $0.open.dryRun = true },
        json,
        .value("--configure", "CMD", .text, "run CMD (like a prepare hook) before launching") { $0.open.configure = $1 },
        .flag("--private", "open a private window (apps that cannot are refused)") { $0.open.privateWindow = true },
    ])

    /// The commands a user types, in the order help lists them.
    package static let commands: [Command] = [
        Command(
            "open", "open the favourite app of TYPE",
            arguments: [.one("TYPE", .appType), .optional("ACTION", .action), .any("KEY=VALUE", .parameter)],
            shared: openOptions,
            misuse: "open needs an app type, e.g. 'choosy open Browser browse url=https://example.org'",
            help: """
                Opens ACTION of the app type TYPE (a key or name, any case) in the user's
                favourite app, passing each app only the parameters it supports. Without ACTION
                the app is opened as it is. The first time (or when a new app of the type
                appears, or the favourite is removed) a picker asks which app to use, just once or
                always.
                """
        ),
        Command(
            "url", "print the URL that open would use",
            arguments: [.one("TYPE", .appType), .one("ACTION", .action), .any("KEY=VALUE", .parameter)],
            shared: openOptions,
            misuse: "url needs an app type and an action, e.g. 'choosy url Twitter show_profile profile_screenname=x'",
            help: """
                Prints the URL that `open` would launch, and launches nothing. It decides the app
                the same way but remembers nothing.
                """
        ),
        Command(
            "reset", "forget the default app(s)",
            arguments: [.one("TYPE", .appType)],
            alternative: .flag("--all", "forget every default") { $0.all = true },
            misuse: "reset needs one app type, or --all",
            conflict: "reset takes an app type or --all, not both",
            help: "Forgets the default app of TYPE, or of every type."
        ),
        Command(
            "default", "show or set a default app",
            arguments: [.one("TYPE", .appType), .optional("APP", .appKey)],
            misuse: "default needs an app type and optionally an app key",
            help: "Prints the default app key of TYPE (nothing when there is none), or makes APP the default; APP may be one of a browser's profiles (firefox@Work)."
        ),
        Command(
            "list", "app types, or the apps of a type",
            arguments: [.optional("TYPE", .appType)],
            options: [json],
            misuse: "list takes at most one app type",
            help: "Lists the app types, or the apps of TYPE with whether each is installed, by which desktop entry, and a browser's profiles."
        ),
        Command(
            "describe", "actions, parameters, which app does what",
            arguments: [.one("TYPE", .appType)],
            options: [json],
            misuse: "describe needs one app type",
            help: "Shows the actions and parameters of TYPE, and which app supports which action."
        ),
        Command(
            "update", "download the catalog now",
            arguments: [.any("TYPE", .appType)],
            help: "Downloads the catalog of the given types (default: every known type) now, ignoring the cache's age. Exit 4 when a download failed."
        ),
        Command(
            "handle", "open a plain link through its app type",
            arguments: [.one("URL", .url)],
            shared: openOptions,
            misuse: "handle needs one URL",
            help: "Opens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route. For an http(s) link, its site rule (choosy help rule) decides first."
        ),
        Command(
            "route", "answer an x-callback-url",
            arguments: [.one("URL", .url)],
            shared: openOptions,
            misuse: "route needs one URL",
            help: "Answers an x-callback-url (choosy://x-callback-url/ACTION?…): open, url, reset, default, list, or a custom action script; then opens x-success, x-error or x-cancel."
        ),
        Command(
            "install", "register choosy's desktop entry",
            options: [.flag("--default-handler", "also handle http, https, mailto and geo links") { $0.defaultHandler = true }],
            misuse: "install takes no arguments besides --default-handler",
            help: "Writes choosy.desktop and makes choosy the handler of choosy: links. With --default-handler, also of http, https, mailto and geo links (the previous handlers are recorded for uninstall)."
        ),
        Command(
            "uninstall", "undo install",
            misuse: "uninstall takes no arguments",
            help: "Removes choosy.desktop and restores the link handlers install replaced."
        ),
        Command(
            "rule", "site rules: the app for the links of a site",
            arguments: [.one(of: .ruleCommand), .optional("SITE|URL", .site)],
            options: [
                .value("--app", "KEY", .ruleApp, "the app for the site's links: a browser, or an app of the site's links") { $0.open.app = $1 },
                .value("--profile", "NAME", .text, "open the site in this profile of the browser") { $0.profile = $1 },
                .flag("--private", "open the site in a private window") { $0.open.privateWindow = true },
                .flag("--ask", "always show the picker for the site") { $0.ask = true },
                json,
            ],
            misuse: "rule needs add, list, remove or test, e.g. 'choosy rule add github.com --app firefox'",
            help: """
                Site rules say which app opens the links of a site: only --app and --choose
                come before them, catalog links and type defaults after.
                  rule add SITE --app KEY [--profile NAME] [--private]   open SITE with KEY
                  rule add SITE --ask        always show the picker for SITE
                  rule list [--json]         the rules, in the order added
                  rule remove SITE           forget the rule of SITE
                  rule test URL              which rule, app and argv (runs nothing)
                SITE: example.org (and subdomains), =www.example.org (that host only), either
                with a path prefix (github.com/work-org); never a public suffix (co.uk).
                """
        ),
        Command(
            "completions", "print a shell completion script",
            arguments: [.one(of: .shell)],
            misuse: "completions needs one of: bash, zsh, fish",
            help: """
                Prints a completion script for commands, options, app types, actions, KEY= and app
                keys. `make install` installs them; by hand:
                  bash (~/.bashrc):                 source <(choosy completions bash)
                  zsh (~/.zshrc, after compinit):   source <(choosy completions zsh)
                  fish (config.fish):               choosy completions fish | source
                """
        ),
        Command(
            "help", "help on a command",
            arguments: [.optional("COMMAND", .command)],
            insteadOfCommand: true,
            misuse: "help takes at most one command",
            help: "Shows help on choosy, or on one command."
        ),
    ]

    /// What the completion scripts and the background refresh call.
    package static let hiddenCommands: [Command] = [.hidden("__complete"), .hidden("__refresh")]

    /// Every option a command takes, each once, in the order the commands list them.
    package static let options: [Option] = commands.flatMap(\.options).reduce(into: []) { unique, option in
        if !unique.contains(where: { $0.name == option.name }) { unique.append(option) }
    }

    package static func command(named name: String) -> Command? {
        commands.first { $0.name == name } ?? hiddenCommands.first { $0.name == name }
    }

    /// The named pickers (`--picker`); any other value is a command.
    package static let pickers = ["auto", "tty", "fzf", "rofi", "zenity"]
    /// The shells `choosy completions` prints a script for (`CompletionScript` has each).
    package static let shells = ["bash", "zsh", "fish"]
    /// What `choosy rule` does.
    package static let ruleCommands = ["add", "list", "remove", "test"]
}
