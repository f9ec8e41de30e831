import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc

/// A real terminal for tests: a detached tmux server on a socket of its own, running one
/// `choosy` command in an 80x24 pane, with the sandbox's environment. Tests read the screen
/// and type keys like a user. choosy's stdout and stderr go to files (so a picker must use
/// /dev/tty), and its exit status and the terminal's mode afterwards (`stty -a`) are recorded.
final class TmuxTerminal {
    let sandbox: Sandbox
    private let socket: String

    /// Runs `choosy <arguments>`; it sees the sandbox's environment, `environment` (an empty
    /// value removes a variable) and the pane's TERM.
    init(choosy arguments: [String], environment: [String: String] = [:], sandbox: Sandbox) throws {
        self.sandbox = sandbox
        socket = sandbox.root + "/tmux.sock"
        var variables = sandbox.environment
        for (name, value) in environment { variables[name] = value.isEmpty ? nil : value }
        let terminal = variables.removeValue(forKey: "TERM").map { shellQuoted("TERM=" + $0) } ?? "TERM=\"$TERM\""
        let assignments = variables.sorted { $0.key < $1.key }.map { shellQuoted("\($0.key)=\($0.value)") }
        let program = ([Sandbox.choosyBinary] + arguments).map(shellQuoted)
        // `exec` keeps the pid written first, so a test can signal choosy itself.
        sandbox.write(
            "run-choosy",
            """
            #!/bin/sh
            echo $$ > "\(sandbox.root)/pid"
            exec env -i \(terminal) \(assignments.joined(separator: " ")) \(program.joined(separator: " ")) > "\(sandbox.root)/stdout" 2> "\(sandbox.root)/stderr"

            """)
        sandbox.write(
            "pane",
            """
            #!/bin/sh
            /bin/sh "\(sandbox.root)/run-choosy"
            echo $? > "\(sandbox.root)/status.tmp"
            stty -a > "\(sandbox.root)/stty"
            mv "\(sandbox.root)/status.tmp" "\(sandbox.root)/status"
            exec sleep 600

            """)
        // Scripts are run through sh, not executed: a file just written can be held open by a
        // child another test thread is spawning, and exec would fail with ETXTBSY.
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "/bin/sh " + sandbox.root + "/pane"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    static var isInstalled: Bool {
        resolveExecutable("tmux", searchPath: ["/usr/bin", "/bin", "/usr/local/bin"], fileSystem: LocalFileSystem()) != nil
    }

    /// The visible text of the pane (`escapes` keeps colours and attributes as SGR codes).
    func screen(escapes: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))) ?? ""
    }

    /// Waits until the screen shows `text`; returns the screen.
    @discardableResult
    func waitForScreen(containing text: String, timeout: Double = 20) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var shown = screen()
        while !shown.contains(text) && Date() < deadline {
            usleep(50_000)
            shown = screen()
        }
        return shown
    }

    /// The pane's title, which a program sets with OSC 0 or 2.
    func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", "0", "#{pane_title}"]).trimmingCharacters(in: .newlines)
    }

    /// tmux key names (`Enter`, `Escape`, `Down`, `C-c`) or literal text.
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// What choosy printed on stdout and stderr, and its exit status, once it has finished.
    func result(timeout: Double = 20) -> (stdout: String, stderr: String, status: Int32)? {
        let deadline = Date().addingTimeInterval(timeout)
        while !sandbox.exists("status") {
            guard Date() < deadline else { return nil }
            usleep(50_000)
        }
        let status = Int32(sandbox.read("status")!.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (sandbox.read("stdout") ?? "", sandbox.read("stderr") ?? "", status)
    }

    /// The flags of `stty -a` right after the program ended (`icanon`, `-echo`, …): the mode
    /// it left the terminal in.
    var terminalModeAfterwards: Set<String> {
        Set((sandbox.read("stty") ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
    }

    /// choosy's pid, once it has started.
    var pid: pid_t? { sandbox.read("pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let request = ProcessRequest(
            argv: ["tmux", "-S", socket] + arguments,
            environment: ["PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": sandbox.home, "SHELL": "/bin/sh", "TERM": "xterm"],
            timeout: 20
        )
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)
        guard result.status == 0 else {
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            throw TmuxTestFailure(description: "tmux \(arguments.joined(separator: " ")) failed: \(stderr)")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}

struct TmuxTestFailure: Error, CustomStringConvertible {
    var description: String
}

private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
