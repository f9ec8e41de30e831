import ChoosyKit
import Foundation

/// Whether process `pid` is still running: it exists and is not a zombie. Processes that
/// tests see die (a killed hook's child, an X server) are not the test's children, so nobody
/// here reaps them, and a zombie counts as gone.
package func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let state = stat.split(separator: ")").last?.split(separator: " ").first
    else { return false }
    return state != "Z" && state != "X"
}

/// Waits up to `timeout` seconds for process `pid` to end; whether it did.
package func waitUntilGone(_ pid: pid_t, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while isRunning(pid) && Date() < deadline { usleep(20_000) }
    return !isRunning(pid)
}

/// Ends a server the tests started (an X server, a compositor): SIGTERM, so that it removes
/// its lock file and socket; SIGKILL after 5 s.
package func endServer(_ pid: pid_t) {
    kill(pid, SIGTERM)
    if !waitUntilGone(pid, timeout: 5) { kill(pid, SIGKILL) }
}

/// nil when a server can start here, else why not (also on stderr, with `skipped`, the
/// suites it skips): `start` starts one in a fresh directory, which it stops on release.
package func serverProbe(_ name: String, skipped: String, start: (String) throws -> Void) -> String? {
    let directory = NSTemporaryDirectory() + "choosy-\(name)-probe-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o755)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    do {
        try start(directory)
        return nil
    } catch {
        FileHandle.standardError.write(Data("\(skipped) skipped: \(error)\n".utf8))
        return "\(error)"
    }
}

/// Starts `argv` in the background, its output to `log`, and gives its pid: through choosy's
/// runner, which gives children an empty signal mask (test threads block most signals, and a
/// server started from one would never see the SIGTERM that stops it). A program started
/// through `setpriv` or `exec` keeps the pid.
package func startInBackground(_ argv: [String], log: String = "/dev/null", environment: [String: String]) -> pid_t? {
    let started = try? PosixProcessRunner(fileSystem: LocalFileSystem()).run(
        ProcessRequest(
            argv: ["/bin/sh", "-c", #"log=$1; shift; "$@" >"$log" 2>&1 </dev/null & echo $!"#, "sh", log] + argv,
            // In `/`: a client that runs as another user (nobody) could not enter the test's own
            // working directory, a clone that only its owner may read (.ci/run's).
            environment: environment, workingDirectory: "/", timeout: 10
        ))
    guard let started, started.status == 0 else { return nil }
    return pid_t(String(decoding: started.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}
