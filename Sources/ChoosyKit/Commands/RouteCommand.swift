/// What `choosy route` did: the routing result, and whether its callback was opened.
package struct RouteReport: Sendable {
    package var result: RouteResult
    /// The argv that opened the callback (empty in a dry run or when none was opened).
    package var callbackArgv: [String]
}

extension Choosy {
    /// `choosy route URL`: an x-callback-url request (README, "choosy route"). Built-in actions `open`,
    /// `url`, `reset`, `default` and `list`; any other action runs the user's custom action
    /// script, if any. The resulting callback is opened through the system's handler for its
    /// scheme, never through choosy.
    package func route(_ url: String, options: OpenOptions) throws(ChoosyError) -> RouteReport {
        var router = CallbackRouter(schemes: ["choosy"] + configuration().schemes)
        // Why a choice was cancelled, for stderr (x-cancel carries no reason).
        let cancelled = CancelReason()
        router.register(action: "open") { request in
            self.outcome(cancelled) { () throws(ChoosyError) in
                let result = try self.open(self.openRequest(request, options: options, purpose: .launch))
                return [("app", result.app)]
            }
        }
        router.register(action: "url") { request in
            self.outcome(cancelled) { () throws(ChoosyError) in
                let result = try self.open(self.openRequest(request, options: options, purpose: .url))
                return [("app", result.app), ("url", result.url ?? "")]
            }
        }
        router.register(action: "reset") { request in
            self.outcome(cancelled) { () throws(ChoosyError) in
                try self.reset(try self.required("type", in: request))
                return []
            }
        }
        router.register(action: "default") { request in
            self.outcome(cancelled) { () throws(ChoosyError) in
                let type = try self.required("type", in: request)
                if let app = request.parameters["app"] { try self.setDefaultApp(type, app: app) }
                return [("app", try self.defaultApp(type) ?? "")]
            }
        }
        router.register(action: "list") { request in
            self.outcome(cancelled) { () throws(ChoosyError) in
                if let type = request.parameters["type"] {
                    let listing = try self.list(type)
                    return [("apps", listing.flatMap(\.apps).filter { $0.installed != nil }.map(\.app.key).joined(separator: ","))]
                }
                return [("types", try self.catalog().summaries().map(\.key).joined(separator: ","))]
            }
        }
        let hooks = hookRunner()
        router.fallback = { request in
            switch hooks.runCustomAction(request.action, parameters: request.parameters) {
            case .success(let parameters)?: .success(parameters)
            case .failure(let code, let message)?: .failure(code: code, message: message)
            case nil: nil
            }
        }

        var result = router.route(url)
        if result.status == ExitStatus.noChoice.rawValue && result.message == nil {
            result.message = cancelled.message
        }
        var argv: [String] = []
        if let callback = result.callbackURL {
            if options.dryRun {
                diagnostics.explain("dry run: not opening \(callback)")
            } else {
                argv = try openCallback(callback)
            }
        }
        return RouteReport(result: result, callbackArgv: argv)
    }

    private func openRequest(_ request: XCallbackRequest, options: OpenOptions, purpose: OpenRequest.Purpose) throws(ChoosyError) -> OpenRequest {
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

    private func required(_ name: String, in request: XCallbackRequest) throws(ChoosyError) -> String {
        guard let value = request.parameters[name], !value.isEmpty else {
            throw .usage("\(request.action) needs the parameter '\(name)'")
        }
        return value
    }

    /// A cancelled choice is x-cancel; any other error is x-error with its exit status.
    private func outcome(_ cancelled: CancelReason, _ body: () throws(ChoosyError) -> [(String, String)]) -> CallbackOutcome {
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
    /// choosy itself.
    private func openCallback(_ url: String) throws(ChoosyError) -> [String] {
        guard let scheme = URLParts(url)?.scheme.lowercased() else { return [] }
        guard let entry = probe().mimeApps.associations(forScheme: scheme).defaultEntry else {
            diagnostics.warning("no app handles \(scheme): links, so the callback \(url) was not opened")
            return []
        }
        diagnostics.explain("opening the callback with \(entry.id)")
        return try Launcher(environment: environment, runner: runner, fileSystem: fileSystem, diagnostics: diagnostics).launch(entry, url: url)
    }
}

private final class CancelReason {
    var message: String?
}
