import ChoosyKit

/// `choosy help [COMMAND]`.
enum HelpText {
    static func text(for topic: String?) throws(ChoosyError) -> String {
        guard let topic else { return overview }
        guard let text = commands[topic] else {
            throw .usage("no help for '\(topic)'" + didYouMean(topic, among: Array(commands.keys)))
        }
        return text
    }

    static let overview = """
        choosy \(choosyVersion): open things in the user's favourite app

        Usage:
          choosy open TYPE [ACTION] [KEY=VALUE…]   open the favourite app of TYPE
          choosy url TYPE ACTION [KEY=VALUE…]      print the URL that open would use
          choosy reset TYPE | --all                forget the default app(s)
          choosy default TYPE [APP]                show or set a default app
          choosy list [TYPE] [--json]              app types, or the apps of a type
          choosy describe TYPE [--json]            actions, parameters, which app does what
          choosy update [TYPE…]                    download the catalog now
          choosy handle URL                        open a plain link through its app type
          choosy route URL                         answer an x-callback-url
          choosy install [--default-handler]       register choosy's desktop entry
          choosy uninstall                         undo install
          choosy completions bash|zsh|fish         print a shell completion script
          choosy help [COMMAND]

        Options of open, url, handle and route:
          --app KEY          this app, this once (nothing is remembered)
          --choose           show the picker (the default stays unless you pick always)
          --no-remember      offer "just once" only
          --picker P         tty, fzf, rofi, zenity, or a command reading choices on stdin
          --title TEXT       the picker's title
          --dry-run          launch nothing, write nothing; print the command line
          --json             print the decision as JSON
          --configure CMD    run CMD (like a prepare hook) before launching
        Everywhere:
          -v, --verbose      explain each decision on stderr
          --offline          never use the network

        Examples:
          choosy open Twitter show_profile profile_screenname=choosyapp
          choosy open Browser browse url=https://example.org --choose
          choosy url Maps search query='Alexanderplatz, Berlin'

        Exit status: 0 ok, 1 internal error, 2 usage, 3 unknown type/action/app,
        4 nothing installed can do it or no catalog data, 5 no choice made, 6 launch
        failed, 7 corrupt file. See choosy(1).

        """

    static let commands: [String: String] = [
        "open": """
            choosy open TYPE [ACTION] [KEY=VALUE…] [--app KEY] [--choose] [--no-remember]
                        [--picker P] [--title T] [--dry-run] [--json] [--configure CMD]

            Opens ACTION of the app type TYPE (a key or name, any case) in the user's
            favourite app, passing each app only the parameters it supports. Without ACTION
            the app is opened as it is. The first time (or when a new app of the type
            appears, or the favourite is removed) a picker asks which app to use, just once or
            always.

            """,
        "url": """
            choosy url TYPE ACTION [KEY=VALUE…] [--app KEY] [--picker P]

            Prints the URL that `open` would launch, and launches nothing. It decides the app
            the same way but remembers nothing.

            """,
        "reset": "choosy reset TYPE | --all\n\nForgets the default app of TYPE, or of every type.\n",
        "default": "choosy default TYPE [APP]\n\nPrints the default app key of TYPE (nothing when there is none), or makes APP the default.\n",
        "list": "choosy list [TYPE] [--json]\n\nLists the app types, or the apps of TYPE with whether each is installed and by which desktop entry.\n",
        "describe": "choosy describe TYPE [--json]\n\nShows the actions and parameters of TYPE, and which app supports which action.\n",
        "update": "choosy update [TYPE…]\n\nDownloads the catalog of the given types (default: every known type) now, ignoring the cache's age. Exit 4 when a download failed.\n",
        "handle": "choosy handle URL [open's options]\n\nOpens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route.\n",
        "route": "choosy route URL [open's options]\n\nAnswers an x-callback-url (choosy://x-callback-url/ACTION?…): open, url, reset, default, list, or a custom action script; then opens x-success, x-error or x-cancel.\n",
        "install": "choosy install [--default-handler]\n\nWrites choosy.desktop and makes choosy the handler of choosy: links. With --default-handler, also of http, https, mailto and geo links (the previous handlers are recorded for uninstall).\n",
        "uninstall": "choosy uninstall\n\nRemoves choosy.desktop and restores the link handlers install replaced.\n",
        "completions": """
            choosy completions bash|zsh|fish

            Prints a completion script for commands, options, app types, actions, KEY= and app
            keys. `make install` installs them; by hand:
              bash (~/.bashrc):                 source <(choosy completions bash)
              zsh (~/.zshrc, after compinit):   source <(choosy completions zsh)
              fish (config.fish):               choosy completions fish | source

            """,
        "help": "choosy help [COMMAND]\n",
    ]
}
