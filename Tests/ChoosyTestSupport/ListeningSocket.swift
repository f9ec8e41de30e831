import Glibc

/// A Unix socket that listens (and never accepts: the kernel queues the connections), as a
/// display server's does: enough for choosy's check that a display answers. Closed when
/// released, after which connecting to its file is refused.
package final class ListeningSocket {
    package let path: String
    private var fd: Int32

    /// `abstract`: in Linux's abstract namespace (no file; the name after a NUL byte), as an X
    /// server's `/tmp/.X11-unix/XN`.
    package init?(path: String, abstract: Bool = false) {
        self.path = path
        guard let fd = listeningUnixSocket(at: path, abstract: abstract) else { return nil }
        self.fd = fd
    }

    /// An X server's socket that listens (in the abstract namespace, as Xorg's), on a display
    /// number no other test took; the `DISPLAY` it stands for is `:number`.
    package static func x11Display() -> (socket: ListeningSocket, display: String) {
        while true {
            let number = Int.random(in: 7000..<9999)
            if let socket = ListeningSocket(path: "/tmp/.X11-unix/X\(number)", abstract: true) { return (socket, ":\(number)") }
        }
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
/// spawns meanwhile would keep it listening); nil when it cannot be made. `abstract`: in Linux's
/// abstract namespace (no file; the name after a NUL byte), as an X server's `/tmp/.X11-unix/XN`.
package func listeningUnixSocket(at path: String, abstract: Bool = false) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0, path.utf8.count < 100 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name = (abstract ? [0] : []) + Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in name.enumerated() { buffer[index] = byte }
    }
    // An abstract name is as long as the address says, its NULs included.
    let length = abstract ? MemoryLayout<sa_family_t>.size + name.count : MemoryLayout<sockaddr_un>.size
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
        close(fd)
        return nil
    }
    return fd
}

/// A TCP port on 127.0.0.1 where nothing listens, and nothing can: the test process keeps it
/// bound without listening for as long as it runs (connecting is refused), so a server another
/// test starts meanwhile cannot be given it, as it could a port found free and closed again.
package func closedPort() -> Int { boundClosedPort }

private let boundClosedPort: Int = {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    precondition(fd >= 0 && bound, "no port to keep closed on 127.0.0.1")
    return Int(UInt16(bigEndian: address.sin_port))
}()
