/// Why a link or a host cannot be used, in one line; the caller names the link and turns it
/// into an exit status.
package struct WebError: Error, Equatable, Sendable, CustomStringConvertible {
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
