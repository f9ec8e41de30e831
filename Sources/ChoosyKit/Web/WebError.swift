/// Why a link or a host cannot be used, in one line; the caller names the link and turns it
/// into an exit status.
public struct WebError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
