/// What routing a URL came to: the callback to open next and the exit status.
package struct RouteResult: Equatable, Sendable {
    /// What could be parsed of the request (nil when the URL was not one at all).
    package var request: XCallbackRequest?
    /// The callback to open, or nil when the request named none for this outcome.
    package var callbackURL: String?
    /// 0 success, 5 cancel, the handler's code on failure, 2 for routing errors.
    package var status: Int32
    /// What went wrong, for stderr; nil on success and cancel.
    package var message: String?

    package init(request: XCallbackRequest?, callbackURL: String?, status: Int32, message: String? = nil) {
        self.request = request
        self.callbackURL = callbackURL
        self.status = status
        self.message = message
    }
}

/// Routes x-callback-url requests to handlers by action, for any of several schemes, after
/// BFGCallbackRouter, and turns each outcome into the callback URL to open.
package struct CallbackRouter {
    package typealias Handler = (XCallbackRequest) -> CallbackOutcome

    /// The schemes this router answers, compared case-insensitively.
    package let schemes: Set<String>
    private var handlers: [String: Handler] = [:]
    /// Asked for actions without a handler; nil leaves the action unknown (402). This is how
    /// custom-action scripts claim actions.
    package var fallback: ((XCallbackRequest) -> CallbackOutcome?)?

    package init(schemes: some Sequence<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
    }

    /// Handles `action` (matched exactly) for every scheme; registering it again replaces the handler.
    package mutating func register(action: String, handler: @escaping Handler) {
        handlers[action] = handler
    }

    /// The actions with a handler, sorted.
    package var actions: [String] { handlers.keys.sorted() }

    /// Parses `url`, runs its handler and says which callback to open. Every callback the
    /// request names is checked before anything runs: a request carrying a `javascript:`
    /// callback is forged, so its action must not happen either.
    package func route(_ url: String) -> RouteResult {
        let request: XCallbackRequest
        do {
            request = try XCallbackRequest.parse(url, schemes: schemes)
        } catch {
            return routingFailure(error)
        }
        for callback in [request.successURL, request.errorURL, request.cancelURL].compactMap({ $0 }) {
            do {
                _ = try CallbackURLBuilder.checked(callback)
            } catch {
                return routingFailure(XCallbackError(code: .badRequest, message: error.description, request: request))
            }
        }

        let outcome: CallbackOutcome
        if let handler = handlers[request.action] {
            outcome = handler(request)
        } else if let claimed = fallback?(request) {
            outcome = claimed
        } else {
            let known = actions.isEmpty ? "" : " (known actions: \(actions.joined(separator: ", ")))"
            return routingFailure(
                XCallbackError(code: .unknownAction, message: "unknown action '\(request.action)'\(known)", request: request))
        }

        switch outcome {
        case .success(let parameters):
            let callback = request.successURL.flatMap { try? CallbackURLBuilder.success($0, adding: parameters) }
            return RouteResult(request: request, callbackURL: callback, status: 0)
        case .cancel:
            let callback = request.cancelURL.flatMap { try? CallbackURLBuilder.cancel($0) }
            return RouteResult(request: request, callbackURL: callback, status: ExitStatus.noChoice.rawValue)
        case .failure(let code, let message):
            let callback = request.errorURL.flatMap { try? CallbackURLBuilder.error($0, code: Int(code), message: message) }
            // An exit status must be 1...255; other codes still reach x-error as they are.
            let status = (1...255).contains(code) ? code : ExitStatus.internalError.rawValue
            return RouteResult(request: request, callbackURL: callback, status: status, message: message)
        }
    }

    private func routingFailure(_ error: XCallbackError) -> RouteResult {
        var callback: String?
        var message = error.message
        if let errorURL = error.request?.errorURL {
            do {
                callback = try CallbackURLBuilder.error(errorURL, code: Int(error.code.rawValue), message: error.message)
            } catch let refusal {
                // Say why no x-error is opened, unless that refusal is the error itself.
                if !message.contains(refusal.description) { message += "; \(refusal.description)" }
            }
        }
        return RouteResult(request: error.request, callbackURL: callback, status: ExitStatus.usage.rawValue, message: message)
    }
}
