/// `choosy install [--default-handler]`: choosy as the desktop's handler of choosy: links, and
/// with `--default-handler` of web, mail and map links.
struct InstallCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "install", "register choosy's desktop entry",
        options: [.flag("--default-handler", "also handle http, https, mailto and geo links") { $0.defaultHandler = true }],
        misuse: "install takes no arguments besides --default-handler",
        help:
            "Writes choosy.desktop and makes choosy the handler of choosy: links. With --default-handler, also of http, https, mailto and geo links (the previous handlers are recorded for uninstall)."
    )

    let defaultHandler: Bool

    init(_ line: ParsedCommandLine) { defaultHandler = line.options.defaultHandler }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let installer = try context.choosy().linkHandlerInstaller()
        let installed = try installer.install(defaultHandler: defaultHandler)
        let schemes = installed.mimeTypes.map { $0.replacingPrefix("x-scheme-handler/", with: "") + ":" }
        let wrote = installed.replacedEntry ? "Replaced \(installer.entryPath) (uninstall puts it back)" : "Wrote \(installer.entryPath)"
        return CommandOutput("\(wrote)\nchoosy now handles: \(schemes.joined(separator: " "))\n")
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
