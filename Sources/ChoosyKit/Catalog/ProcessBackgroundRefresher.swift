import Synchronization

/// Refreshes in one detached `choosy __refresh KEY…` child per command: the command that
/// noticed stale data returns at once, and the child's one-line warning (if any) still reaches
/// the same stderr.
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
            workingDirectory: "/", stdout: .discard, stderr: .inherit
        )
        // Not being able to start the refresh only delays it to the next use.
        try? runner.spawnDetached(request)
    }
}
