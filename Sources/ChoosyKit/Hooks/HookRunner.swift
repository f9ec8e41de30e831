import Glibc

/// Runs the user's scripts routed by convention (doc/hooks-and-callbacks.md, "Hooks", after KNMSegueRouting): prepare
/// hooks `$XDG_CONFIG_HOME/choosy/hooks/prepareFor<Symbol>` before a launch, custom actions
/// `$XDG_CONFIG_HOME/choosy/actions/<Symbol>` for `route`, and `--configure CMD`.
///
/// Contract for every script: argv only (no shell, except `--configure`, which is a shell
/// command by definition); the caller's environment plus `CHOOSY_TYPE`, `CHOOSY_ACTION`,
/// `CHOOSY_APP` and `CHOOSY_PARAM_<KEY>`; stdin from /dev/null; `KEY=VALUE` lines on stdout
/// replace or add parameters (`KEY=` empties one, which drops it from URLs); other lines are
/// ignored. Each output stream is kept up to `HookOutput.limit` bytes. A script that runs past
/// the time limit is killed with its process group; one that exits has what it left running
/// in its group ended, and choosy does not wait for children that still hold its output.
///
/// Parameter keys become variable names by uppercasing ASCII letters and turning every byte
/// outside `A-Z 0-9 _` into `_` (`x-source` → `CHOOSY_PARAM_X_SOURCE`). When two keys map to
/// the same name the first in sorted order is passed and the other is left out (`-v` says so);
/// so is a key or value holding a NUL byte, which no environment can carry.
package struct HookRunner: Sendable {
    package static let defaultTimeout: Double = 10
    /// The exit status a timed-out custom action reports, as GNU `timeout` does.
    package static let timeoutStatus: Int32 = 124
    /// The exit status of a custom action that could not be started, as shells report it.
    package static let cannotStartStatus: Int32 = 126

    private let environment: Environment
    private let diagnostics: DiagnosticSink
    private let processRunner: ProcessRunner
    private let fileSystem: FileSystem
    private let timeout: Double
    private let userID: UInt32

    package init(
        environment: Environment, diagnostics: DiagnosticSink,
        processRunner: ProcessRunner, fileSystem: FileSystem,
        timeout: Double = HookRunner.defaultTimeout, userID: UInt32 = getuid()
    ) {
        self.environment = environment
        self.diagnostics = diagnostics
        self.processRunner = processRunner
        self.fileSystem = fileSystem
        self.timeout = timeout
        self.userID = userID
    }

    package var hooksDirectory: String { joinPath(environment.configHome, "choosy", "hooks") }
    package var actionsDirectory: String { joinPath(environment.configHome, "choosy", "actions") }

    /// `hooks/prepareFor<symbolify("<type name> <action name>")>`, or nil when nothing of the
    /// names survives symbolify (nothing routes).
    package func prepareHookPath(typeName: String, actionName: String) -> String? {
        let symbol = symbolify("\(typeName) \(actionName)")
        return symbol.isEmpty ? nil : joinPath(hooksDirectory, "prepareFor" + symbol)
    }

    /// `actions/<symbolify(action)>`, or nil when the action symbolifies to nothing.
    package func customActionPath(_ action: String) -> String? {
        let symbol = symbolify(action)
        return symbol.isEmpty ? nil : joinPath(actionsDirectory, symbol)
    }

    /// Runs `--configure CMD` (through `/bin/sh -c`), then the prepare hook for the context,
    /// each seeing the parameters the one before left. A non-zero exit, a timeout or a
    /// failure to start cancels. A hook refused for its ownership or permissions is skipped
    /// with a warning, as if absent.
    package func prepare(_ context: HookContext, configure command: String? = nil) -> PrepareResult {
        var parameters = context.parameters
        func variables() -> Environment {
            hookEnvironment(type: context.typeKey, action: context.actionKey, app: context.appKey, parameters: parameters)
        }

        if let command {
            diagnostics.explain("running --configure command: \(command)")
            let name = "--configure command"
            switch run(["/bin/sh", "-c", command], environment: variables(), name: name) {
            case .success(let assignments): apply(assignments, to: &parameters, from: name)
            case .exited(let status, let line): return .cancel(cancelReason(name, status, line))
            case .failed(let reason, _): return .cancel(reason)
            }
        }

        guard let path = prepareHookPath(typeName: context.typeName, actionName: context.actionName) else {
            diagnostics.explain("no prepare hook: '\(context.typeName) \(context.actionName)' has no symbol characters")
            return .proceed(parameters)
        }
        diagnostics.explain("looking for prepare hook \(path)")
        guard usableScript(at: path, kind: "hook") else { return .proceed(parameters) }
        diagnostics.explain("running prepare hook \(path)")
        let name = "hook \(baseName(path))"
        switch run([path], environment: variables(), name: name) {
        case .success(let assignments): apply(assignments, to: &parameters, from: name)
        case .exited(let status, let line): return .cancel(cancelReason(name, status, line))
        case .failed(let reason, _): return .cancel(reason)
        }
        return .proceed(parameters)
    }

    /// Runs the custom action script for `action`, or returns nil when there is none (or it
    /// was refused), so the router reports the action as unknown. Exit 0 is success with the
    /// script's `KEY=VALUE` lines as x-success parameters; any other status is a failure with
    /// that code and the first line of its stderr.
    package func runCustomAction(_ action: String, parameters: [String: String]) -> CallbackOutcome? {
        guard let path = customActionPath(action) else {
            diagnostics.explain("no custom action: '\(action)' has no symbol characters")
            return nil
        }
        diagnostics.explain("looking for custom action \(path)")
        guard usableScript(at: path, kind: "custom action") else { return nil }
        diagnostics.explain("running custom action \(path)")
        let environment = hookEnvironment(type: nil, action: action, app: nil, parameters: parameters)
        // Messages name the action, not the path: they go back to the calling app in x-error.
        let name = "custom action '\(action)'"
        switch run([path], environment: environment, name: name) {
        case .success(let assignments): return .success(assignments)
        case .exited(let status, let line): return .failure(code: status, message: line ?? "\(name) exited with status \(status)")
        case .failed(let reason, let status): return .failure(code: status, message: reason)
        }
    }

    // MARK: Finding scripts

    /// Whether the script at `path` exists and may run; says why not (a warning for a file the
    /// user put there that is refused, an explanation for one that is simply absent).
    private func usableScript(at path: String, kind: String) -> Bool {
        guard let info = fileSystem.info(path) else {
            diagnostics.explain("no \(kind) at \(path)")
            return false
        }
        // Anyone who can write the script (or replace a file that is not ours) could run code
        // as this user whenever a link is opened.
        let problem: String? =
            if info.kind != .regular { "it is not a regular file" } else if info.owner != userID {
                "it is owned by uid \(info.owner), not by you (uid \(userID))"
            } else if info.permissions & 0o022 != 0 {
                "it is writable by group or others (mode \(String(info.permissions, radix: 8))); run: chmod go-w \(path)"
            } else if !fileSystem.isExecutable(path) { "it is not executable; run: chmod u+x \(path)" } else { nil }
        if let problem {
            diagnostics.warning("refusing \(kind) \(path): \(problem)")
            return false
        }
        return true
    }

    // MARK: Running scripts

    private enum Run {
        case success([(String, String)])
        /// A non-zero exit, with the first line of stderr.
        case exited(Int32, String?)
        /// Could not start, or timed out: why, and the status to report (126 or 124).
        case failed(String, Int32)
    }

    private func run(_ argv: [String], environment: Environment, name: String) -> Run {
        let request = ProcessRequest(
            argv: argv, environment: environment, stdout: .capture, stderr: .capture,
            timeout: timeout, ownProcessGroup: true, outputLimit: HookOutput.limit
        )
        let result: ProcessResult
        do {
            result = try processRunner.run(request)
        } catch {
            return .failed("\(name) cannot be started: \(error.reason)", HookRunner.cannotStartStatus)
        }
        if let streams = HookOutput.truncatedStreams(stdout: result.stdoutTruncated, stderr: result.stderrTruncated) {
            diagnostics.warning("\(name) wrote more than \(HookOutput.limit >> 20) MiB on \(streams); the rest was discarded")
        }
        if result.timedOut {
            return .failed("\(name) timed out after \(formatSeconds(timeout)) s", HookRunner.timeoutStatus)
        }
        guard result.status == 0 else {
            let firstLine = String(decoding: result.stderr, as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init)
            diagnostics.explain("\(name) exited with status \(result.status)")
            return .exited(result.status, firstLine)
        }
        diagnostics.explain("\(name) exited with status 0")
        return .success(HookOutput.assignments(in: result.stdout, truncated: result.stdoutTruncated))
    }

    private func apply(_ assignments: [(String, String)], to parameters: inout [String: String], from name: String) {
        for (key, value) in assignments { parameters[key] = value }
        if !assignments.isEmpty {
            diagnostics.explain("\(name) set \(assignments.map(\.0).joined(separator: ", "))")
        }
    }

    /// The caller's environment without any inherited choosy hook variables (a hook run from
    /// inside another must not see its parent's parameters), plus this run's.
    private func hookEnvironment(type: String?, action: String, app: String?, parameters: [String: String]) -> Environment {
        var variables = environment
        variables.variables = variables.variables.filter { name, _ in
            !name.hasPrefix("CHOOSY_PARAM_") && !["CHOOSY_TYPE", "CHOOSY_ACTION", "CHOOSY_APP"].contains(name)
        }
        variables["CHOOSY_TYPE"] = type
        variables["CHOOSY_ACTION"] = action
        variables["CHOOSY_APP"] = app
        for (key, value) in parameters.sorted(by: { $0.key < $1.key }) {
            let name = "CHOOSY_PARAM_" + environmentName(key)
            guard !key.utf8.contains(0), !value.utf8.contains(0) else {
                diagnostics.explain("parameter '\(key)' holds a NUL byte; not passed to the hook")
                continue
            }
            guard variables[name] == nil else {
                diagnostics.explain("parameter '\(key)' would also be \(name); not passed to the hook")
                continue
            }
            variables[name] = value
        }
        return variables
    }

    private func environmentName(_ key: String) -> String {
        String(
            decoding: key.utf8.map { byte -> UInt8 in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 0x20
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): byte
                default: UInt8(ascii: "_")
                }
            }, as: UTF8.self)
    }

    private func cancelReason(_ name: String, _ status: Int32, _ firstErrorLine: String?) -> String {
        "\(name) exited with status \(status)" + (firstErrorLine.map { ": \($0)" } ?? "")
    }

    private func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
