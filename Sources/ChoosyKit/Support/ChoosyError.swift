/// The exit statuses of the command line (README, "Exit status").
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    case internalError = 1
    case usage = 2
    case unknown = 3
    case unavailable = 4
    case noChoice = 5
    case launchFailed = 6
    case corruptFile = 7
}

/// An error that ends a command: a one-line message and the exit status it maps to.
public struct ChoosyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String
    /// For a choice that no picker could show: what `handle` needs to open the link without
    /// choosy (SPEC §6).
    package var unpicked: UnpickedChoice?

    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }

    package static func usage(_ message: String) -> ChoosyError { ChoosyError(.usage, message) }
    package static func unknown(_ message: String) -> ChoosyError { ChoosyError(.unknown, message) }
    package static func unavailable(_ message: String) -> ChoosyError { ChoosyError(.unavailable, message) }
    package static func noChoice(_ message: String) -> ChoosyError { ChoosyError(.noChoice, message) }
    package static func launchFailed(_ message: String) -> ChoosyError { ChoosyError(.launchFailed, message) }
    package static func corrupt(_ message: String) -> ChoosyError { ChoosyError(.corruptFile, message) }
    package static func `internal`(_ message: String) -> ChoosyError { ChoosyError(.internalError, message) }
}

/// A choice no picker could show.
package struct UnpickedChoice: Equatable, Sendable {
    /// The desktop IDs of the candidates, in the order they would have been offered.
    package var desktopIDs: [String]
    /// The desktop ID of the type's remembered default, when it is one of the candidates.
    package var userDefault: String?
    package var typeName: String
    /// Why no picker could be shown, as what the user can do about it.
    package var reason: String
}
