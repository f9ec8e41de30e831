import Synchronization

/// What a command said about the corrupt files it met: each file is reported once per command
/// however often it is read, and `handle` repeats what was said in a notification, since a
/// clicked link has no terminal to show stderr on (doc/configuration.md, "Corrupt and newer files").
package final class CorruptFileWarnings: Sendable {
    private let diagnostics: DiagnosticSink
    private let said = Mutex<(paths: Set<String>, messages: [String])>(([], []))

    package init(diagnostics: DiagnosticSink) {
        self.diagnostics = diagnostics
    }

    /// Warns about `path` unless this command already did.
    package func report(_ path: String, _ message: @autoclosure () -> String) {
        let text: String? = said.withLock { said in
            guard said.paths.insert(path).inserted else { return nil }
            let text = message()
            said.messages.append(text)
            return text
        }
        if let text { diagnostics.warning(text) }
    }

    /// Every warning given, in order.
    package var messages: [String] { said.withLock { $0.messages } }
}
