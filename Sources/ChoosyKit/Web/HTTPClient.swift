/// A GET with the catalog's conditional headers, and a HEAD that follows no redirect (for
/// unshortening); the real one is `CurlHTTPClient`.
package protocol HTTPClient: Sendable {
    func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
    /// One HEAD request to `url`, https only (http on loopback), without cookies or a body, taking
    /// at most `timeout` seconds; its redirect is not followed.
    func head(_ url: String, timeout: Double) throws(HTTPError) -> HTTPHead
}

/// What a HEAD request answered: its status and, for a redirect, where to (resolved against the
/// URL asked, as given otherwise).
package struct HTTPHead: Equatable, Sendable {
    package var status: Int
    package var location: String?
}

package struct HTTPRequest: Sendable {
    package var url: String
    package var ifNoneMatch: String?
    package var ifModifiedSince: String?
    /// Shown in the progress line of slow downloads ("twitter").
    package var label: String
}

package struct HTTPResponse: Sendable {
    package var status: Int
    package var etag: String?
    package var lastModified: String?
    package var body: [UInt8] = []
}

/// An `ETag` or `Last-Modified` as choosy stores and sends it back (doc/security.md):
/// never one holding a control character (a CR would start a header of the server's choosing
/// in the next request) or longer than 1 KiB.
package enum HTTPValidator {
    package static let maximumLength = 1024

    package static func usable(_ value: String?) -> String? {
        guard let value, value.utf8.count <= maximumLength, !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        return value
    }
}

package struct HTTPError: Error, CustomStringConvertible, Sendable {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// The download limits (doc/configuration.md, "The catalog").
package struct HTTPLimits: Sendable {
    package var maxRedirects = 5
    package var connectTimeout: Double = 5
    package var totalTimeout: Double = 15
    package var maxBodyBytes = 1 << 20

    package init() {}
}
