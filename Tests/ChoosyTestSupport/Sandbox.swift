import ChoosyKit
import Foundation
import Glibc

/// A temporary home for one test: HOME and every XDG directory live under one temp dir, so
/// nothing a test does can see or touch the real user's files. Removed when released.
package final class Sandbox: @unchecked Sendable {
    package let root: String
    package var home: String { root + "/home" }
    package var dataHome: String { root + "/home/.local/share" }
    package var configHome: String { root + "/home/.config" }
    package var cacheHome: String { root + "/home/.cache" }
    package var dataDir: String { root + "/usr/share" }
    package var bin: String { root + "/bin" }
    package var records: String { root + "/records" }
    /// Variables added to (or, when empty, removed from) every command this sandbox runs.
    package var overrides: [String: String] = [:]

    package init() {
        var template = Array((NSTemporaryDirectory() + "choosy-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for directory in [home, dataHome + "/applications", configHome, cacheHome, dataDir + "/applications", bin, records] {
            try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The isolated environment: no variable of the real one leaks in, and the network is off
    /// unless a test points CHOOSY_CATALOG_URL somewhere and clears CHOOSY_OFFLINE.
    package var environment: [String: String] {
        var variables = [
            "HOME": home,
            "XDG_DATA_HOME": dataHome,
            "XDG_CONFIG_HOME": configHome,
            "XDG_CACHE_HOME": cacheHome,
            "XDG_STATE_HOME": stateHome,
            "XDG_RUNTIME_DIR": root + "/run",
            "XDG_DATA_DIRS": dataDir,
            "XDG_CONFIG_DIRS": root + "/etc/xdg",
            "PATH": bin + ":/usr/bin:/bin",
            "LANG": "C",
            "CHOOSY_OFFLINE": "1",
        ]
        for (name, value) in overrides {
            variables[name] = value.isEmpty ? nil : value
        }
        return variables
    }

    package var choosyEnvironment: Environment { Environment(environment) }

    // MARK: Files

    /// Writes a file. Executables are written by a child process: a file this process had open
    /// for writing can be inherited by a child another test spawns at that moment, and running
    /// the script would then fail with ETXTBSY.
    @discardableResult
    package func write(_ path: String, _ contents: String, mode: Int = 0o644) -> String {
        let full = path.hasPrefix("/") ? path : root + "/" + path
        try! FileManager.default.createDirectory(atPath: parentDirectory(of: full), withIntermediateDirectories: true)
        if mode & 0o111 != 0 {
            let request = ProcessRequest(
                argv: ["/bin/sh", "-c", "cat > \"$0\" && chmod \(String(mode, radix: 8)) \"$0\"", full],
                environment: ["PATH": "/usr/bin:/bin"], input: Array(contents.utf8)
            )
            precondition(try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(request).status == 0, "cannot write \(full)")
        } else {
            try! Data(contents.utf8).write(to: URL(fileURLWithPath: full))
            chmod(full, mode_t(mode))
        }
        return full
    }

    package func read(_ path: String) -> String? {
        let full = path.hasPrefix("/") ? path : root + "/" + path
        return FileManager.default.contents(atPath: full).map { String(decoding: $0, as: UTF8.self) }
    }

    package func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path.hasPrefix("/") ? path : root + "/" + path)
    }

    /// Writes a desktop entry into `$XDG_DATA_HOME/applications` (or `directory`).
    @discardableResult
    package func desktopEntry(_ id: String, _ contents: String, directory: String? = nil) -> String {
        write((directory ?? dataHome + "/applications") + "/" + id, contents)
    }

    /// An executable that records each run's argv (NUL-separated), working directory,
    /// environment and pid under `records/<name>.<n>`; returns its path. `n` begins with the
    /// pid, which the kernel gives in the order choosy starts them: a detached app may run
    /// after one started later, and the runs are still listed in the order they were launched.
    /// `prelude`: shell lines run first (a browser that stays running, `Sandbox.runningBrowser`).
    @discardableResult
    package func recorder(_ name: String, prelude: String = "") -> String {
        write(
            bin + "/" + name,
            """
            #!/bin/sh
            \(prelude)n=$(printf '%010d' $$)-$(date +%s%N)
            pwd > "\(records)/\(name).$n.cwd"
            echo $$ > "\(records)/\(name).$n.pid"
            cat /proc/$$/environ > "\(records)/\(name).$n.env"
            for a in "$0" "$@"; do printf '%s\\0' "$a"; done > "\(records)/\(name).$n.tmp"
            mv "\(records)/\(name).$n.tmp" "\(records)/\(name).$n.argv"

            """, mode: 0o755)
    }

    /// The argv of every finished run of recorder `name` (argv[0] first), in launch order.
    package func recordedRuns(_ name: String) -> [[String]] {
        recordedArgumentBytes(name).map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// The argv of every finished run of recorder `name`, as the bytes it received.
    package func recordedArgumentBytes(_ name: String) -> [[[UInt8]]] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? [])
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".argv") }
            .sorted()
        return files.map { file in
            let data = FileManager.default.contents(atPath: records + "/" + file) ?? Data()
            var arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
            if arguments.last == [] { arguments.removeLast() }
            return arguments
        }
    }

    /// The environment of every finished run of recorder `name`, in launch order: its
    /// `NAME=VALUE` entries as the bytes it received.
    package func recordedEnvironmentBytes(_ name: String) -> [[[UInt8]]] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? [])
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".argv") }
            .sorted()
        return files.map { file in
            let data = FileManager.default.contents(atPath: records + "/" + file.dropLast(".argv".count) + ".env") ?? Data()
            return data.split(separator: 0).map { Array($0) }
        }
    }

    /// The environment and pid of every finished run of recorder `name`, in launch order.
    package func recordedProcesses(_ name: String) -> [(environment: [String: String], pid: String)] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? [])
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".argv") }
            .sorted()
        return files.map { file in
            let stem = records + "/" + file.dropLast(".argv".count)
            let data = FileManager.default.contents(atPath: stem + ".env") ?? Data()
            var environment: [String: String] = [:]
            for entry in data.split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { continue }
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            let pid = (try? String(contentsOfFile: stem + ".pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return (environment, pid)
        }
    }

    /// Waits up to `timeout` seconds for recorder `name` to have run `count` times: launched
    /// apps are detached, so they finish after choosy returns.
    package func waitForRuns(_ name: String, count: Int = 1, timeout: Double = 10) -> [[String]] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let runs = recordedRuns(name)
            if runs.count >= count { return runs }
            usleep(20_000)
        }
        return recordedRuns(name)
    }

    // MARK: Running choosy

    package struct Output {
        package var status: Int32
        package var stdout: String
        /// Everything choosy wrote to stderr.
        package var rawStderr: String

        package init(status: Int32, stdout: String, rawStderr: String) {
            (self.status, self.stdout, self.rawStderr) = (status, stdout, rawStderr)
        }
        /// Sandboxes have no display (so that `auto` never starts a real GUI picker), and every
        /// graphical launch then earns a warning; `stderr` leaves those lines out so that tests
        /// see what they are about. `DisplayWarningTests` checks the warning itself.
        package var stderr: String {
            rawStderr.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains(Output.displayWarning) }.joined(separator: "\n")
        }
        package var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        package static let displayWarning = "neither DISPLAY nor WAYLAND_DISPLAY is set"
    }

    /// Runs the built `choosy` binary with this sandbox's environment, in a new session with
    /// no controlling terminal (as when a link is clicked in a desktop app). With the network on,
    /// it returns once the background refresh the command started (if any) is done too, so the
    /// next command finds what it downloaded.
    /// `wrapper` runs first, with the whole command line after it (a measuring program);
    /// `binary` is another copy of choosy (`choosyBinaryForNobody()`); it runs in
    /// `workingDirectory` (the sandbox's root by default).
    @discardableResult
    package func choosy(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:], timeout: Double = 60,
        wrapper: [String] = [], binary: String = Sandbox.choosyBinary, workingDirectory: String? = nil
    ) -> Output {
        var variables = environment
        for (name, value) in extra { variables[name] = value.isEmpty ? nil : value }
        let request = ProcessRequest(
            argv: wrapper + ["/usr/bin/setsid", "-w", binary] + arguments,
            environment: variables,
            workingDirectory: workingDirectory ?? root,
            input: input.map { Array($0.utf8) },
            timeout: timeout
        )
        var untilEnd = request
        untilEnd.readsUntilEndOfOutput = true
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(untilEnd)
        if variables["CHOOSY_OFFLINE"] == nil { waitForBackgroundRefreshes() }
        return Output(
            status: result.status,
            stdout: String(decoding: result.stdout, as: UTF8.self),
            rawStderr: String(decoding: result.stderr, as: UTF8.self)
        )
    }

    package func choosy(_ arguments: String..., input: String? = nil, environment extra: [String: String] = [:]) -> Output {
        choosy(arguments, input: input, environment: extra)
    }

    /// The binary under test: `CHOOSY_TEST_BINARY`, else the `choosy` built beside the tests.
    package static let choosyBinary: String = {
        if let path = ProcessInfo.processInfo.environment["CHOOSY_TEST_BINARY"] { return path }
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return parentDirectory(of: runner) + "/choosy"
    }()

    /// The package root, for the repository's own files (README, catalog, fixtures).
    package static let packageRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = parentDirectory(of: path) }
        return path
    }()

    /// The upstream Choosy data (catalog files and `systemAppTypes.json`), with its licences.
    package static let upstreamFixtures = packageRoot + "/Tests/Fixtures/choosy-data"
}
