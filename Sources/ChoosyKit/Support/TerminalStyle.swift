import Glibc

/// ANSI styling that switches itself off for `NO_COLOR`, `TERM=dumb` and non-terminals.
package struct TerminalStyle: Sendable {
    package let enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Colour for a stream, per https://no-color.org.
    package static func forStream(_ fd: Int32, environment: Environment) -> TerminalStyle {
        let enabled =
            isatty(fd) == 1 && environment["NO_COLOR"] == nil
            && environment["TERM"] != "dumb"
        return TerminalStyle(enabled: enabled)
    }

    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
    package func red(_ text: String) -> String { wrap(text, "31") }
    package func green(_ text: String) -> String { wrap(text, "32") }
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    package func reverse(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
