import Glibc

/// What `stat` says about a path.
package struct FileInfo: Equatable, Sendable {
    /// What `stat` says the path is; `other` for what no case names.
    package enum Kind: Sendable { case regular, directory, socket, fifo, characterDevice, blockDevice, other }

    package var kind: Kind
    /// Permission bits (`st_mode & 0o7777`).
    package var permissions: UInt32
    package var owner: UInt32
    package var size: Int64
    /// Modification time in nanoseconds since the epoch; directory mtimes invalidate indexes.
    package var modified: Int64
    /// Device and inode: walks remember the directories they visited by it (doc/security.md).
    package var identity: FileIdentity
}

/// `st_dev` and `st_ino`, the same for every path (symlinks included) that reaches one file.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
}

package struct FileSystemError: Error, CustomStringConvertible, Sendable {
    package var path: String
    package var reason: String
    package var code: Int32
    /// Larger than the reader takes (`tooLarge`).
    package private(set) var isTooLarge = false

    package init(path: String, code: Int32) {
        self.path = path
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    package init(path: String, reason: String) {
        self.path = path
        self.code = 0
        self.reason = reason
    }

    /// A FIFO, socket, device or directory where choosy wants a regular file (doc/security.md).
    package static func notRegularFile(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: notRegularReason)
    }

    package var isNotRegularFile: Bool { code == 0 && reason == Self.notRegularReason }

    /// A file larger than a reader takes (`larger than 16 MiB`).
    package static func tooLarge(_ path: String, limit: Int) -> FileSystemError {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : limit % 1024 == 0 ? "\(limit >> 10) KiB" : "\(limit) bytes"
        var error = FileSystemError(path: path, reason: "larger than \(size)")
        error.isTooLarge = true
        return error
    }

    private static let notRegularReason = "not a regular file"

    package var description: String { "\(path): \(reason)" }
}

/// The file operations choosy needs; the real one is `LocalFileSystem`.
package protocol FileSystem: Sendable {
    /// `stat` (following symlinks), or nil when the path does not exist or cannot be reached.
    func info(_ path: String) -> FileInfo?
    /// The whole file, refusing files larger than `limit` bytes.
    func read(_ path: String, limit: Int) throws -> [UInt8]
    /// A file below `/proc/<pid>/` that the kernel fills each read of as far as it goes:
    /// `stat`, `cgroup` (made whole for each read), `cmdline` and `environ` (copied until the
    /// read is full), refused past `limit` bytes like `read`. A short read is then its end, and
    /// there is no size to check: two system calls fewer than `read` per file, which finding
    /// where a link came from makes for each ancestor. Not for files of many records (`maps`,
    /// `mountinfo`), which procfs hands out a page at a time.
    func readProcessFile(_ path: String, limit: Int) throws -> [UInt8]
    /// `info` of a path given as bytes: a file's name need not be UTF-8 (a local file handed
    /// to choosy, whose name reaches its app byte for byte).
    func info(atPath path: [UInt8]) -> FileInfo?
    /// Whether the path is a symbolic link itself (`lstat`), pointing anywhere or nowhere.
    func isSymbolicLink(atPath path: [UInt8]) -> Bool
    /// Whether this process may read the file, or list the directory (`access`).
    func isReadable(atPath path: [UInt8]) -> Bool
    /// The first `count` bytes of a regular file (all of a shorter one), whatever its size: what
    /// a file's MIME type is sniffed from.
    func readStart(atPath path: [UInt8], count: Int) throws -> [UInt8]
    /// This process's working directory (`getcwd`), as bytes; nil when it is gone.
    func currentDirectory() -> [UInt8]?
    /// The names in a directory (without `.` and `..`), or nil when it cannot be listed.
    func list(_ directory: String) -> [String]?
    /// `list`, as bytes (for directories of thousands of names).
    func listNames(_ directory: String) -> DirectoryNames?
    /// True for a regular file this process may execute.
    func isExecutable(_ path: String) -> Bool
    /// What the symbolic link `path` points to (`readlink`), or nil when it is none or cannot be read.
    func linkTarget(_ path: String) -> String?
    /// The path with every symbolic link resolved (`realpath`), or nil when it does not exist.
    func canonicalPath(_ path: String) -> String?
    /// Writes through a temporary file in the same directory, fsyncs, then renames it over
    /// `path`, so readers see the old file or the new one and never a torn one.
    func writeAtomically(_ bytes: [UInt8], to path: String, permissions: UInt32) throws
    /// Adds `bytes` at the end of the regular file `path` (created with `permissions`, its
    /// directory too) in one `O_APPEND` write: only for callers holding a lock that every
    /// writer of `path` takes, so that the write is never interleaved with another. A link or
    /// anything but a regular file in its place is refused (`notRegularFile`).
    func append(_ bytes: [UInt8], to path: String, permissions: UInt32) throws
    /// Removes the temporary files that `writeAtomically` left beside `path` when its process
    /// died between creating and renaming them. Only for callers holding a lock that every
    /// writer of `path` takes: then none of those files belongs to a write still going on.
    func removeAbandonedTemporaryFiles(of path: String)
    /// `mkdir -p` with the given permissions for the directories it creates.
    func createDirectory(_ path: String, permissions: UInt32) throws
    func rename(_ source: String, to destination: String) throws
    func remove(_ path: String)
    /// Blocks until this process holds the exclusive lock of the lock file `path` (creating
    /// it and its directory), or throws after `timeout` seconds.
    func lock(_ path: String, timeout: Double) throws -> any HeldLock
}

extension FileSystem {
    /// Moves a file of choosy's that cannot be read to `<path>.corrupt-<now>` (`-2`, … for a
    /// second one in the same second), so that it is never lost; nil when another process
    /// moved it first. Throws when it is still there.
    package func moveAside(_ path: String, now: Double) throws -> String? {
        let stamp = "\(path).corrupt-\(Int(now))"
        var aside = stamp
        var copy = 1
        while info(aside) != nil {
            copy += 1
            aside = "\(stamp)-\(copy)"
        }
        do {
            try rename(path, to: aside)
        } catch {
            guard info(path) == nil && linkTarget(path) == nil else { throw error }
            return nil
        }
        return aside
    }

    package func listNames(_ directory: String) -> DirectoryNames? {
        list(directory).map(DirectoryNames.init)
    }

    /// A file system of UTF-8 names only (a test's) takes a path's bytes as their text, and
    /// works in `/`.
    package func info(atPath path: [UInt8]) -> FileInfo? { info(String(decoding: path, as: UTF8.self)) }
    package func isSymbolicLink(atPath path: [UInt8]) -> Bool { linkTarget(String(decoding: path, as: UTF8.self)) != nil }
    package func isReadable(atPath path: [UInt8]) -> Bool { info(atPath: path) != nil }
    package func currentDirectory() -> [UInt8]? { Array("/".utf8) }
    package func readStart(atPath path: [UInt8], count: Int) throws -> [UInt8] {
        Array(try read(String(decoding: path, as: UTF8.self), limit: Int.max).prefix(count))
    }

    /// A file system without a procfs of its own (a test's) reads such a file as any other.
    package func readProcessFile(_ path: String, limit: Int) throws -> [UInt8] {
        try read(path, limit: limit)
    }
}

/// A lock held until `unlock` (or the end of the process).
package protocol HeldLock {
    func unlock()
}

extension FileLock: HeldLock {}

package struct LocalFileSystem: FileSystem {
    package init() {}

    package func lock(_ path: String, timeout: Double) throws -> any HeldLock {
        try FileLock(path: path, timeout: timeout, fileSystem: self)
    }

    /// A `String` reaches `stat` as it is: this runs for every desktop entry a command looks
    /// for, and a copy of the path's bytes would double its cost.
    package func info(_ path: String) -> FileInfo? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Self.info(of: status)
    }

    package func info(atPath path: [UInt8]) -> FileInfo? {
        var status = stat()
        guard LocalFileSystem.withPath(path, { stat($0, &status) }) == 0 else { return nil }
        return Self.info(of: status)
    }

    private static func info(of status: stat) -> FileInfo {
        let kind: FileInfo.Kind =
            switch status.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            case S_IFSOCK: .socket
            case S_IFIFO: .fifo
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            default: .other
            }
        return FileInfo(
            kind: kind,
            permissions: UInt32(status.st_mode & 0o7777),
            owner: status.st_uid,
            size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        )
    }

    package func read(_ path: String, limit: Int) throws -> [UInt8] {
        // O_NONBLOCK: a FIFO in a file's place must not hang the command at open; then only a
        // regular file is read (a FIFO, socket or device counts as a file that cannot be read).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FileSystemError.notRegularFile(path)
        }
        // Refused before a byte is read: a file of gigabytes costs nothing (doc/security.md).
        guard status.st_size <= limit else { throw FileSystemError.tooLarge(path, limit: limit) }
        // Read into the uninitialized space of an array sized by fstat (one byte more, to see
        // the end in one buffer): most files choosy reads are a few KiB, and zeroing a large
        // buffer for each cost more than reading them, as did copying a buffer of hundreds of
        // KiB into the array. Files that grow or lie about their size still work.
        let sizeHint = status.st_size > 0 ? Int(status.st_size) : 0
        let firstChunk = min(max(sizeHint + 1, 4096), limit + 1, 1 << 20)
        return try readToEnd(fd, path: path, limit: limit, firstChunk: firstChunk, shortReadEnds: false)
    }

    package func readProcessFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        return try readToEnd(fd, path: path, limit: limit, firstChunk: min(4096, limit + 1), shortReadEnds: true)
    }

    package func isSymbolicLink(atPath path: [UInt8]) -> Bool {
        var status = stat()
        return LocalFileSystem.withPath(path, { lstat($0, &status) }) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    package func isReadable(atPath path: [UInt8]) -> Bool {
        LocalFileSystem.withPath(path, { access($0, R_OK) }) == 0
    }

    package func currentDirectory() -> [UInt8]? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return Array(UnsafeRawBufferPointer(start: directory, count: strlen(directory)))
    }

    package func readStart(atPath path: [UInt8], count: Int) throws -> [UInt8] {
        let name = String(decoding: path, as: UTF8.self)
        let fd = LocalFileSystem.withPath(path, { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) })
        guard fd >= 0 else { throw FileSystemError(path: name, code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw FileSystemError.notRegularFile(name) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < buffer.count {
                let read = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                if read > 0 {
                    initialized += read
                } else if read == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        if failure != 0 { throw FileSystemError(path: name, code: failure) }
        return bytes
    }

    /// `body` with the path as a C string of exactly its bytes (a NUL among them ends it
    /// early, and no file has such a name).
    private static func withPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body($0) }
        }
    }

    /// Reads `fd` to its end, refusing more than `limit` bytes: into chunks, the first of
    /// `firstChunk` bytes, each filled until the file ends, so that a file that fits takes
    /// one. With `shortReadEnds`, a read that fills less than its chunk is the end (procfs).
    private func readToEnd(_ fd: Int32, path: String, limit: Int, firstChunk: Int, shortReadEnds: Bool) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunkSize = firstChunk
        while true {
            var failure: Int32 = 0
            var ended = false
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
                while initialized < buffer.count {
                    let count = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                    if count > 0 {
                        initialized += count
                        if shortReadEnds && initialized < buffer.count { ended = true }
                    } else if count == 0 {
                        ended = true
                    } else if errno != EINTR {
                        failure = errno
                    }
                    if ended || failure != 0 { return }
                }
            }
            if failure != 0 { throw FileSystemError(path: path, code: failure) }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            if bytes.count > limit { throw FileSystemError.tooLarge(path, limit: limit) }
            if ended { return bytes }
            chunkSize = 65536
        }
    }

    package func list(_ directory: String) -> [String]? {
        listNames(directory)?.strings
    }

    package func listNames(_ directory: String) -> DirectoryNames? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names = DirectoryNames()
        // The name in place: reading `d_name` copies all 256 bytes of it first.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(stream) {
            let start = UnsafeRawPointer(entry).advanced(by: nameOffset)
            let name = UnsafeBufferPointer(
                start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
            let isDotOrDotDot =
                (name.count == 1 || name.count == 2) && name[0] == UInt8(ascii: ".") && (name.count == 1 || name[1] == UInt8(ascii: "."))
            if !isDotOrDotDot { names.append(name) }
        }
        return names
    }

    package func isExecutable(_ path: String) -> Bool {
        info(path)?.kind == .regular && access(path, X_OK) == 0
    }

    package func linkTarget(_ path: String) -> String? {
        // PATH_MAX: the kernel gives no longer target (`/proc/<pid>/exe` included).
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer in
            let count = readlink(path, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }

    package func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package func writeAtomically(_ bytes: [UInt8], to path: String, permissions: UInt32) throws {
        let directory = parentDirectory(of: path)
        try createDirectory(directory, permissions: 0o700)
        var template = Array((path + LocalFileSystem.temporarySuffix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32 = 0
        var offset = 0
        while offset < bytes.count && failure == 0 {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += written
            }
        }
        if failure == 0 && fchmod(fd, mode_t(permissions)) != 0 { failure = errno }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && Glibc.rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw FileSystemError(path: path, code: failure)
        }
        // Make the rename itself durable, so a crash cannot bring back the old file.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    package func append(_ bytes: [UInt8], to path: String, permissions: UInt32) throws {
        try createDirectory(parentDirectory(of: path), permissions: 0o700)
        // O_NOFOLLOW and O_NONBLOCK: a link is never followed, a FIFO never waited on.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, mode_t(permissions))
        guard fd >= 0 else { throw errno == ELOOP ? .notRegularFile(path) : FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw FileSystemError.notRegularFile(path) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == EINTR else { throw FileSystemError(path: path, code: errno) }
            } else {
                offset += written
            }
        }
    }

    /// Temporary files are `<path>.tmp-XXXXXX` (mkstemp fills in the X's).
    private static let temporarySuffix = ".tmp-"

    package func removeAbandonedTemporaryFiles(of path: String) {
        let directory = parentDirectory(of: path)
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        let prefix = name + LocalFileSystem.temporarySuffix
        for name in list(directory) ?? [] where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            unlink(joinPath(directory, name))
        }
    }

    package func createDirectory(_ path: String, permissions: UInt32) throws {
        if info(path)?.kind == .directory { return }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectory(parent, permissions: permissions) }
        if mkdir(path, mode_t(permissions)) != 0 && errno != EEXIST {
            throw FileSystemError(path: path, code: errno)
        }
    }

    package func rename(_ source: String, to destination: String) throws {
        if Glibc.rename(source, destination) != 0 {
            throw FileSystemError(path: source, code: errno)
        }
    }

    package func remove(_ path: String) {
        unlink(path)
    }
}

/// The directory part of a path (`/a/b` → `/a`, `/a` → `/`).
package func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = String(path[..<slash])
    return parent.isEmpty ? "/" : parent
}

/// Joins path components with single slashes.
package func joinPath(_ base: String, _ components: String...) -> String {
    var result = base
    for component in components {
        if result.hasSuffix("/") {
            result += component
        } else {
            result += "/" + component
        }
    }
    return result
}
