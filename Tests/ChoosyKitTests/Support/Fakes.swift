@testable import ChoosyKit
import Glibc
import Synchronization

/// In-memory stand-ins for the seams (file system, clock, processes, pickers, installed apps),
/// so that the decisions above them are tested directly, without touching the disk or
/// starting a process. The real implementations are tested for real elsewhere.

/// Files and directories in memory. Writes create missing parent directories, as the real
/// `writeAtomically` callers arrange; locks always succeed (one test, one thread).
final class FakeFileSystem: FileSystem {
    private enum Node {
        case file([UInt8], permissions: UInt32)
        case directory
    }

    private let nodes = Mutex<[String: Node]>(["/": .directory])
    /// Every path written, in order, to show what a command wrote.
    let writes = Mutex<[String]>([])

    func file(_ path: String) -> String? {
        guard case .file(let bytes, _)? = nodes.withLock({ $0[path] }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func info(_ path: String) -> FileInfo? {
        switch nodes.withLock({ $0[path] }) {
        case .file(let bytes, let permissions)?: FileInfo(kind: .regular, permissions: permissions, owner: getuid(), size: Int64(bytes.count), modified: 0, identity: fakeIdentity(path))
        case .directory?: FileInfo(kind: .directory, permissions: 0o755, owner: getuid(), size: 0, modified: 0, identity: fakeIdentity(path))
        case nil: nil
        }
    }

    /// One identity per path: the fake has no links.
    private func fakeIdentity(_ path: String) -> FileIdentity {
        FileIdentity(device: 0, inode: UInt64(bitPattern: Int64(path.hashValue)))
    }

    func read(_ path: String, limit: Int) throws -> [UInt8] {
        guard case .file(let bytes, _)? = nodes.withLock({ $0[path] }) else { throw FileSystemError(path: path, code: ENOENT) }
        guard bytes.count <= limit else { throw FileSystemError(path: path, reason: "too large") }
        return bytes
    }

    func list(_ directory: String) -> [String]? {
        nodes.withLock { nodes in
            guard case .directory? = nodes[directory] else { return nil }
            return nodes.keys.filter { $0 != directory && parentDirectory(of: $0) == directory }.map { String($0.dropFirst(directory.count + 1)) }
        }
    }

    func isExecutable(_ path: String) -> Bool {
        guard case .file(_, let permissions)? = nodes.withLock({ $0[path] }) else { return false }
        return permissions & 0o111 != 0
    }

    func writeAtomically(_ bytes: [UInt8], to path: String, permissions: UInt32) throws {
        try createDirectory(parentDirectory(of: path), permissions: 0o700)
        nodes.withLock { $0[path] = .file(bytes, permissions: permissions) }
        writes.withLock { $0.append(path) }
    }

    func removeAbandonedTemporaryFiles(of path: String) {}

    func createDirectory(_ path: String, permissions: UInt32) throws {
        var path = path
        while path != "/" && !path.isEmpty {
            let current = path
            nodes.withLock { nodes in if nodes[current] == nil { nodes[current] = .directory } }
            path = parentDirectory(of: path)
        }
    }

    func rename(_ source: String, to destination: String) throws {
        try nodes.withLock { nodes in
            guard let node = nodes.removeValue(forKey: source) else { throw FileSystemError(path: source, code: ENOENT) }
            nodes[destination] = node
        }
    }

    func remove(_ path: String) {
        _ = nodes.withLock { $0.removeValue(forKey: path) }
    }

    func lock(_ path: String, timeout: Double) throws -> any HeldLock { NoLock() }

    private struct NoLock: HeldLock {
        func unlock() {}
    }
}

struct FakeClock: Clock {
    var time: Double = 1_800_000_000
    func now() -> Double { time }
}

/// Records what would have been started; never starts anything.
final class FakeProcessRunner: ProcessRunner {
    let spawned = Mutex<[[String]]>([])
    let ran = Mutex<[[String]]>([])

    func spawnDetached(_ request: ProcessRequest) throws(SpawnError) {
        spawned.withLock { $0.append(request.argv) }
    }

    func run(_ request: ProcessRequest) throws(SpawnError) -> ProcessResult {
        ran.withLock { $0.append(request.argv) }
        return ProcessResult(status: 127)
    }
}

/// A picker that gives the answers it was told to, in order, and remembers what it was shown.
final class ScriptedPicker: Picker {
    private let answers: Mutex<[PickerAnswer]>
    let shown = Mutex<[PickerRequest]>([])

    init(_ answers: PickerAnswer...) {
        self.answers = Mutex(answers)
    }

    func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        shown.withLock { $0.append(request) }
        return answers.withLock { $0.isEmpty ? .cancelled : $0.removeFirst() }
    }

    var shownNames: [[String]] { shown.withLock { $0.map { $0.candidates.map(\.displayName) } } }
}

/// App types and their installed apps as a test sets them.
final class FakeAppDirectory: InstalledAppDirectory {
    var types: [String: AppType] = [:]
    var installed: [String: [InstalledApp]] = [:]
    /// By app key.
    var profiles: [String: [BrowserProfile]] = [:]

    func appType(_ input: String) throws(ChoosyError) -> AppType {
        guard let type = types[input.lowercased()] else { throw .unknown("unknown app type '\(input)'") }
        return type
    }

    func installedApps(of type: AppType) throws(ChoosyError) -> [InstalledApp] { installed[type.key] ?? [] }
    func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp] { apps }
    func profiles(of installed: InstalledApp) -> [BrowserProfile] { profiles[installed.app.key] ?? [] }

    /// Makes `app` of `type` installed through a desktop entry running `program %u`.
    func install(_ app: App, of type: String, program: String) {
        let entry = DesktopEntry(id: app.desktopIDs.first ?? app.key + ".desktop", path: "/usr/share/applications/\(app.key).desktop", keys: [
            "Type": "Application", "Name": app.name, "Exec": "\(program) %u",
        ])
        installed[type, default: []].append(InstalledApp(app: app, entry: entry, displayName: app.name))
    }
}
