import Glibc

/// Wall-clock time, injected so that TTL logic can be tested without sleeping.
package protocol Clock: Sendable {
    /// Seconds since the Unix epoch.
    func now() -> Double
}

package struct SystemClock: Clock {
    package init() {}

    package func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// Monotonic seconds, for timeouts and progress delays.
func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The CPU seconds the calling thread has used, for a budget of work that the machine's load
/// does not change.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
