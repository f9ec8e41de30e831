/// How an entry is started beyond its plain `Exec` (doc/profiles.md).
package struct LaunchForm: Equatable, Sendable {
    /// A profile's and a private window's arguments, in that order, or a new window's
    /// (`new_window_here`, doc/running.md) after a profile's, put where the URL goes.
    package var arguments: [String] = []
    /// The entry's action to run instead of its main `Exec` (a private window).
    package var action: DesktopAction?
}

/// Starts a desktop entry with a URL (doc/spec-choices.md, "Launching"): the `Exec` expanded into an argv, run directly
/// (never through a shell), detached in its own session with stdio on `/dev/null`, in the
/// entry's `Path` directory; `Terminal=true` apps inside a terminal emulator.
package struct Launcher: Sendable {
    private let environment: Environment
    private let runner: ProcessRunner
    private let fileSystem: FileSystem
    private let locale: DesktopLocale?
    private let diagnostics: DiagnosticSink?
    private let activation: ActivationToken?
    private let givenBytes: GivenBytes

    /// `activation`: the token the launched app gets when nothing used it before (doc/desktop.md);
    /// nil for launches that must not get one (callbacks). `givenBytes`: the command line's
    /// arguments that were not UTF-8, which reach the app as they were given.
    package init(
        environment: Environment, runner: ProcessRunner, fileSystem: FileSystem,
        diagnostics: DiagnosticSink? = nil, activation: ActivationToken? = nil, givenBytes: GivenBytes = .none
    ) {
        self.environment = environment
        self.runner = runner
        self.fileSystem = fileSystem
        self.locale = DesktopLocale.messages(in: environment)
        self.diagnostics = diagnostics
        self.activation = activation
        self.givenBytes = givenBytes
    }

    /// The argv that `launch` would run, without running anything (for `--dry-run`). An entry
    /// whose `Exec` takes no URL gets none, except through an action (`form`), which gets it
    /// as its last argument: an action's `Exec` often leaves the URL out
    /// (`firefox --private-window`), yet it is the way to open it there.
    package func argv(for entry: DesktopEntry, url: String?, form: LaunchForm = LaunchForm()) throws(ChoosyError) -> [String] {
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
        guard entry.runsInTerminal else { return argv }
        guard let terminal = terminalCommand() else {
            throw failure(entry, "it runs in a terminal, and none was found ($TERMINAL, xdg-terminal-exec, x-terminal-emulator)")
        }
        return terminal + argv
    }

    /// Starts the entry and returns the argv it ran. Throws `.launchFailed` with a one-line
    /// reason when the process cannot be started (missing or non-executable program, missing
    /// working directory, no terminal).
    @discardableResult
    package func launch(_ entry: DesktopEntry, url: String?, form: LaunchForm = LaunchForm()) throws(ChoosyError) -> [String] {
        try launch(entry, argv: try argv(for: entry, url: url, form: form), url: url)
    }

    /// Starts the entry with the argv `argv(for:url:form:)` made for `url`.
    @discardableResult
    package func launch(_ entry: DesktopEntry, argv: [String], url: String?) throws(ChoosyError) -> [String] {
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
        activation?.pass(into: &variables)
        var request = ProcessRequest(
            argv: argv, environment: variables, workingDirectory: workingDirectory,
            stdout: .discard, stderr: .discard
        )
        request.ownPIDVariable = "GIO_LAUNCHED_DESKTOP_FILE_PID"
        request.argumentBytes = givenBytes.originals(in: argv)
        do {
            try runner.spawnDetached(request)
        } catch {
            throw failure(entry, error.description)
        }
        // The start succeeded, but a window (a terminal's too) with nowhere to show fails out of sight.
        if environment.value("DISPLAY") == nil && environment.value("WAYLAND_DISPLAY") == nil {
            let kind = entry.runsInTerminal ? "an app that runs in a terminal" : "a graphical app"
            diagnostics?.warning(
                "started \(entry.id), \(kind), but neither DISPLAY nor WAYLAND_DISPLAY is set: it may not be able to show itself")
        } else if entry.runsInTerminal, let missing = TerminalEmulator.missingDisplay(of: argv[0], in: environment, fileSystem: fileSystem)
        {
            diagnostics?.warning("started \(entry.id), an app that runs in a terminal, but \(missing): it may not be able to show itself")
        }
        return argv
    }

    /// The terminal and its arguments to put before the app's argv: `$TERMINAL` (split on
    /// whitespace) with `-e`, else `xdg-terminal-exec` (which takes the command as is), else
    /// `x-terminal-emulator -e`; the first whose program is on `PATH`.
    private func terminalCommand() -> [String]? {
        var candidates: [[String]] = []
        if let terminal = environment.value("TERMINAL") {
            let words = terminal.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            if !words.isEmpty { candidates.append(words + ["-e"]) }
        }
        candidates.append(["xdg-terminal-exec"])
        candidates.append(["x-terminal-emulator", "-e"])
        return candidates.first { resolveExecutable($0[0], searchPath: environment.searchPath, fileSystem: fileSystem) != nil }
    }

    private func failure(_ entry: DesktopEntry, _ reason: String) -> ChoosyError {
        .launchFailed(singleLine("cannot launch \(entry.id): \(reason)"))
    }
}
