/// `choosy uninstall`: undoes `install`.
struct UninstallCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "uninstall", "undo install",
        misuse: "uninstall takes no arguments",
        help: "Removes choosy.desktop and restores the link handlers install replaced."
    )

    init(_ line: ParsedCommandLine) {}

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let installer = try context.choosy().linkHandlerInstaller()
        return CommandOutput(try installer.uninstall() ? "Removed \(installer.entryPath) and restored the previous link handlers.\n" : "choosy was not installed.\n")
    }
}
