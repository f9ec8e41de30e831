import Foundation

/// A real HTTP server on 127.0.0.1 (Tests/Fixtures/catalog_server.py) serving a choosy-data
/// tree, counting requests and injecting faults, or playing a link shortener. Stopped when
/// released.
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

    /// How a path answers when the server plays a link shortener: `{base}` in a location is
    /// this server's `http://127.0.0.1:PORT`, `{localhost}` its `http://localhost:PORT`; a body is
    /// sent even to HEAD, a cookie as `Set-Cookie`, after `delay` seconds.
    package struct Answer {
        var status = 200
        var location: String?
        var delay: Double = 0
        var body: String?
        var cookie: String?

        package init(status: Int = 200, location: String? = nil, delay: Double = 0, body: String? = nil, cookie: String? = nil) {
            (self.status, self.location, self.delay, self.body, self.cookie) = (status, location, delay, body, cookie)
        }
    }

    /// Sets how each path answers, as a shortener; every other path is served as before.
    package func answer(_ answers: [String: Answer]) {
        let object = answers.mapValues { answer -> [String: Any] in
            var members: [String: Any] = ["status": answer.status, "delay": answer.delay]
            if let location = answer.location { members["location"] = location }
            if let body = answer.body { members["body"] = body }
            if let cookie = answer.cookie { members["cookie"] = cookie }
            return members
        }
        let data = try! JSONSerialization.data(withJSONObject: object)
        try! data.write(to: URL(fileURLWithPath: faultsPath), options: .atomic)
    }

    package struct Request: Equatable {
        package var method: String
        package var path: String
        package var status: Int
        package var ifNoneMatch: String
        package var ifModifiedSince: String
        /// The `Injected` header, sent only when a validator's CR reached the request.
        package var injected: String
        package var cookie: String
        /// The request's `Content-Length`, empty without one.
        package var length: String
        package var host: String
    }

    /// Every request so far, oldest first.
    package var requests: [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            func field(_ name: String) -> String { String(fields.first { $0.hasPrefix(name + "=") }?.dropFirst(name.count + 1) ?? "") }
            return Request(
                method: String(fields[0]), path: String(fields[1]), status: Int(fields[2]) ?? -1, ifNoneMatch: field("inm"),
                ifModifiedSince: field("ims"), injected: field("inj"), cookie: field("cookie"), length: field("length"), host: field("host")
            )
        }
    }

    package func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }

    /// The requests for `path` once `done` holds for them (a detached background refresh's
    /// request may come after the command returned), or as they are after `seconds`.
    package func requests(for path: String, within seconds: Double, until done: ([Request]) -> Bool) -> [Request] {
        let deadline = Date().addingTimeInterval(seconds)
        var found = requests(for: path)
        while !done(found) && Date() < deadline {
            usleep(20_000)
            found = requests(for: path)
        }
        return found
    }

    /// The HEAD requests so far: unshortening's (downloads GET).
    package var heads: [Request] { requests.filter { $0.method == "HEAD" } }
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
