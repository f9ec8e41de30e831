import Foundation

/// A real HTTP server on 127.0.0.1 (Tests/Fixtures/catalog_server.py) serving a choosy-data
/// tree, counting requests and injecting faults. Stopped when released.
package final class CatalogServer: @unchecked Sendable {
    package let root: String
    package let port: Int
    private let process: Process
    private let logPath: String
    private let faultsPath: String

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Serves a copy of `tree` (a directory holding `app-data/`), so tests can change files.
    package init(serving tree: String, in sandbox: Sandbox) throws {
        root = sandbox.root + "/server-\(UUID().uuidString)"
        logPath = root + ".log"
        faultsPath = root + ".faults.json"
        try FileManager.default.copyItem(atPath: tree, toPath: root)
        _ = FileManager.default.createFile(atPath: logPath, contents: Data())
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Sandbox.packageRoot + "/Tests/Fixtures/catalog_server.py", root, logPath, faultsPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM, and the child inherits that mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sets the faults by request path, e.g. `["/app-data/twitter.json": "500"]`.
    package func inject(_ faults: [String: String]) {
        let data = try! JSONSerialization.data(withJSONObject: faults)
        try! data.write(to: URL(fileURLWithPath: faultsPath), options: .atomic)
    }

    package struct Request: Equatable {
        package var path: String
        package var status: Int
        package var ifNoneMatch: String
        package var ifModifiedSince: String
        /// The `Injected` header, sent only when a validator's CR reached the request.
        package var injected: String
    }

    /// Every request so far, oldest first.
    package var requests: [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            func field(_ name: String) -> String { String(fields.first { $0.hasPrefix(name + "=") }?.dropFirst(name.count + 1) ?? "") }
            return Request(
                path: String(fields[1]), status: Int(fields[2]) ?? -1, ifNoneMatch: field("inm"), ifModifiedSince: field("ims"),
                injected: field("inj"))
        }
    }

    package func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }
}

extension FileHandle {
    /// Reads up to the first newline (the server's "PORT n" line).
    package func availableLine() -> Data {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { return line }
            line.append(byte)
        }
    }
}
