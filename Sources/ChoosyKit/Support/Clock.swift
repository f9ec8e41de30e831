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

/// A moment on the monotonic clock by which a bounded step must be done (a compositor's
/// answer, doc/running.md).
package struct Deadline: Sendable {
    package let end: Double

    /// `seconds` from now.
    package static func after(_ seconds: Double) -> Deadline {
        Deadline(end: monotonicSeconds() + seconds)
    }

    /// What is left, in whole milliseconds for poll(2): 0 once it has passed.
    package var remainingMilliseconds: Int32 {
        let left = (end - monotonicSeconds()) * 1000
        return left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max)))
    }

    package var hasPassed: Bool { monotonicSeconds() >= end }
}

/// The CPU seconds the calling thread has used, for a budget of work that the machine's load
/// does not change.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
