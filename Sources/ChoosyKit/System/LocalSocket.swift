import CSystem
import Glibc

/// Unix stream sockets to a local server that may be slow, gone or hostile (a compositor's
/// IPC, doc/running.md): every exchange ends by its deadline and reads at most a limit.
package protocol LocalSockets: Sendable {
    /// Connects to the socket at `path`; a server whose queue is full refuses at once.
    func connect(_ path: String) throws(LocalSocketError) -> any LocalSocketConnection
}

/// One connection, closed when released.
package protocol LocalSocketConnection: AnyObject {
    /// Writes all of `bytes`, or throws once the deadline passes.
    func send(_ bytes: [UInt8], before deadline: Deadline) throws(LocalSocketError)
    /// Reads until the bytes read so far hold a whole reply, by the length `whole` finds for
    /// it (nil while it cannot tell; bytes after the reply are kept for the next call; it is
    /// told where the bytes it has not seen begin, so a reply of megabytes is searched once),
    /// or the server closes the
    /// connection (then the bytes read, `closed` true), or the deadline passes, or more than
    /// `limit` bytes would be needed (both throw).
    func receive(limit: Int, before deadline: Deadline, whole: (_ bytes: [UInt8], _ unseen: Int) -> Int?) throws(LocalSocketError) -> (
        reply: [UInt8], closed: Bool
    )
}

package enum LocalSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotConnect(String)
    case timedOut
    case tooLarge(limit: Int)
    case failed(String)

    package var description: String {
        switch self {
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "did not answer in time"
        case .tooLarge(let limit): "answered more than \(limit >> 20) MiB"
        case .failed(let reason): reason
        }
    }
}

/// The real sockets, non-blocking, each wait a poll(2) bounded by the deadline.
package struct UnixLocalSockets: LocalSockets {
    package init() {}

    package func connect(_ path: String) throws(LocalSocketError) -> any LocalSocketConnection {
        let fd = choosy_unix_socket_connect(path)
        guard fd >= 0 else { throw .cannotConnect(String(cString: strerror(errno))) }
        return Connection(fd: fd)
    }

    private final class Connection: LocalSocketConnection {
        private let fd: Int32
        /// Bytes read past the end of the last reply.
        private var pending: [UInt8] = []

        init(fd: Int32) {
            self.fd = fd
        }

        deinit {
            close(fd)
        }

        func send(_ bytes: [UInt8], before deadline: Deadline) throws(LocalSocketError) {
            var offset = 0
            while offset < bytes.count {
                // MSG_NOSIGNAL: a server that hung up is an error here, not a SIGPIPE.
                let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EAGAIN || errno == EINTR {
                    try wait(for: Int16(POLLOUT), before: deadline)
                } else {
                    throw .failed("the connection broke while writing: \(String(cString: strerror(errno)))")
                }
            }
        }

        func receive(limit: Int, before deadline: Deadline, whole: (_ bytes: [UInt8], _ unseen: Int) -> Int?) throws(LocalSocketError) -> (
            reply: [UInt8], closed: Bool
        ) {
            var bytes = pending
            pending = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            var unseen = 0
            while true {
                if let length = whole(bytes, unseen) {
                    guard length <= limit else { throw .tooLarge(limit: limit) }
                    if length <= bytes.count {
                        pending = Array(bytes[length...])
                        return (Array(bytes[..<length]), false)
                    }
                }
                guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
                unseen = bytes.count
                let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    bytes.append(contentsOf: chunk[..<count])
                } else if count == 0 {
                    return (bytes, true)
                } else if errno == EAGAIN || errno == EINTR {
                    try wait(for: Int16(POLLIN), before: deadline)
                } else {
                    throw .failed("the connection broke while reading: \(String(cString: strerror(errno)))")
                }
            }
        }

        private func wait(for events: Int16, before deadline: Deadline) throws(LocalSocketError) {
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            while true {
                let timeout = deadline.remainingMilliseconds
                guard timeout > 0 else { throw .timedOut }
                let ready = poll(&descriptor, 1, Int32(timeout))
                if ready > 0 { return }
                if ready == 0 { throw .timedOut }
                guard errno == EINTR else { throw .failed("poll: \(String(cString: strerror(errno)))") }
            }
        }
    }
}
