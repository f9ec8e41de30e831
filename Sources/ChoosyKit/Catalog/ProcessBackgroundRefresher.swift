import Synchronization

/// Refreshes in a detached `choosy __refresh KEY` child: the command that noticed stale data
/// returns at once, and the child's one-line warning (if any) still reaches the same stderr.
public final class ProcessBackgroundRefresher: BackgroundRefresher {
    private let executable: String
    private let environment: Environment
    private let runner: ProcessRunner
    private let started = Mutex<Set<String>>([])

    public init(executable: String, environment: Environment, runner: ProcessRunner) {
        self.executable = executable
        self.environment = environment
        self.runner = runner
    }

    public func refreshLater(_ key: String) {
        let isNew = started.withLock { $0.insert(key).inserted }
        guard isNew else { return }
        let request = ProcessRequest(
            argv: [executable, "__refresh", key], environment: environment.variables,
            workingDirectory: "/", stdout: .discard, stderr: .inherit
        )
        // Not being able to start the refresh only delays it to the next use.
        try? runner.spawnDetached(request)
    }
}
