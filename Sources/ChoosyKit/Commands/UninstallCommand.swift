/// `choosy uninstall`: undoes `install`.
struct UninstallCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "uninstall", "undo install",
        misuse: "uninstall takes no arguments",
        help:
            "Removes choosy from mimeapps.list, restores the link handlers install replaced where choosy is still the default, and removes choosy.desktop (or puts back the one install replaced)."
    )

    init(_ line: ParsedCommandLine) {}

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let installer = try context.choosy().linkHandlerInstaller()
        guard let uninstalled = try installer.uninstall() else { return CommandOutput("choosy was not installed.\n") }
        let entry = uninstalled.restoredEntry ? "Put back the previous \(installer.entryPath)" : "Removed \(installer.entryPath)"
        guard let reason = uninstalled.unrestored else {
            return CommandOutput("\(entry) and restored the previous link handlers.\n")
        }
        return CommandOutput(
            "\(entry) and choosy's link handler lines.\n",
            standardError: "choosy: cannot restore the previous link handlers: \(reason)\n")
    }
}
