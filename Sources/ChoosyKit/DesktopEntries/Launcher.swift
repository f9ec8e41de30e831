/// How an entry is started beyond its plain `Exec` (doc/profiles.md).
package struct LaunchForm: Equatable, Sendable {
    /// A profile's and a private window's arguments, in that order, or a new window's
    /// (`new_window_here`, doc/running.md) after a profile's, put where the URL goes.
    package var arguments: [String] = []
    /// The entry's action to run instead of its main `Exec` (a private window).
    package var action: DesktopAction?
    /// The path of the local file opened (`handle PATH`), whose name need not be UTF-8: an
    /// argument that is its text (`%f`) is passed as these bytes.
    package var localFile: [UInt8]?
}

/// Starts a desktop entry with a URL (doc/spec-choices.md, "Launching"): the `Exec` expanded into an argv, run directly
/// (never through a shell), detached in its own session with stdio on `/dev/null`, in the
/// entry's `Path` directory; `Terminal=true` apps inside a terminal emulator (`TerminalFinder`).
package struct Launcher: Sendable {
    private let environment: Environment
    private let runner: ProcessRunner
    private let fileSystem: FileSystem
    private let locale: DesktopLocale?
    private let diagnostics: DiagnosticSink?
    private let activation: ActivationToken?
    private let givenBytes: GivenBytes
    private let terminals: TerminalFinder?

    /// `activation`: the token the launched app gets when nothing used it before (doc/desktop.md);
    /// nil for launches that must not get one (callbacks). `givenBytes`: the command line's
    /// arguments that were not UTF-8, which reach the app as they were given. `terminals`: how
    /// a `Terminal=true` app is started (without one, as `TerminalFinder` does with no desktop
    /// terminal and no session bus).
    package init(
        environment: Environment, runner: ProcessRunner, fileSystem: FileSystem,
        diagnostics: DiagnosticSink? = nil, activation: ActivationToken? = nil, givenBytes: GivenBytes = .none,
        terminals: TerminalFinder? = nil
    ) {
        self.environment = environment
        self.runner = runner
        self.fileSystem = fileSystem
        self.locale = DesktopLocale.messages(in: environment)
        self.diagnostics = diagnostics
        self.activation = activation
        self.givenBytes = givenBytes
        self.terminals = terminals
    }

    private var terminalFinder: TerminalFinder {
        terminals ?? TerminalFinder(environment: environment, fileSystem: fileSystem, intents: nil, bus: nil)
    }

    /// The argv that `launch` would run, without running anything (for `--dry-run`): for an
    /// app that runs in a terminal, inside the terminal, or, when the desktop's terminal is
    /// asked over the session bus, the app's own (what the terminal runs).
    package func argv(for entry: DesktopEntry, url: String?, form: LaunchForm = LaunchForm()) throws(ChoosyError) -> [String] {
        let argv = try appArgv(for: entry, url: url, form: form)
        guard entry.runsInTerminal else { return argv }
        switch try terminal(for: entry).route {
        case .command(let terminal): return terminal + argv
        case .intent: return argv
        }
    }

    /// The entry's own argv. An entry whose `Exec` takes no URL gets none, except through an
    /// action (`form`), which gets it as its last argument: an action's `Exec` often leaves the
    /// URL out (`firefox --private-window`), yet it is the way to open it there.
    private func appArgv(for entry: DesktopEntry, url: String?, form: LaunchForm) throws(ChoosyError) -> [String] {
        let exec: String
        if let action = form.action {
            guard let actionExec = action.exec else { throw failure(entry, "its action '\(action.key)' has no Exec") }
            exec = actionExec
        } else {
            guard let entryExec = entry.exec else { throw failure(entry, "it has no Exec") }
            exec = entryExec
        }
        let commandLine: ExecCommandLine
        do {
            commandLine = try ExecCommandLine(parsing: exec)
        } catch {
            throw failure(entry, "invalid Exec\(form.action.map { " of its action '\($0.key)'" } ?? ""): \(error)")
        }
        if let url, !url.isEmpty, commandLine.takesOnlyFiles, ExecCommandLine.localPath(from: url) == nil {
            throw failure(entry, "it opens only local files, and '\(url.prefix(60))' is not one")
        }
        var argv = commandLine.expand(
            url: url, icon: entry.icon, name: entry.localizedValue("Name", for: locale), entryPath: entry.path,
            inserting: form.arguments
        )
        if form.action != nil, !commandLine.takesURL, let url, !url.isEmpty { argv.append(url) }
        return argv
    }

    /// The terminal a `Terminal=true` entry runs in, said under `-v` when `explaining`.
    private func terminal(for entry: DesktopEntry, explaining: Bool = true) throws(ChoosyError) -> TerminalFinder.Choice {
        guard let choice = terminalFinder.choose() else {
            throw failure(
                entry,
                "it runs in a terminal, and none was found ($TERMINAL, the desktop's terminal for org.freedesktop.Terminal1, xdg-terminal-exec, x-terminal-emulator)"
            )
        }
        if explaining { diagnostics?.explain("\(entry.id) runs in a terminal: \(choice.reason)") }
        return choice
    }

    /// Starts the entry and returns the argv it ran. Throws `.launchFailed` with a one-line
    /// reason when the process cannot be started (missing or non-executable program, missing
    /// working directory, no terminal).
    @discardableResult
    package func launch(_ entry: DesktopEntry, url: String?, form: LaunchForm = LaunchForm()) throws(ChoosyError) -> [String] {
        try launch(entry, argv: try argv(for: entry, url: url, form: form), url: url, localFile: form.localFile)
    }

    /// Starts the entry with the argv `argv(for:url:form:)` made for `url` (`localFile`: that
    /// form's). An app the desktop's terminal runs is asked of it over the session bus.
    @discardableResult
    package func launch(_ entry: DesktopEntry, argv: [String], url: String?, localFile: [UInt8]? = nil) throws(ChoosyError) -> [String] {
        var argv = argv
        var workingDirectory: String?
        if let path = entry.workingDirectory, !path.isEmpty {
            guard path.hasPrefix("/"), fileSystem.info(path)?.kind == .directory else {
                throw failure(entry, "its working directory '\(path)' does not exist")
            }
            workingDirectory = path
        }
        // As GIO's launcher: the app learns its own entry, and the pid of the process started
        // (the terminal or wrapper when there is one); nothing of choosy's own launch is left.
        // Byte for byte: the variables given as bytes that are not UTF-8 stay so (doc/security.md).
        var variables = environment
        for name in ActivationToken.launchVariables { variables[name] = nil }
        variables["GIO_LAUNCHED_DESKTOP_FILE"] = entry.path
        variables[LinkHandoff.variable] = url.map(LinkHandoff.mark)
        // `argv` holds the terminal the app runs in, but for the desktop's terminal, which is asked over the bus.
        if entry.runsInTerminal, case .intent(let terminal) = try self.terminal(for: entry, explaining: false).route {
            let added = ["GIO_LAUNCHED_DESKTOP_FILE", LinkHandoff.variable].compactMap { name in variables[name].map { "\(name)=\($0)" } }
            // A D-Bus string is UTF-8: the token's text (a token is ASCII).
            var token = Environment([:])
            let lent = activation?.lend(into: &token) == true
            let exact = exactBytes(of: argv, localFile: localFile)
            do {
                try terminalFinder.launchCommand(
                    in: terminal, argv: argv.indices.map { exact[$0] ?? Array(argv[$0].utf8) },
                    workingDirectory: workingDirectory, entryPath: entry.path, environment: added,
                    activationToken: token.variables[ActivationToken.variables[0]])
                if lent { activation?.markUsed() }
                diagnostics?.explain("\(terminal.id) runs it: asked over the session bus (org.freedesktop.Terminal1.LaunchCommand)")
                warnIfNoDisplay(entry)
                return argv
            } catch {
                diagnostics?.explain("\(terminal.id) cannot be asked over the session bus (\(error)): running its Exec")
                argv = try terminalFinder.execCommand(of: terminal) + argv
            }
        }
        activation?.pass(into: &variables)
        var request = ProcessRequest(
            argv: argv, environment: variables, workingDirectory: workingDirectory,
            stdout: .discard, stderr: .discard
        )
        request.ownPIDVariable = "GIO_LAUNCHED_DESKTOP_FILE_PID"
        request.argumentBytes = exactBytes(of: argv, localFile: localFile)
        do {
            try runner.spawnDetached(request)
        } catch {
            throw failure(entry, error.description)
        }
        // The start succeeded, but a window (a terminal's too) with nowhere to show fails out of sight.
        warnIfNoDisplay(entry, terminal: entry.runsInTerminal ? argv[0] : nil)
        return argv
    }

    /// The arguments of `argv` that reach the app as other bytes than their UTF-8: the command
    /// line's arguments that were not UTF-8, and the local file's path.
    private func exactBytes(of argv: [String], localFile: [UInt8]?) -> [Int: [UInt8]] {
        var exact = givenBytes.originals(in: argv)
        if let path = localFile {
            let text = String(decoding: path, as: UTF8.self)
            for (index, argument) in argv.enumerated() where argument == text && !text.utf8.elementsEqual(path) { exact[index] = path }
        }
        return exact
    }

    /// The start succeeded, but a window (a terminal's too) with nowhere to show fails out of sight.
    /// `terminal`: the program of the terminal the app was started in, which may draw on one
    /// kind of display only (`TerminalEmulator`).
    private func warnIfNoDisplay(_ entry: DesktopEntry, terminal: String? = nil) {
        if environment.value("DISPLAY") == nil && environment.value("WAYLAND_DISPLAY") == nil {
            let kind = entry.runsInTerminal ? "an app that runs in a terminal" : "a graphical app"
            diagnostics?.warning(
                "started \(entry.id), \(kind), but neither DISPLAY nor WAYLAND_DISPLAY is set: it may not be able to show itself")
        } else if let terminal, let missing = TerminalEmulator.missingDisplay(of: terminal, in: environment, fileSystem: fileSystem) {
            diagnostics?.warning("started \(entry.id), an app that runs in a terminal, but \(missing): it may not be able to show itself")
        }
    }

    private func failure(_ entry: DesktopEntry, _ reason: String) -> ChoosyError {
        .launchFailed(singleLine("cannot launch \(entry.id): \(reason)"))
    }
}
