import Foundation
import Glibc

/// Running choosy as `nobody` when the tests run as root: for a directory that root could
/// write anyway, and for a compositor (sway) that will not run as root.
extension Sandbox {
    /// The prefix that runs a command as nobody, when the tests run as root; else nothing.
    package static let asNobody: [String] = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []

    /// The binary nobody runs: inside the sandbox, since the build directory may be in one
    /// only root can enter (CI's clone is in a directory of mode 0700).
    package func choosyBinaryForNobody() -> String {
        let binary = root + "/nobody/choosy"
        // The other user must reach it, and the sandbox is where choosy runs.
        chmod(root, 0o755)
        try? FileManager.default.createDirectory(atPath: root + "/nobody", withIntermediateDirectories: true)
        chmod(root + "/nobody", 0o755)
        if link(Sandbox.choosyBinary, binary) != 0 { try? FileManager.default.copyItem(atPath: Sandbox.choosyBinary, toPath: binary) }
        chmod(binary, 0o755)
        return binary
    }
}
