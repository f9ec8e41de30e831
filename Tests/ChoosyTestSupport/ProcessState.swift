import Foundation

/// Whether process `pid` is still running: it exists and is not a zombie. Processes that
/// tests see die (a killed hook's child, an X server) are not the test's children, so nobody
/// here reaps them, and a zombie counts as gone.
package func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let state = stat.split(separator: ")").last?.split(separator: " ").first else { return false }
    return state != "Z" && state != "X"
}

/// Waits up to `timeout` seconds for process `pid` to end; whether it did.
package func waitUntilGone(_ pid: pid_t, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while isRunning(pid) && Date() < deadline { usleep(20_000) }
    return !isRunning(pid)
}
