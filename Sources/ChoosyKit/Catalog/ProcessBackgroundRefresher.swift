import Synchronization

/// Refreshes in one detached `choosy __refresh KEY…` child per command: the command that
/// noticed stale data returns at once. The child writes nothing to the terminal, which by then
/// is the shell's again: it keeps its failures in `RefreshFailures`, said by a later command.
package final class ProcessBackgroundRefresher: BackgroundRefresher {
    private let executable: String
    private let environment: Environment
    private let runner: ProcessRunner
    private let pending = Mutex<[String]>([])

    package init(executable: String, environment: Environment, runner: ProcessRunner) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    package func refreshLater(_ key: String) {
        pending.withLock { keys in
            if !keys.contains(key) { keys.append(key) }
        }
    }

    package func startPending() {
        let keys = pending.withLock { keys in
            defer { keys.removeAll() }
            return keys
        }
        guard !keys.isEmpty else { return }
        let request = ProcessRequest(
            argv: [executable, "__refresh"] + keys, environment: environment,
            workingDirectory: "/", stdout: .discard, stderr: .discard
        )
        // Not being able to start the refresh only delays it to the next use.
        try? runner.spawnDetached(request)
    }
}
