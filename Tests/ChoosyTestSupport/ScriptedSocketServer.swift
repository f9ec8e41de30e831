import Foundation
import Glibc

/// A Unix socket server for tests of what choosy asks a compositor (doc/running.md): each
/// connection it accepts is handed, on a thread of its own, to `serve`, which reads and writes
/// its descriptor as the compositor would, or does not (silence, garbage, a flood, a hang-up).
/// Stopped when released; connections still being served are then closed.
package final class ScriptedSocketServer: @unchecked Sendable {
    package let path: String
    private let fd: Int32
    private let serve: @Sendable (Connection) -> Void
    private let lock = NSLock()
    private var open: [Int32] = []
    private var stopped = false
    /// Connections accepted so far.
    package private(set) var accepted = 0

    /// One connection, closed when `serve` returns (unless the server was stopped first).
    package struct Connection: Sendable {
        package let fd: Int32

        /// What the client wrote, up to `limit` bytes: all of it that has arrived once a first
        /// byte has (a request is written at once), or nil when the client closed.
        package func readRequest(limit: Int = 65536) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: limit)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            var bytes = Array(buffer[..<count])
            // Whatever else is already there.
            while true {
                var more = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&more, 1, 20) == 1 else { break }
                let next = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard next > 0 else { break }
                bytes += buffer[..<next]
            }
            return bytes
        }

        /// One line the client wrote, without its newline; nil once it closed.
        package func readLine() -> [UInt8]? {
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                if byte == UInt8(ascii: "\n") { return line }
                line.append(byte)
            }
            return nil
        }

        /// Exactly `count` bytes, or nil when the client closed first.
        package func read(count: Int) -> [UInt8]? {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: count)
            while bytes.count < count {
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - bytes.count, 0) }
                guard got > 0 else { return nil }
                bytes += buffer[..<got]
            }
            return bytes
        }

        /// Writes all of `bytes`; false once the client is gone.
        @discardableResult
        package func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }

        /// Holds the connection open, answering nothing, until the client leaves (or `seconds` pass).
        package func hold(seconds: Double = 30) {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, poll(&descriptor, 1, 100) >= 0 {
                if descriptor.revents != 0 {
                    guard recv(fd, &byte, 1, 0) > 0 else { return }
                }
            }
        }
    }

    /// Listens at `path` (under 100 bytes).
    package init?(path: String, serve: @escaping @Sendable (Connection) -> Void) {
        self.path = path
        self.serve = serve
        guard let fd = listeningUnixSocket(at: path) else { return nil }
        self.fd = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            // Close-on-exec: a process another test spawns meanwhile would keep it open.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let keep = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.append(client)
                accepted += 1
                return true
            }
            guard keep else {
                close(client)
                return
            }
            Thread.detachNewThread { [self] in
                serve(Connection(fd: client))
                lock.withLock {
                    if let index = open.firstIndex(of: client) {
                        open.remove(at: index)
                        close(client)
                    }
                }
            }
        }
    }

    package func stop() {
        let closing = lock.withLock { () -> [Int32]? in
            guard !stopped else { return nil }
            stopped = true
            defer { open = [] }
            return open
        }
        guard let closing else { return }
        for client in closing {
            shutdown(client, Int32(SHUT_RDWR))
            close(client)
        }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }

    deinit {
        stop()
    }
}
