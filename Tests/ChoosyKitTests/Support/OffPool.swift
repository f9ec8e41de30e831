import Foundation

/// Runs blocking work (waiting on child processes, sleeping between kills) on a thread of its
/// own and awaits it, so that a test that waits for seconds does not hold one of the few
/// threads every other test runs on, and many such tests really run at once.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

extension Sandbox {
    /// `choosy(…)`, waited for off the test threads.
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) async -> Output {
        await offPool { self.choosy(arguments, environment: environment, timeout: timeout) }
    }

    func run(_ arguments: String...) async -> Output {
        await run(arguments)
    }
}
