import Glibc

/// A Unix socket that listens (and never accepts: the kernel queues the connections), as a
/// display server's does: enough for choosy's check that a display answers. Closed when
/// released, after which connecting to its file is refused.
final class ListeningSocket {
    let path: String
    private var fd: Int32

    init?(path: String) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
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
    }

    func stop() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit {
        stop()
    }
}
