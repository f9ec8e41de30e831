import Foundation

/// Runs blocking work (waiting on child processes, sleeping between kills) on a thread of its
/// own and awaits it, so that a test that waits for seconds does not hold one of the few
/// threads every other test runs on, and many such tests really run at once.
@discardableResult
package func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

extension Sandbox {
    /// `choosy(…)`, waited for off the test threads.
    package func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) async -> Output {
        await offPool { self.choosy(arguments, environment: environment, timeout: timeout) }
    }

    package func run(_ arguments: String...) async -> Output {
        await run(arguments)
    }
}

extension Sandbox {
    /// `run(…)`, also giving the largest resident set, in MiB, of choosy and of everything it
    /// waited for (the hooks it ran), as the kernel counted it (`RUSAGE_CHILDREN`).
    package func measuredRun(_ arguments: [String], timeout: Double = 60) async -> (output: Output, maximumMiB: Double) {
        let record = root + "/maxrss.\(UUID().uuidString)"
        let wrapper = [
            "/usr/bin/python3", "-c",
            """
            import resource, subprocess, sys
            code = subprocess.call(sys.argv[2:])
            open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            sys.exit(code if code >= 0 else 128 - code)
            """, record,
        ]
        let output = await offPool { self.choosy(arguments, timeout: timeout, wrapper: wrapper) }
        let kilobytes = (try? String(contentsOfFile: record, encoding: .utf8)).flatMap { Double($0) } ?? .infinity
        return (output, kilobytes / 1024)
    }
}
