import Glibc

/// Stops the fuzz target with `message` on stderr when `condition` is false. Unlike
/// `precondition`, it says what went wrong in optimized builds, and the stop is a signal that
/// libFuzzer reports as a crash with the input that caused it.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    let text = "invariant failed: \(message())\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
}
