import ChoosyKit
import Glibc

/// Calls the library for one invocation and prints what it returns.
struct CommandRunner {
    let invocation: Invocation
    let environment: Environment

    func run() throws(ChoosyError) -> ExitStatus {
        let outputStyle = TerminalStyle.forStream(1, environment: environment)
        switch invocation.command {
        case .help(let topic):
            writeStandardOutput(try HelpText.text(for: topic))
            return .ok
        case .version:
            writeStandardOutput("choosy \(choosyVersion)\n")
            return .ok
        default:
            break
        }
        let choosy = makeChoosy()
        let formatter = OutputFormatter(style: outputStyle, json: invocation.json)
        switch invocation.command {
        case .update(let types):
            let reports = try choosy.update(types)
            writeStandardOutput(formatter.update(reports))
            let failed = reports.contains { report in
                switch report.outcome {
                case .failed, .notFound: return true
                case .updated, .notModified, .alreadyFresh: return false
                }
            }
            return failed ? .unavailable : .ok
        case .refresh(let types):
            try choosy.refreshInBackground(types)
            return .ok
        case .describe(let type):
            writeStandardOutput(formatter.describe(try choosy.appType(type)))
            return .ok
        default:
            throw .internal("command not built yet")
        }
    }

    private func makeChoosy() -> Choosy {
        var settings = Choosy.Settings(executable: Self.ownExecutable())
        settings.verbose = invocation.verbose
        settings.offline = invocation.offline
        let diagnostics = StandardErrorDiagnostics(
            verbose: invocation.verbose, style: TerminalStyle.forStream(2, environment: environment)
        )
        return Choosy(environment: environment, settings: settings, diagnostics: diagnostics)
    }

    /// The absolute path of this binary, wherever it was copied.
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
