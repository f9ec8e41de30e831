import Glibc
import Synchronization

/// Where warnings and `--verbose` explanations go. Commands report through this so that tests
/// can read what was said and the real tool writes one line each to stderr.
package protocol DiagnosticSink: Sendable {
    var isVerbose: Bool { get }
    /// A problem that did not stop the command (a failed refresh, a refused hook).
    func warning(_ message: String)
    /// One step of a decision, shown with `-v`.
    func explain(_ message: @autoclosure () -> String)
}

/// Writes `choosy: warning: …` and `choosy: …` lines to stderr.
package struct StandardErrorDiagnostics: DiagnosticSink {
    package let isVerbose: Bool
    private let style: TerminalStyle

    package init(verbose: Bool, style: TerminalStyle) {
        self.isVerbose = verbose
        self.style = style
    }

    package func warning(_ message: String) {
        writeStandardError("\(style.yellow("choosy: warning:")) \(singleLine(message))\n")
    }

    package func explain(_ message: @autoclosure () -> String) {
        guard isVerbose else { return }
        writeStandardError("\(style.dim("choosy:")) \(singleLine(message()))\n")
    }
}

/// Keeps every message, for tests and for callers that report later.
package final class RecordingDiagnostics: DiagnosticSink {
    package let isVerbose: Bool
    private let recorded = Mutex<(warnings: [String], explanations: [String])>(([], []))

    package init(verbose: Bool = true) {
        self.isVerbose = verbose
    }

    package var warnings: [String] { recorded.withLock { $0.warnings } }
    package var explanations: [String] { recorded.withLock { $0.explanations } }

    package func warning(_ message: String) {
        recorded.withLock { $0.warnings.append(message) }
    }

    package func explain(_ message: @autoclosure () -> String) {
        guard isVerbose else { return }
        let text = message()
        recorded.withLock { $0.explanations.append(text) }
    }
}

/// Writes all bytes to stderr, retrying short writes.
package func writeStandardError(_ text: String) {
    writeAll(fd: 2, Array(text.utf8))
}

/// Writes all bytes to stdout, retrying short writes.
package func writeStandardOutput(_ text: String) {
    writeAll(fd: 1, Array(text.utf8))
}

func writeAll(fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}
