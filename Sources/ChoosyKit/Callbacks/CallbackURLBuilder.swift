/// Builds the URL that reports a result back to the caller of an x-callback-url (doc/hooks-and-callbacks.md, "choosy route").
///
/// The callback's own text is kept byte for byte (its query may hold encodings such as
/// `q=a%2Bb` that decoding and re-encoding would change); added parameters are encoded as in
/// §4 and go before any `#fragment`.
package enum CallbackURLBuilder {
    /// Schemes that would run code or read local data if a forged request could make choosy
    /// open them.
    package static let refusedSchemes: Set<String> = ["file", "data", "javascript", "vbscript"]

    /// The callback with `parameters` appended to its query.
    package static func success(_ callback: String, adding parameters: [(String, String)]) throws(CallbackURLError) -> String {
        let url = try checked(callback)
        guard !parameters.isEmpty else { return url }
        let added = parameters.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
        var body = Substring(url)
        var fragment: Substring = ""
        if let hash = body.firstIndex(of: "#") {
            fragment = body[hash...]
            body = body[..<hash]
        }
        let separator = !body.contains("?") ? "?" : (body.hasSuffix("?") || body.hasSuffix("&")) ? "" : "&"
        return String(body) + separator + added + String(fragment)
    }

    /// The x-error callback with `errorCode` and `errorMessage` appended, in that order.
    package static func error(_ callback: String, code: Int, message: String) throws(CallbackURLError) -> String {
        try success(callback, adding: [("errorCode", String(code)), ("errorMessage", message)])
    }

    /// The x-cancel callback, unchanged.
    package static func cancel(_ callback: String) throws(CallbackURLError) -> String {
        try checked(callback)
    }

    /// The callback without surrounding whitespace, or an error when it is not a URL that is
    /// safe to open. Control characters inside are refused rather than stripped: browsers drop
    /// tabs and newlines from `java\tscript:`, so stripping here would have to match them exactly.
    package static func checked(_ callback: String) throws(CallbackURLError) -> String {
        let scalars = callback.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpaceOrControl($0) }),
            let last = scalars.lastIndex(where: { !isSpaceOrControl($0) })
        else {
            throw CallbackURLError(url: callback, reason: "it is empty")
        }
        let trimmed = String(scalars[first...last])
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CallbackURLError(url: callback, reason: "it contains control characters")
        }
        guard let parts = URLParts(trimmed) else {
            throw CallbackURLError(url: callback, reason: "it is not an absolute URL")
        }
        let scheme = parts.scheme.lowercased()
        guard !refusedSchemes.contains(scheme) else {
            throw CallbackURLError(url: callback, reason: "'\(scheme):' callbacks are never opened")
        }
        return trimmed
    }

    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace
    }
}

/// A callback URL choosy refuses to open.
package struct CallbackURLError: Error, Equatable, Sendable, CustomStringConvertible {
    package var url: String
    package var reason: String

    package var description: String { "refusing callback URL '\(url)': \(reason)" }
}
