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
