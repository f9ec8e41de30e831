import ChoosyKit

extension Sandbox {
    /// Writes an executable script through a child process. Written from this process, the
    /// file would be open for writing while other test threads spawn children, and a child
    /// that inherits that descriptor makes every exec of the script fail with ETXTBSY.
    @discardableResult
    func writeExecutable(_ path: String, _ contents: String) -> String {
        let request = ProcessRequest(
            argv: ["/bin/sh", "-c", "mkdir -p \"$(dirname \"$0\")\" && cat > \"$0\" && chmod 755 \"$0\"", path],
            environment: ["PATH": "/usr/bin:/bin"],
            input: Array(contents.utf8)
        )
        let result = try! PosixProcessRunner().run(request)
        precondition(result.status == 0, "cannot write \(path)")
        return path
    }
}
