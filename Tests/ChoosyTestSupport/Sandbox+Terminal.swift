import ChoosyKit
import Foundation
import Glibc

extension Sandbox {
    /// Runs `choosy` on a pseudo-terminal, as an interactive shell runs it (python3's `pty`),
    /// and returns all that reached the terminal until no process held it any more: what choosy
    /// wrote, and whatever anything it started wrote there after it had returned. The terminal
    /// is read for at most `timeout` seconds.
    package func choosyOnTerminal(_ arguments: [String], environment extra: [String: String] = [:], timeout: Double = 60) -> Output {
        let script = write(
            "on-terminal.py",
            """
            import os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            deadline = time.monotonic() + \(timeout)
            output = b""
            while time.monotonic() < deadline:
                if not select.select([fd], [], [], 0.1)[0]:
                    continue
                try:
                    data = os.read(fd, 4096)
                except OSError:  # EIO: every process that held the terminal closed it
                    break
                if not data:
                    break
                output += data
            else:
                sys.exit(124)
            sys.stdout.buffer.write(output)
            sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

            """)
        return run(["/usr/bin/python3", script, Sandbox.choosyBinary] + arguments, environment: extra, timeout: timeout + 30)
    }

    /// `$XDG_STATE_HOME`.
    package var stateHome: String { root + "/home/.local/state" }

    /// Waits until no background refresh (`choosy __refresh`) of this sandbox runs, for at
    /// most `timeout` seconds; false when one still does.
    @discardableResult
    package func waitForBackgroundRefreshes(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !backgroundRefreshRuns() { return true }
            usleep(20_000)
        }
        return false
    }

    /// Whether a process runs `__refresh` with this sandbox's home.
    private func backgroundRefreshRuns() -> Bool {
        let home = Data("HOME=\(self.home)".utf8)
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            guard let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                commandLine.split(separator: 0).contains(where: { $0.elementsEqual("__refresh".utf8) })
            else { continue }
            // A process just started (or still in exec) reads an empty environment, or none, for
            // a moment: it may be ours.
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            if environment.isEmpty || environment.split(separator: 0).contains(where: { $0.elementsEqual(home) }) { return true }
        }
        return false
    }
}
