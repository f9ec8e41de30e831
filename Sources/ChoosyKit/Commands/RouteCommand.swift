/// `choosy route URL`: answers an x-callback-url request (doc/hooks-and-callbacks.md, "choosy route").
struct RouteCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.opening(
        "route", "answer an x-callback-url",
        help:
            "Answers an x-callback-url (choosy://x-callback-url/ACTION?…): open, url, reset, default, list, or a custom action script; then opens x-success, x-error or x-cancel."
    )

    let url: String

    init(_ line: ParsedCommandLine) { url = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let options = context.options.open
        return Self.output(of: try Self.routeKept(url, options: options, in: context.choosy()), dryRun: options.dryRun)
    }

    /// `route` of a link given to `route`, `handle` or `again` (`source`: the one the history
    /// kept): answered, and kept in the history whatever became of it (SPEC §6.1).
    static func routeKept(_ url: String, options: OpenOptions, source: String? = nil, in choosy: Choosy) throws(ChoosyError) -> RouteReport
    {
        let opened = OpenedByRoute()
        let report: RouteReport
        do {
            report = try route(url, options: options, opened: opened, in: choosy)
        } catch {
            HistoryCommand.keep(url, command: .route, .failure(error), options: options, source: source, in: choosy)
            throw error
        }
        let status = report.result.status
        let outcome: Result<OpenResult, ChoosyError> =
            opened.result
            ?? (status == 0
                ? .success(OpenResult(type: "", action: nil, app: "", url: nil, argv: [], desktopID: nil))
                : .failure(ChoosyError(ExitStatus(rawValue: status) ?? .usage, report.result.message ?? "")))
        HistoryCommand.keep(url, command: .route, outcome, options: options, source: source, in: choosy)
        return report
    }

    /// What route says: the callback it would open in a dry run, why it failed on stderr; and
    /// its status as the exit status.
    static func output(of report: RouteReport, dryRun: Bool) -> CommandOutput {
        let result = report.result
        var output = CommandOutput(status: result.status)
        if dryRun, let callback = result.callbackURL { output.standardOutput = callback + "\n" }
        if let message = result.message { output.standardError = "choosy: \(singleLine(message))\n" }
        return output
    }

    /// Built-in actions `open`, `url`, `reset`, `default` and `list`; any other action runs
    /// the user's custom action script, if any. The resulting callback is opened through the
    /// system's handler for its scheme, never through choosy. Also `handle`'s choosy: links.
    static func route(_ url: String, options: OpenOptions, opened: OpenedByRoute? = nil, in choosy: Choosy) throws(ChoosyError)
        -> RouteReport
    {
        var router = CallbackRouter(schemes: ["choosy"] + choosy.configuration().schemes)
        // Why a choice was cancelled, for stderr (x-cancel carries no reason).
        let cancelled = CancelReason()
        router.register(action: "open") { request in
            outcome(cancelled) { () throws(ChoosyError) in
                do throws(ChoosyError) {
                    let result = try choosy.actionOpener().open(openRequest(request, options: options, purpose: .launch))
                    opened?.result = .success(result)
                    return [("app", result.app)]
                } catch {
                    opened?.result = .failure(error)
                    throw error
                }
            }
        }
        router.register(action: "url") { request in
            outcome(cancelled) { () throws(ChoosyError) in
                let result = try choosy.actionOpener().open(openRequest(request, options: options, purpose: .url))
                return [("app", result.app), ("url", result.url ?? "")]
            }
        }
        router.register(action: "reset") { request in
            outcome(cancelled) { () throws(ChoosyError) in
                try ResetCommand.forget(try required("type", in: request), in: choosy)
                return []
            }
        }
        router.register(action: "default") { request in
            outcome(cancelled) { () throws(ChoosyError) in
                let type = try required("type", in: request)
                if let app = request.parameters["app"] { try DefaultCommand.setDefault(type, app: app, in: choosy) }
                return [("app", try DefaultCommand.defaultApp(type, in: choosy) ?? "")]
            }
        }
        router.register(action: "list") { request in
            outcome(cancelled) { () throws(ChoosyError) in
                if let type = request.parameters["type"] {
                    let listing = try ListCommand.listings(type, in: choosy)
                    return [("apps", listing.flatMap(\.apps).filter { $0.installed != nil }.map(\.app.key).joined(separator: ","))]
                }
                return [("types", try choosy.catalog().summaries().map(\.key).joined(separator: ","))]
            }
        }
        let hooks = choosy.hookRunner()
        router.fallback = { request in hooks.runCustomAction(request.action, parameters: request.parameters) }

        var result = router.route(url)
        if result.status == ExitStatus.noChoice.rawValue && result.message == nil {
            result.message = cancelled.message
        }
        var argv: [String] = []
        if let callback = result.callbackURL {
            if options.dryRun {
                choosy.diagnostics.explain("dry run: not opening \(callback)")
            } else {
                argv = try openCallback(callback, in: choosy)
            }
        }
        return RouteReport(result: result, callbackArgv: argv)
    }

    private static func openRequest(_ request: XCallbackRequest, options: OpenOptions, purpose: OpenRequest.Purpose) throws(ChoosyError)
        -> OpenRequest
    {
        var parameters = request.parameters
        let type = try required("type", in: request)
        parameters["type"] = nil
        let action = parameters.removeValue(forKey: "action")
        var options = options
        if let app = parameters.removeValue(forKey: "app") { options.app = app }
        if purpose == .url && action == nil { throw .usage("url needs the parameter 'action'") }
        return OpenRequest(
            type: type, action: action, parameters: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            options: options, purpose: purpose
        )
    }

    private static func required(_ name: String, in request: XCallbackRequest) throws(ChoosyError) -> String {
        guard let value = request.parameters[name], !value.isEmpty else {
            throw .usage("\(request.action) needs the parameter '\(name)'")
        }
        return value
    }

    /// A cancelled choice is x-cancel; any other error is x-error with its exit status.
    private static func outcome(_ cancelled: CancelReason, _ body: () throws(ChoosyError) -> [(String, String)]) -> CallbackOutcome {
        do {
            return .success(try body())
        } catch {
            if error.status == .noChoice {
                cancelled.message = error.message
                return .cancel
            }
            return .failure(code: error.status.rawValue, message: error.message)
        }
    }

    /// Opens a callback URL with the system's default handler for its scheme, which is never
    /// choosy itself, and without the activation token: the callback is no app the user asked for.
    private static func openCallback(_ url: String, in choosy: Choosy) throws(ChoosyError) -> [String] {
        let diagnostics = choosy.diagnostics
        guard let scheme = URLParts(url)?.scheme.lowercased() else { return [] }
        guard let entry = choosy.probe().mimeApps.associations(forScheme: scheme).defaultEntry else {
            diagnostics.warning("no app handles \(scheme): links, so the callback \(url) was not opened")
            return []
        }
        diagnostics.explain("opening the callback with \(entry.id)")
        return try choosy.callbackLauncher().launch(entry, url: url)
    }
}

/// What `choosy route` did: the routing result, and whether its callback was opened.
package struct RouteReport: Sendable {
    package var result: RouteResult
    /// The argv that opened the callback (empty in a dry run or when none was opened).
    package var callbackArgv: [String]
}

/// What route's `open` action did, for the history.
final class OpenedByRoute {
    var result: Result<OpenResult, ChoosyError>?
}

private final class CancelReason {
    var message: String?
}
