/// What a command prints, and the status the process exits with.
package struct CommandOutput: Sendable {
    package var standardOutput = ""
    package var standardError = ""
    /// Any code: route passes on its handler's.
    package var status: Int32 = ExitStatus.ok.rawValue

    init(_ standardOutput: String = "", standardError: String = "", status: Int32 = ExitStatus.ok.rawValue) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }
}
