/// A GET with the catalog's conditional headers; the real one is `CurlHTTPClient`.
public protocol HTTPClient: Sendable {
    func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}

public struct HTTPRequest: Sendable {
    public var url: String
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    /// Shown in the progress line of slow downloads ("twitter").
    public var label: String

    public init(url: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, label: String) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.label = label
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var etag: String?
    public var lastModified: String?
    public var body: [UInt8]

    public init(status: Int, etag: String? = nil, lastModified: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
    }
}

public struct HTTPError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The download limits (README, "The catalog").
public struct HTTPLimits: Sendable {
    public var maxRedirects = 5
    public var connectTimeout: Double = 5
    public var totalTimeout: Double = 15
    public var maxBodyBytes = 1 << 20

    public init() {}
}

/// HTTPS only, except for loopback hosts (tests and local mirrors).
public enum CatalogURLPolicy {
    public static func permits(_ url: String) -> Bool {
        let lowered = url.lowercased()
        if lowered.hasPrefix("https://") { return true }
        guard lowered.hasPrefix("http://") else { return false }
        return isLoopback(host(of: lowered))
    }

    static func host(of url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "" }
        var authority = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            return String(authority.dropFirst().prefix { $0 != "]" })
        }
        return String(authority.prefix { $0 != ":" })
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
