import Glibc

/// An advisory `flock` on a lock file, held until `unlock` or process exit (so a killed
/// process never leaves a stale lock behind).
package final class FileLock {
    private var fd: Int32

    /// Blocks until the exclusive lock on `path` is held, or throws after `timeout` seconds.
    package init(path: String, timeout: Double = 30, fileSystem: FileSystem) throws {
        try fileSystem.createDirectory(parentDirectory(of: path), permissions: 0o700)
        // Never wait at open, and lock only a regular file: a FIFO or link in its place is an
        // odd file the user must remove (doc/security.md).
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw errno == ELOOP ? .notRegularFile(path) : FileSystemError(path: path, code: errno) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            fd = -1
            throw FileSystemError.notRegularFile(path)
        }
        let deadline = monotonicSeconds() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline else {
                let code = errno
                close(fd)
                fd = -1
                throw FileSystemError(path: path, reason: code == EWOULDBLOCK ? "lock timed out" : String(cString: strerror(code)))
            }
            usleep(5_000)
        }
    }

    package func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}
