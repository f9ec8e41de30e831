import Glibc

/// What a command runs in: the process's environment, the options given, and `Choosy`, the
/// composition root, built when a command first asks for it (help and completions never do).
package final class CommandContext {
    package let environment: Environment
    package let options: OptionValues
    /// The arguments that were not UTF-8, as given (`GivenBytes`).
    package let givenBytes: GivenBytes
    private var built: Choosy?

    package init(environment: Environment, options: OptionValues, givenBytes: GivenBytes = .none) {
        self.environment = environment
        self.options = options
        self.givenBytes = givenBytes
    }

    /// The first call also reads the config file: one that cannot be read is reported by every
    /// command that uses `Choosy`, not only those that happen to need one of its settings (and
    /// stops none of them).
    func choosy() throws(ChoosyError) -> Choosy {
        if let built { return built }
        var settings = Choosy.Settings(executable: currentExecutable())
        settings.verbose = options.verbose
        settings.offline = options.offline
        settings.dryRun = options.open.dryRun
        settings.givenBytes = givenBytes
        let diagnostics = StandardErrorDiagnostics(verbose: options.verbose, style: TerminalStyle.forStream(2, environment: environment))
        let choosy = Choosy(environment: environment, settings: settings, diagnostics: diagnostics)
        // Kept to the end of the process, which exits right after the command: releasing all
        // it read, object by object, is work nobody sees (a few percent of a command).
        _ = Unmanaged.passRetained(choosy)
        built = choosy
        _ = choosy.configuration()
        // The next command run with -v says what a background refresh could not do.
        if options.verbose { choosy.refreshFailures().sayOnce(diagnostics.warning) }
        return choosy
    }

    /// Whether stdout is a terminal: confirmations (`Forgot firefox as the default.`) are
    /// said only to a person.
    var interactive: Bool { isatty(1) == 1 }

    /// The styling of what goes to stdout.
    var style: TerminalStyle { TerminalStyle.forStream(1, environment: environment) }

    /// Ends the command: starts the catalog refreshes it asked for (one detached child).
    package func finish() {
        built?.finish()
    }
}
