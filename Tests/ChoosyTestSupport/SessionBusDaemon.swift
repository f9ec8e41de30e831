import Foundation
import Glibc

/// A real session bus for one test: `dbus-daemon --session` listening on a socket in the
/// sandbox (its `XDG_RUNTIME_DIR/bus`, where a client looks without `DBUS_SESSION_BUS_ADDRESS`),
/// with services the bus starts on demand from `services` (a `.service` file per name), and
/// services a test runs itself (`run`, Python scripts of `Tests/Fixtures/dbus/`). Stopped with
/// everything it started when released.
package final class SessionBusDaemon: @unchecked Sendable {
    package let address: String
    package let socket: String
    /// Where `.service` files for the bus to activate go (`serviceFile`).
    package let services: String
    private let daemon: Process
    private var started: [Process] = []

    /// Python with python3-dbus and python3-gi: Debian's, whatever python3 comes first on PATH.
    package static let python = "/usr/bin/python3"

    package init(in sandbox: Sandbox) throws {
        let runtime = sandbox.root + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        socket = runtime + "/bus"
        services = sandbox.root + "/dbus-services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let configuration = sandbox.write(
            "dbus-session.conf",
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=" + configuration, "--nofork", "--print-address=1"]
        // Activated services get the sandbox's environment, not the test runner's.
        daemon.environment = sandbox.environment
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try daemon.run()
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard line.hasPrefix("unix:") else {
            kill(daemon.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown)
        }
        address = line
    }

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM, and the children inherit that mask.
        for process in started + [daemon] {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs `Tests/Fixtures/dbus/<script>` with `arguments` on this bus, and returns once it
    /// printed `READY` (it owns its name).
    package func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SessionBusDaemon.python)
        process.arguments = [Sandbox.packageRoot + "/Tests/Fixtures/dbus/" + script] + arguments
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        started.append(process)
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard line == "READY" else { throw CocoaError(.fileReadUnknown) }
    }

    /// A `.service` file: the bus starts `exec` when a message is sent to `name`.
    package func serviceFile(name: String, exec: String) {
        try! "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n".write(
            toFile: services + "/\(name).service", atomically: true, encoding: .utf8)
    }
}
