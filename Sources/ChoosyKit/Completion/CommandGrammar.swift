/// The shape of choosy's command line as completion sees it (SPEC §7): the commands, and which
/// options each one takes. The executable's parser accepts exactly these; a test holds the two
/// together.
public enum CommandGrammar {
    public struct Option: Sendable {
        public var name: String
        public var summary: String
        /// The value comes as the next word or after `=` (`--app tweetbot`, `--app=tweetbot`).
        public var takesValue: Bool
        /// The commands that take it; nil: every command.
        public var commands: [String]?
    }

    /// The commands a user types (the hidden `__complete` and `__refresh` are not offered).
    public static let commands: [(name: String, summary: String)] = [
        ("open", "open an app type's favourite app"),
        ("url", "print the URL that open would use"),
        ("reset", "forget the default app(s)"),
        ("default", "show or set a default app"),
        ("list", "app types, or the apps of a type"),
        ("describe", "actions, parameters, which app does what"),
        ("update", "download the catalog now"),
        ("handle", "open a plain link through its app type"),
        ("route", "answer an x-callback-url"),
        ("install", "register choosy's desktop entry"),
        ("uninstall", "undo install"),
        ("completions", "print a shell completion script"),
        ("help", "help on a command"),
    ]

    /// Options that may also come before the command (`choosy -v open …`).
    public static let leadingOptions = ["-v", "--verbose", "--offline"]

    private static let openLike = ["open", "url", "handle", "route"]

    public static let options: [Option] = [
        Option(name: "--help", summary: "show help", takesValue: false, commands: nil),
        Option(name: "--verbose", summary: "explain each decision on stderr", takesValue: false, commands: nil),
        Option(name: "--offline", summary: "never use the network", takesValue: false, commands: nil),
        Option(name: "--json", summary: "print JSON", takesValue: false, commands: openLike + ["list", "describe"]),
        Option(name: "--all", summary: "every type", takesValue: false, commands: ["reset"]),
        Option(name: "--default-handler", summary: "also handle http, https, mailto and geo links", takesValue: false, commands: ["install"]),
        Option(name: "--app", summary: "this app, this once", takesValue: true, commands: openLike),
        Option(name: "--choose", summary: "forget the default and show the picker", takesValue: false, commands: openLike),
        Option(name: "--no-remember", summary: "offer \"just once\" only", takesValue: false, commands: openLike),
        Option(name: "--picker", summary: "tty, fzf, rofi, zenity or a command", takesValue: true, commands: openLike),
        Option(name: "--title", summary: "the picker's title", takesValue: true, commands: openLike),
        Option(name: "--dry-run", summary: "launch nothing, print the command line", takesValue: false, commands: openLike),
        Option(name: "--configure", summary: "run a command like a prepare hook first", takesValue: true, commands: openLike),
    ]

    /// The options `command` takes.
    public static func options(for command: String) -> [Option] {
        options.filter { $0.commands?.contains(command) ?? true }
    }

    /// The named pickers (`--picker`); any other value is a command.
    public static let pickers = ["auto", "tty", "fzf", "rofi", "zenity"]

    public static let shells = ["bash", "zsh", "fish"]
}
