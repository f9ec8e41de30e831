/// An x-callback-url 1.0 request (`<scheme>://x-callback-url/<action>?x-source=…&x-success=…
/// &x-error=…&x-cancel=…&<params>`), parsed after BFGCallback.
///
/// Parsing is strict: a key or value with invalid percent-encoding or invalid UTF-8 rejects
/// the request with 400, because guessing what a malformed request meant could run the
/// wrong action or send its result to the wrong place.
package struct XCallbackRequest: Equatable, Sendable {
    /// The full URL that was routed.
    package var url: String
    /// The scheme, lowercased.
    package var scheme: String
    /// The percent-decoded path without its leading and trailing `/`.
    package var action: String
    package var source: String?
    /// Nil when absent or empty (`x-success=` asks for no callback).
    package var successURL: String?
    package var errorURL: String?
    package var cancelURL: String?
    /// Every parameter whose name does not start with `x-`; a repeated name keeps its last value.
    package var parameters: [String: String]

    package init(
        url: String, scheme: String, action: String, source: String? = nil, successURL: String? = nil,
        errorURL: String? = nil, cancelURL: String? = nil, parameters: [String: String] = [:]
    ) {
        self.url = url
        self.scheme = scheme
        self.action = action
        self.source = source
        self.successURL = successURL
        self.errorURL = errorURL
        self.cancelURL = cancelURL
        self.parameters = parameters
    }

    /// The request `url` makes to an app registered for `schemes` (matched case-insensitively).
    /// Whether its action exists is the router's decision (402).
    package static func parse(_ url: String, schemes: Set<String>) throws(XCallbackError) -> XCallbackRequest {
        guard let parts = URLParts(url) else {
            throw XCallbackError(code: .badRequest, message: "'\(url)' is not a URL")
        }
        // Reserved `x-` names are read first so that even a rejected request can report to x-error.
        var request = XCallbackRequest(url: url, scheme: parts.scheme.lowercased(), action: "")
        var malformed: Substring?
        var seen: Set<String> = []
        for (rawName, rawValue) in parts.queryItems {
            guard let name = PercentEncoding.decode(rawName),
                let value = PercentEncoding.decode(rawValue ?? "")
            else {
                malformed = malformed ?? rawName
                continue
            }
            guard name.hasPrefix("x-") else {
                request.parameters[name] = value
                continue
            }
            // The first of a repeated reserved name wins: later ones may have been appended by
            // whoever forwarded the URL.
            guard seen.insert(name).inserted else { continue }
            let callback = value.isEmpty ? nil : value
            switch name {
            case "x-source": request.source = value
            case "x-success": request.successURL = callback
            case "x-error": request.errorURL = callback
            case "x-cancel": request.cancelURL = callback
            default: break
            }
        }

        func reject(_ code: XCallbackError.Code, _ message: String) -> XCallbackError {
            XCallbackError(code: code, message: message, request: request)
        }
        guard parts.authority == "x-callback-url" else {
            let host = parts.authority.map { "'\($0)'" } ?? "none"
            throw reject(.badRequest, "the host of an x-callback-url must be 'x-callback-url' (got \(host))")
        }
        guard schemes.contains(where: { $0.lowercased() == request.scheme }) else {
            throw reject(.unregisteredScheme, "scheme '\(parts.scheme)' is not registered")
        }
        if let malformed {
            throw reject(.badRequest, "invalid percent-encoding or UTF-8 in parameter '\(malformed)'")
        }
        var path = parts.path
        while path.hasPrefix("/") { path = path.dropFirst() }
        while path.hasSuffix("/") { path = path.dropLast() }
        guard let action = PercentEncoding.decode(path) else {
            throw reject(.badRequest, "invalid percent-encoding or UTF-8 in action '\(path)'")
        }
        request.action = action
        return request
    }
}

/// A request that cannot be routed, with the x-callback-url error code it reports.
package struct XCallbackError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Code: Int32, Sendable {
        /// Not an x-callback-url (wrong host, no scheme), a malformed one, or an unsafe callback.
        case badRequest = 400
        case unregisteredScheme = 401
        case unknownAction = 402
    }

    package var code: Code
    package var message: String
    /// What could be read of the request, for its `x-error`.
    package var request: XCallbackRequest?

    package var description: String { message }
}
