/// The exit statuses of the command line. `meaning` is the one description of each: `help`
/// prints it and a test holds the man page's EXIT STATUS to it.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case ok = 0
    case internalError = 1
    case usage = 2
    case unknown = 3
    case unavailable = 4
    case noChoice = 5
    case launchFailed = 6
    case corruptFile = 7

    /// A few words, for `help`.
    package var summary: String {
        switch self {
        case .ok: "ok"
        case .internalError: "internal error"
        case .usage: "usage"
        case .unknown: "unknown type, action or app"
        case .unavailable: "nothing installed can do it, or no catalog data"
        case .noChoice: "no choice made"
        case .launchFailed: "launch failed"
        case .corruptFile: "a file the command must change is corrupt or newer"
        }
    }

    /// What the status means, as the man page says it.
    package var meaning: String {
        switch self {
        case .ok: "Done."
        case .internalError: "Internal error."
        case .usage: "Usage error: a bad command line, an invalid request to route, or a URL no app may be handed."
        case .unknown: "Unknown app type, action or app."
        case .unavailable: "Nothing installed can do it, or no catalog data."
        case .noChoice: "No choice made: cancelled, a hook said no, or no picker available."
        case .launchFailed: "The app could not be started."
        case .corruptFile:
            "A file the command must change is corrupt and cannot be moved aside (a read-only or foreign directory), or was written by a newer choosy;"
                + " or a rule command found rules.json corrupt (it is moved aside). Commands that only read a corrupt file, handle and open included,"
                + " go on as if it were empty."
        }
    }
}

/// An error that ends a command: a one-line message and the exit status it maps to.
public struct ChoosyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String
    /// For a choice that no picker could show: what `handle` needs to open the link without
    /// choosy (doc/desktop.md).
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
    /// One candidate: its choice key (`firefox@Work`), the name a picker shows for it and the
    /// desktop entry that runs it.
    package struct Candidate: Equatable, Sendable {
        package var key: String
        package var name: String
        package var desktopID: String
    }

    /// The candidates that have a desktop entry, in the order they would have been offered.
    package var candidates: [Candidate]
    /// The choice key of the type's remembered default, with its profile or container
    /// (`firefox@Personal`), when it is one of the candidates.
    package var userDefault: String?
    package var typeName: String
    /// Why no picker could be shown, as what the user can do about it.
    package var reason: String
    /// The desktop IDs the user hid (SPEC §6.1): the fallback does not open them either.
    package var hiddenEntries: [String] = []
}
