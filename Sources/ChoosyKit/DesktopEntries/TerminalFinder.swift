/// The terminal a `Terminal=true` app runs in (doc/desktop.md, "Apps that run in a terminal"),
/// the first of: `$TERMINAL` with `-e`; the terminal the desktop chose for the
/// `org.freedesktop.Terminal1` intent (`IntentAppsList`), asked over the session bus to run the
/// app (the terminal intent's `LaunchCommand`), or, when the bus cannot reach it, started by its
/// own `Exec` with the app's argv after its `X-TerminalArgExec` (`-e` without one);
/// `xdg-terminal-exec`; `x-terminal-emulator -e`. A program counts when it is on `PATH`.
package struct TerminalFinder: Sendable {
    /// How the app is started, and why that way (said under `-v`).
    package struct Choice: Sendable {
        package enum Route: Sendable {
            /// This argv, then the app's.
            case command([String])
            /// The desktop's terminal, over the session bus.
            case intent(DesktopEntry)
        }

        package var route: Route
        package var reason: String
    }

    package static let intent = "org.freedesktop.Terminal1"
    /// How long the terminal may take to answer, starting first when the bus activates it.
    private static let timeout = 10.0

    private let environment: Environment
    private let fileSystem: FileSystem
    private let intents: IntentAppsList?
    private let bus: (@Sendable () -> MessageBus)?

    /// `intents`: the desktop's choices of intents, nil to leave the desktop's terminal out;
    /// `bus`: the session bus, made when the terminal is asked.
    package init(environment: Environment, fileSystem: FileSystem, intents: IntentAppsList?, bus: (@Sendable () -> MessageBus)?) {
        self.environment = environment
        self.fileSystem = fileSystem
        self.intents = intents
        self.bus = bus
    }

    package func choose() -> Choice? {
        var passedOver: [String] = []
        if let terminal = environment.value("TERMINAL") {
            let words = terminal.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            if let program = words.first {
                if isInstalled(program) { return Choice(route: .command(words + ["-e"]), reason: "$TERMINAL is '\(terminal)'") }
                passedOver.append("$TERMINAL's '\(program)' is not installed")
            }
        } else {
            passedOver.append("$TERMINAL is not set")
        }
        if let (entry, reason) = intents?.implementation(of: TerminalFinder.intent) {
            return Choice(route: .intent(entry), reason: (passedOver + [reason]).joined(separator: "; "))
        }
        passedOver.append("no terminal implements \(TerminalFinder.intent)")
        for command in [["xdg-terminal-exec"], ["x-terminal-emulator", "-e"]] {
            if isInstalled(command[0]) {
                return Choice(route: .command(command), reason: (passedOver + ["\(command[0]) is installed"]).joined(separator: "; "))
            }
            passedOver.append("\(command[0]) is not installed")
        }
        return nil
    }

    /// Asks the terminal over the session bus to run `argv` (byte strings, as the app gets
    /// them) in `workingDirectory` (its home when nil), with `environment` (`NAME=value`) added
    /// to its own, for the app whose entry is at `entryPath`, with the activation token. The
    /// terminal's bus name is its desktop ID without `.desktop`, its object path that name
    /// with `/` for `.` and `_` for `-` (Desktop Entry spec, "D-Bus Activation").
    package func launchCommand(
        in terminal: DesktopEntry, argv: [[UInt8]], workingDirectory: String?, entryPath: String, environment: [String],
        activationToken: String?
    ) throws(DBusError) {
        guard let bus else { throw DBusError(message: "no session bus") }
        let name = terminal.id.hasSuffix(".desktop") ? String(terminal.id.dropLast(".desktop".count)) : terminal.id
        let path = "/" + String(name.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
        var command: [(String, DBusValue)] = [("exec", .byteStrings(argv))]
        if let workingDirectory { command.append(("working_directory", .bytes(Array(workingDirectory.utf8) + [0]))) }
        if !environment.isEmpty { command.append(("env", .byteStrings(environment.map { Array($0.utf8) }))) }
        // Both names, as GIO passes a token in both variables: a Wayland and an X11 terminal each read theirs.
        let platform = activationToken.map { [("activation-token", DBusValue.string($0)), ("desktop-startup-id", .string($0))] } ?? []
        _ = try bus().call(
            DBusMethodCall(
                destination: name, path: path, interface: TerminalFinder.intent, member: "LaunchCommand",
                arguments: [
                    .array(elementSignature: "a{sv}", [.options(command)]), .bytes(Array(entryPath.utf8) + [0]), .options([]),
                    .options(platform),
                ]), timeout: TerminalFinder.timeout)
    }

    /// The terminal's own `Exec` (no URL, no file) and the argument before a command: its
    /// `X-TerminalArgExec` (xdg-terminal-exec's key, which terminals ship), else `-e`.
    package func execCommand(of terminal: DesktopEntry) throws(ChoosyError) -> [String] {
        guard let exec = terminal.exec, let commandLine = try? ExecCommandLine(parsing: exec) else {
            throw .launchFailed(singleLine("cannot start the terminal \(terminal.id): its Exec is missing or invalid"))
        }
        var argv = commandLine.expand(url: nil, icon: terminal.icon, name: terminal.name, entryPath: terminal.path)
        let argument = terminal.value("X-TerminalArgExec") ?? terminal.value("TerminalArgExec") ?? "-e"
        if !argument.isEmpty { argv.append(argument) }
        return argv
    }

    private func isInstalled(_ program: String) -> Bool {
        resolveExecutable(program, searchPath: environment.searchPath, fileSystem: fileSystem) != nil
    }
}
