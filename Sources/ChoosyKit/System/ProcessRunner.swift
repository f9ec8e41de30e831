import CSystem
import Glibc

/// A process to start: always an argv, never a shell command line.
package struct ProcessRequest: Sendable {
    package enum Output: Equatable, Sendable {
        case discard, inherit, capture
        /// Written to this file (opened for writing, not created), e.g. `/dev/tty`.
        case file(String)
    }

    package var argv: [String]
    /// Arguments passed as these bytes instead of the UTF-8 of `argv[index]`: a link given
    /// with bytes that are not UTF-8 (`GivenBytes`).
    package var argumentBytes: [Int: [UInt8]] = [:]
    package var environment: [String: String]
    /// Variables passed as these `NAME=VALUE` bytes instead of the UTF-8 of their name and
    /// value, by name, while `environment` holds the text they repair to: variables choosy was
    /// given that are not UTF-8 (`Environment.givenEntries`). A variable set to another value
    /// gets that value.
    package var environmentBytes: [String: [UInt8]] = [:]
    package var workingDirectory: String?
    /// Bytes written to the child's stdin, then closed; nil gives it `/dev/null`.
    package var input: [UInt8]?
    package var stdout: Output
    package var stderr: Output
    /// Seconds before the child (and its process group) is killed; nil waits forever.
    package var timeout: Double?
    /// Own process group, so a timeout can kill whatever the child started, and so can its
    /// exit (what it left running is ended with it). Interactive children (pickers on the
    /// terminal) must stay in the terminal's foreground group.
    package var ownProcessGroup: Bool
    /// For a detached child: a variable set, in its environment, to its own pid (`GIO_LAUNCHED_DESKTOP_FILE_PID`,
    /// as GIO sets it).
    package var ownPIDVariable: String?
    /// Bytes kept of each captured stream; the rest is read and discarded
    /// (`ProcessResult.stdoutTruncated`, `stderrTruncated`). Nil keeps everything.
    package var outputLimit: Int?
    /// Read the output until every copy of the pipes is closed, not only until the child
    /// exits: for a caller that wants what the child's background work printed too (the
    /// test harness, which sees a command's detached refresh warn).
    package var readsUntilEndOfOutput = false

    package init(
        argv: [String], environment: [String: String], workingDirectory: String? = nil,
        input: [UInt8]? = nil, stdout: Output = .capture, stderr: Output = .capture,
        timeout: Double? = nil, ownProcessGroup: Bool = false, outputLimit: Int? = nil
    ) {
        self.argv = argv
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.input = input
        self.stdout = stdout
        self.stderr = stderr
        self.timeout = timeout
        self.ownProcessGroup = ownProcessGroup
        self.outputLimit = outputLimit
    }

    /// The same, with the variables of `environment`, as bytes where they were given so.
    package init(
        argv: [String], environment: Environment, workingDirectory: String? = nil,
        input: [UInt8]? = nil, stdout: Output = .capture, stderr: Output = .capture,
        timeout: Double? = nil, ownProcessGroup: Bool = false, outputLimit: Int? = nil
    ) {
        self.init(
            argv: argv, environment: environment.variables, workingDirectory: workingDirectory, input: input, stdout: stdout,
            stderr: stderr, timeout: timeout, ownProcessGroup: ownProcessGroup, outputLimit: outputLimit)
        self.environmentBytes = environment.givenEntries
    }

    /// Each variable as `NAME=VALUE` bytes (`environmentBytes` where they stand for it), in
    /// the order of the names.
    func environmentEntries() -> [[UInt8]] {
        environment.sorted { $0.key < $1.key }.map { name, value in
            if let given = environmentBytes[name], Environment.entry(given, isGivenFor: name, value) { return given }
            return Array("\(name)=\(value)".utf8)
        }
    }
}

package struct ProcessResult: Sendable {
    /// The exit code, or 128 + the signal number when the child was killed.
    package var status: Int32
    package var stdout: [UInt8] = []
    package var stderr: [UInt8] = []
    package var timedOut = false
    /// Whether captured stdout or stderr went past the request's `outputLimit`: what came
    /// after was read and discarded.
    package var stdoutTruncated = false
    package var stderrTruncated = false
}

package struct SpawnError: Error, CustomStringConvertible, Sendable {
    package var program: String
    package var reason: String
    package var description: String { "cannot start '\(program)': \(reason)" }
}

/// Starting processes; `PosixProcessRunner` is the real one.
package protocol ProcessRunner: Sendable {
    /// Starts the child in its own session with stdio on /dev/null (stderr as requested) and
    /// returns without waiting: how apps are launched.
    func spawnDetached(_ request: ProcessRequest) throws(SpawnError)
    /// Starts the child, feeds its input and collects its output until it exits (not until
    /// every copy of its pipes is closed: what it left running cannot hold choosy), then
    /// takes what is left in the pipes and, with `ownProcessGroup`, ends the rest of its group.
    func run(_ request: ProcessRequest) throws(SpawnError) -> ProcessResult
    /// `run`, with the child's input made by `makeInput` once it has started (`request.input`
    /// is not read): what the child does before it reads (a picker opening its window) goes
    /// on while choosy makes what it will read.
    func run(_ request: ProcessRequest, inputOnceStarted makeInput: () -> [UInt8]) throws(SpawnError) -> ProcessResult
}

extension ProcessRunner {
    /// For a runner that starts nothing (a test's): the input is made first.
    package func run(_ request: ProcessRequest, inputOnceStarted makeInput: () -> [UInt8]) throws(SpawnError) -> ProcessResult {
        var made = request
        made.input = makeInput()
        return try run(made)
    }
}

/// `posix_spawn` without a shell. The program is looked up on the request's own `PATH`.
package struct PosixProcessRunner: ProcessRunner {
    private let fileSystem: FileSystem

    package init(fileSystem: FileSystem) {
        self.fileSystem = fileSystem
    }

    package func spawnDetached(_ request: ProcessRequest) throws(SpawnError) {
        if let variable = request.ownPIDVariable { return try spawnKnowingItsPID(request, variable: variable) }
        var detached = request
        detached.input = nil
        if detached.stdout == .capture { detached.stdout = .discard }
        if detached.stderr == .capture { detached.stderr = .discard }
        _ = try spawn(detached, newSession: true)
    }

    package func run(_ request: ProcessRequest) throws(SpawnError) -> ProcessResult {
        if request.input != nil { PosixProcessRunner.ignoreBrokenPipes }
        let child = try spawn(request, newSession: false)
        return collect(child, request: request)
    }

    package func run(_ request: ProcessRequest, inputOnceStarted makeInput: () -> [UInt8]) throws(SpawnError) -> ProcessResult {
        PosixProcessRunner.ignoreBrokenPipes
        var started = request
        // A pipe for stdin, written once the input is made.
        started.input = []
        let child = try spawn(started, newSession: false)
        started.input = makeInput()
        return collect(child, request: started)
    }

    /// A child that exits without reading all its input (a picker printing its answer at
    /// once) must make the write fail with EPIPE, which `collect` handles, not kill choosy
    /// with SIGPIPE. Children get the default disposition back (POSIX_SPAWN_SETSIGDEF).
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    private struct Child {
        var pid: pid_t
        var input: Int32
        var stdout: Int32
        var stderr: Int32
    }

    /// posix_spawn cannot change the environment once the pid is known: a fork and exec in C
    /// writes it in, as GIO does. Stdio goes to `/dev/null`.
    private func spawnKnowingItsPID(_ request: ProcessRequest, variable: String) throws(SpawnError) {
        let executable = try resolvedExecutable(request)
        var request = request
        request.environment[variable] = nil
        let pidSlot = String(repeating: " ", count: 20)
        let entries = request.environmentEntries() + [Array("\(variable)=\(pidSlot)".utf8)]
        let argv = cArguments(request)
        let envp = entries.map(cString) + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let pid = choosy_spawn_detached(executable, argv, envp, Int32(entries.count - 1), request.workingDirectory)
        guard pid > 0 else { throw SpawnError(program: request.argv[0], reason: String(cString: strerror(errno))) }
    }

    /// The argv as C strings, NULL-terminated; the caller frees them.
    private func cArguments(_ request: ProcessRequest) -> [UnsafeMutablePointer<CChar>?] {
        request.argv.indices.map { index -> UnsafeMutablePointer<CChar>? in
            guard let bytes = request.argumentBytes[index] else { return strdup(request.argv[index]) }
            return cString(bytes)
        } + [nil]
    }

    /// A C string of `bytes` (which hold no NUL); the caller frees it.
    private func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let copy = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { memcpy(copy, base, $0.count) } }
        copy[bytes.count] = 0
        return copy
    }

    /// The absolute path the request's program runs from, after the checks every spawn makes.
    private func resolvedExecutable(_ request: ProcessRequest) throws(SpawnError) -> String {
        guard let program = request.argv.first, !program.isEmpty else {
            throw SpawnError(program: "", reason: "empty command")
        }
        // C strings end at a NUL: the child would get a shorter argument than asked for.
        guard !request.argv.contains(where: { $0.utf8.contains(0) }) else {
            throw SpawnError(program: program, reason: "an argument holds a NUL byte")
        }
        guard !request.environment.contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) else {
            throw SpawnError(program: program, reason: "an environment variable holds a NUL byte")
        }
        let searchPath = Environment(request.environment).searchPath
        guard var executable = resolveExecutable(program, searchPath: searchPath, fileSystem: fileSystem) else {
            let reason =
                program.contains("/")
                ? (fileSystem.info(program) == nil ? "no such file" : "not an executable file")
                : "not found on PATH"
            throw SpawnError(program: program, reason: reason)
        }
        // The child changes directory before exec, so a relative path must be made absolute
        // against the directory it was checked in.
        if !executable.hasPrefix("/"), let directory = currentDirectory() {
            executable = joinPath(directory, executable)
        }
        return executable
    }

    private func spawn(_ request: ProcessRequest, newSession: Bool) throws(SpawnError) -> Child {
        let program = request.argv[0]
        let executable = try resolvedExecutable(request)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func pipePair() -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            _ = choosy_pipe_cloexec(&fds)
            return (fds[0], fds[1])
        }

        var child = Child(pid: 0, input: -1, stdout: -1, stderr: -1)
        if request.input != nil {
            let pair = pipePair()
            posix_spawn_file_actions_adddup2(&actions, pair.read, 0)
            child.input = pair.write
            parentEnds.append(pair.write)
            childEnds.append(pair.read)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (fd, mode) in [(Int32(1), request.stdout), (Int32(2), request.stderr)] {
            switch mode {
            case .inherit:
                break
            case .discard:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_NOCTTY, 0)
            case .capture:
                let pair = pipePair()
                posix_spawn_file_actions_adddup2(&actions, pair.write, fd)
                if fd == 1 { child.stdout = pair.read } else { child.stderr = pair.read }
                parentEnds.append(pair.read)
                childEnds.append(pair.write)
            }
        }
        if let directory = request.workingDirectory {
            _ = choosy_spawn_file_actions_addchdir(&actions, directory)
        }

        // Children start with default signal handling and nothing blocked, whatever choosy set.
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= Int32(choosy_spawn_setsid_flag()) }
        if request.ownProcessGroup && !newSession {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = cArguments(request)
        let envp = request.environmentEntries().map(cString) + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        childEnds.forEach { close($0) }
        guard result == 0 else {
            parentEnds.forEach { close($0) }
            throw SpawnError(program: program, reason: String(cString: strerror(result)))
        }
        child.pid = pid
        return child
    }

    private func collect(_ child: Child, request: ProcessRequest) -> ProcessResult {
        var input = request.input ?? []
        var inputOffset = 0
        var inputFD = child.input
        if inputFD >= 0 {
            _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
            if input.isEmpty {
                close(inputFD)
                inputFD = -1
            }
        }
        let limit = request.outputLimit ?? Int.max
        var outputs: [Int32: CappedBytes] = [:]
        for fd in [child.stdout, child.stderr] where fd >= 0 { outputs[fd] = CappedBytes(limit: limit) }
        var open = [child.stdout, child.stderr].filter { $0 >= 0 }
        let deadline = request.timeout.map { monotonicSeconds() + $0 }
        var timedOut = false
        // Readable once the child has exited; without one (kernels before 5.3), look every 20 ms.
        let exitFD = choosy_pidfd_open(child.pid)
        defer { if exitFD >= 0 { close(exitFD) } }
        var buffer = [UInt8](repeating: 0, count: 65536)

        /// Reads once from `fd` into its output: the bytes read, 0 at its end or on an error,
        /// nil when nothing is there yet.
        func readOnce(_ fd: Int32) -> Int? {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                outputs[fd]?.append(buffer[0..<count])
                return count
            }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return nil }
            return 0
        }

        // The child is not reaped until its group has been ended: while it is a zombie, its
        // pid cannot name another process group.
        while true {
            let exited = choosy_has_exited(child.pid) != 0
            if exited && (!request.readsUntilEndOfOutput || open.isEmpty) { break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            if exitFD >= 0 && !exited { fds.append(pollfd(fd: exitFD, events: Int16(POLLIN), revents: 0)) }
            var wait: Int32 = exitFD >= 0 || exited ? -1 : 20
            if let deadline {
                let remaining = deadline - monotonicSeconds()
                if remaining <= 0 {
                    timedOut = true
                    break
                }
                let milliseconds = Int32(min(remaining * 1000 + 1, 1000))
                wait = wait < 0 ? milliseconds : min(wait, milliseconds)
            }
            if poll(&fds, nfds_t(fds.count), wait) < 0 && errno != EINTR {
                // Nothing can be waited for: the child is ended like one past its time.
                timedOut = true
                break
            }
            for entry in fds where entry.revents != 0 && entry.fd != exitFD {
                if entry.fd == inputFD {
                    let written = input[inputOffset...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
                    if written > 0 { inputOffset += written }
                    if (written < 0 && errno != EAGAIN && errno != EINTR) || inputOffset >= input.count {
                        close(inputFD)
                        inputFD = -1
                        input = []
                    }
                } else if readOnce(entry.fd) == 0 {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        if timedOut || request.ownProcessGroup {
            // After a normal exit, only what the child left behind is still in its group.
            kill(request.ownProcessGroup ? -child.pid : child.pid, SIGKILL)
        }
        if inputFD >= 0 { close(inputFD) }
        // What the child wrote before it exited is still in the pipes: at most a pipe's size
        // (1 MiB at the most an unprivileged process can set). Whatever else still holds them
        // (a child that left the group) may write on, so the draining is bounded too.
        for fd in open {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var drained = 0
            while drained <= PosixProcessRunner.maximumPipeSize, let count = readOnce(fd), count > 0 {
                drained += count
            }
            close(fd)
        }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        return result(status, outputs, child, timedOut: timedOut)
    }

    /// `/proc/sys/fs/pipe-max-size` by default: the largest pipe buffer a child can ask for.
    private static let maximumPipeSize = 1 << 20

    private func result(_ status: Int32, _ outputs: [Int32: CappedBytes], _ child: Child, timedOut: Bool) -> ProcessResult {
        let code: Int32
        if status & 0x7F == 0 {
            code = (status >> 8) & 0xFF
        } else {
            code = 128 + (status & 0x7F)
        }
        return ProcessResult(
            status: timedOut ? 128 + SIGKILL : code,
            stdout: outputs[child.stdout]?.bytes ?? [],
            stderr: outputs[child.stderr]?.bytes ?? [],
            timedOut: timedOut,
            stdoutTruncated: outputs[child.stdout]?.truncated ?? false,
            stderrTruncated: outputs[child.stderr]?.truncated ?? false
        )
    }
}

private func currentDirectory() -> String? {
    guard let directory = getcwd(nil, 0) else { return nil }
    defer { free(directory) }
    return String(cString: directory)
}

/// The absolute path `program` runs from: itself when it contains a slash, else the first
/// executable of that name on `searchPath`.
package func resolveExecutable(_ program: String, searchPath: [String], fileSystem: FileSystem) -> String? {
    if program.contains("/") {
        return fileSystem.isExecutable(program) ? program : nil
    }
    for directory in searchPath where directory.hasPrefix("/") {
        let candidate = joinPath(directory, program)
        if fileSystem.isExecutable(candidate) { return candidate }
    }
    return nil
}
