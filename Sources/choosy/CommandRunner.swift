import ChoosyKit

/// Runs uninstall; every other command runs itself.
struct CommandRunner {
    let invocation: LegacyInvocation
    let context: CommandContext

    func run() throws(ChoosyError) -> CommandOutput {
        switch invocation.command {
        case .unit(let unit):
            return try unit.command.run(in: context)
        case .uninstall:
            let installer = try context.choosy().linkHandlerInstaller()
            return CommandOutput(try installer.uninstall() ? "Removed \(installer.entryPath) and restored the previous link handlers.\n" : "choosy was not installed.\n")
        }
    }
}
