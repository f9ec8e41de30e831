import Glibc

/// Runs `work` on a thread of its own and waits for it until `deadline`, for a C library whose
/// calls wait with no timeout of their own (libxcb's connection and replies, doc/running.md).
/// Nil when the deadline passed first: the caller goes on without the result, and the thread,
/// which holds all it uses, ends with its call or with the process.
func boundedCall<Result: Sendable>(before deadline: Deadline, _ work: @escaping @Sendable () -> Result) -> Result? {
    let call = BoundedCallState(work)
    var thread = pthread_t()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    defer { pthread_attr_destroy(&attributes) }
    // The thread's own reference, given back when it ends.
    let context = Unmanaged<BoundedCallBody>.passRetained(call).toOpaque()
    guard pthread_create(&thread, &attributes, runBoundedCall, context) == 0 else {
        Unmanaged<BoundedCallBody>.fromOpaque(context).release()
        return nil
    }
    return call.wait(until: deadline)
}

/// The thread's start: a C function, which cannot know the result's type, so it runs the
/// call through its untyped base.
private func runBoundedCall(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<BoundedCallBody>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}

private class BoundedCallBody: @unchecked Sendable {
    func run() {}
}

/// What the caller and the thread share: the work, its result, and the lock and condition
/// that say it is there.
private final class BoundedCallState<Result: Sendable>: BoundedCallBody, @unchecked Sendable {
    private let work: @Sendable () -> Result
    private var result: Result?
    // Allocated: pthread objects must not move, which a stored property's address may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ work: @escaping @Sendable () -> Result) {
        self.work = work
        super.init()
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // The deadline is on the monotonic clock, as the wait must be.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    override func run() {
        let value = work()
        pthread_mutex_lock(mutex)
        result = value
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func wait(until deadline: Deadline) -> Result? {
        var end = timespec()
        end.tv_sec = Int(deadline.end.rounded(.down))
        end.tv_nsec = Int((deadline.end - deadline.end.rounded(.down)) * 1e9)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while result == nil {
            if pthread_cond_timedwait(condition, mutex, &end) == ETIMEDOUT { break }
        }
        return result
    }
}
