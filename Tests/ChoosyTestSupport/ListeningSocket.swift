import Glibc

/// A Unix socket that listens (and never accepts: the kernel queues the connections), as a
/// display server's does: enough for choosy's check that a display answers. Closed when
/// released, after which connecting to its file is refused.
package final class ListeningSocket {
    package let path: String
    private var fd: Int32

    package init?(path: String) {
        self.path = path
        guard let fd = listeningUnixSocket(at: path) else { return nil }
        self.fd = fd
    }

    package func stop() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit {
        stop()
    }
}

/// A Unix stream socket bound to `path` and listening, close-on-exec (a process another test
/// spawns meanwhile would keep it listening); nil when it cannot be made.
package func listeningUnixSocket(at path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0, path.utf8.count < 100 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
        close(fd)
        return nil
    }
    return fd
}

/// A TCP port on 127.0.0.1 where nothing listens.
package func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    close(fd)
    return Int(UInt16(bigEndian: address.sin_port))
}
