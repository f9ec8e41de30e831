import Glibc
import Synchronization

@testable import ChoosyKit

/// In-memory stand-ins for the seams (file system, clock, processes, pickers, installed apps),
/// so that the decisions above them are tested directly, without touching the disk or
/// starting a process. The real implementations are tested for real elsewhere.

/// Files and directories in memory. Writes create missing parent directories, as the real
/// `writeAtomically` callers arrange; locks always succeed (one test, one thread).
package final class FakeFileSystem: FileSystem {
    package init() {}

    private enum Node {
        case file([UInt8], permissions: UInt32)
        case directory
    }

    private let nodes = Mutex<[String: Node]>(["/": .directory])
    /// Every path written, in order, to show what a command wrote.
    package let writes = Mutex<[String]>([])
    /// Every path read or looked at (`read`, `info`, `list`, `linkTarget`), in order.
    package let looked = Mutex<[String]>([])
    /// Symbolic links by path, as `linkTarget` gives them; and owners other than this user.
    package let links = Mutex<[String: String]>([:])
    package let owners = Mutex<[String: UInt32]>([:])

    package func file(_ path: String) -> String? {
        guard case .file(let bytes, _)? = nodes.withLock({ $0[path] }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    package func info(_ path: String) -> FileInfo? {
        looked.withLock { $0.append(path) }
        let owner = owners.withLock { $0[path] } ?? getuid()
        switch nodes.withLock({ $0[path] }) {
        case .file(let bytes, let permissions)?:
            return FileInfo(
                kind: .regular, permissions: permissions, owner: owner, size: Int64(bytes.count), modified: 0, identity: fakeIdentity(path))
        case .directory?:
            return FileInfo(kind: .directory, permissions: 0o755, owner: owner, size: 0, modified: 0, identity: fakeIdentity(path))
        case nil: return nil
        }
    }

    package func linkTarget(_ path: String) -> String? {
        looked.withLock { $0.append(path) }
        return links.withLock { $0[path] }
    }

    /// The path, or the absolute target `links` gives it; nil when that does not exist.
    package func canonicalPath(_ path: String) -> String? {
        looked.withLock { $0.append(path) }
        let target = links.withLock { $0[path] } ?? path
        return nodes.withLock { $0[target] } == nil ? nil : target
    }

    /// One identity per path: the fake has no links.
    private func fakeIdentity(_ path: String) -> FileIdentity {
        FileIdentity(device: 0, inode: UInt64(bitPattern: Int64(path.hashValue)))
    }

    package func read(_ path: String, limit: Int) throws -> [UInt8] {
        looked.withLock { $0.append(path) }
        guard case .file(let bytes, _)? = nodes.withLock({ $0[path] }) else { throw FileSystemError(path: path, code: ENOENT) }
        guard bytes.count <= limit else { throw FileSystemError(path: path, reason: "too large") }
        return bytes
    }

    package func list(_ directory: String) -> [String]? {
        looked.withLock { $0.append(directory) }
        return nodes.withLock { nodes in
            guard case .directory? = nodes[directory] else { return nil }
            return nodes.keys.filter { $0 != directory && parentDirectory(of: $0) == directory }.map {
                String($0.dropFirst(directory.count + 1))
            }
        }
    }

    package func isExecutable(_ path: String) -> Bool {
        guard case .file(_, let permissions)? = nodes.withLock({ $0[path] }) else { return false }
        return permissions & 0o111 != 0
    }

    package func writeAtomically(_ bytes: [UInt8], to path: String, permissions: UInt32) throws {
        try createDirectory(parentDirectory(of: path), permissions: 0o700)
        nodes.withLock { $0[path] = .file(bytes, permissions: permissions) }
        writes.withLock { $0.append(path) }
    }

    package func append(_ bytes: [UInt8], to path: String, permissions: UInt32) throws {
        try createDirectory(parentDirectory(of: path), permissions: 0o700)
        nodes.withLock { nodes in
            if case .file(let old, let mode)? = nodes[path] {
                nodes[path] = .file(old + bytes, permissions: mode)
            } else {
                nodes[path] = .file(bytes, permissions: permissions)
            }
        }
        writes.withLock { $0.append(path) }
    }

    package func removeAbandonedTemporaryFiles(of path: String) {}

    package func createDirectory(_ path: String, permissions: UInt32) throws {
        var path = path
        while path != "/" && !path.isEmpty {
            let current = path
            nodes.withLock { nodes in if nodes[current] == nil { nodes[current] = .directory } }
            path = parentDirectory(of: path)
        }
    }

    package func rename(_ source: String, to destination: String) throws {
        try nodes.withLock { nodes in
            guard let node = nodes.removeValue(forKey: source) else { throw FileSystemError(path: source, code: ENOENT) }
            nodes[destination] = node
        }
    }

    package func remove(_ path: String) {
        _ = nodes.withLock { $0.removeValue(forKey: path) }
    }

    package func lock(_ path: String, timeout: Double) throws -> any HeldLock { NoLock() }

    private struct NoLock: HeldLock {
        package func unlock() {}
    }
}

package struct FakeClock: Clock {
    package var time: Double

    package init(time: Double = 1_800_000_000) { self.time = time }
    package func now() -> Double { time }
}

/// Records what would have been started; never starts anything.
package final class FakeProcessRunner: ProcessRunner {
    package init() {}

    package let spawned = Mutex<[[String]]>([])
    package let ran = Mutex<[[String]]>([])

    package func spawnDetached(_ request: ProcessRequest) throws(SpawnError) {
        spawned.withLock { $0.append(request.argv) }
    }

    package func run(_ request: ProcessRequest) throws(SpawnError) -> ProcessResult {
        ran.withLock { $0.append(request.argv) }
        return ProcessResult(status: 127)
    }
}

/// A picker that gives the answers it was told to, in order, and remembers what it was shown.
package final class ScriptedPicker: Picker {
    private let answers: Mutex<[PickerAnswer]>
    package let shown = Mutex<[Shown]>([])

    /// A request as a picker shows it: with its site found.
    package struct Shown: Sendable {
        package var title: String
        package var candidates: [PickerCandidate]
        package var allowAlways: Bool
        package var site: String?
    }

    package init(_ answers: PickerAnswer...) {
        self.answers = Mutex(answers)
    }

    package func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        let shown = Shown(title: request.title, candidates: request.candidates, allowAlways: request.allowAlways, site: request.site)
        self.shown.withLock { $0.append(shown) }
        return answers.withLock { $0.isEmpty ? .cancelled : $0.removeFirst() }
    }

    package var shownNames: [[String]] { shown.withLock { $0.map { $0.candidates.map(\.displayName) } } }
}

/// App types and their installed apps as a test sets them.
package final class FakeAppDirectory: InstalledAppDirectory {
    package init() {}

    package var types: [String: AppType] = [:]
    package var installed: [String: [InstalledApp]] = [:]
    /// By app key.
    package var profiles: [String: [BrowserProfile]] = [:]

    package func appType(_ input: String) throws(ChoosyError) -> AppType {
        guard let type = types[input.lowercased()] else { throw .unknown("unknown app type '\(input)'") }
        return type
    }

    package func installedApps(of type: AppType) throws(ChoosyError) -> [InstalledApp] { installed[type.key] ?? [] }
    package func systemDefaultFirst(_ apps: [InstalledApp]) -> [InstalledApp] { apps }
    package func profiles(of installed: InstalledApp) -> [BrowserProfile] { profiles[installed.app.key] ?? [] }
    package func typeKeys() -> [String] { types.keys.sorted() }
    package func typeKeys(claiming mimeTypes: [String]) -> [String] {
        typeKeys().filter { types[$0]!.mimeTypes.contains(where: mimeTypes.contains) }
    }
    package func schemeHandlers(forScheme scheme: String) -> (type: AppType, installed: [InstalledApp])? { nil }
    package func fileHandlers(forTypes types: [String]) -> (type: AppType, installed: [InstalledApp], listedDefault: String?)? { nil }
    package func whyNotInstalled(_ app: App) -> NotCandidateReason { .notInstalled([]) }
    package func removedHandlers(of type: AppType) -> [(entry: DesktopEntry, scheme: String)] { [] }

    /// Makes `app` of `type` installed through a desktop entry running `program %u`.
    package func install(_ app: App, of type: String, program: String) {
        let entry = DesktopEntry(
            id: app.desktopIDs.first ?? app.key + ".desktop", path: "/usr/share/applications/\(app.key).desktop",
            keys: [
                "Type": "Application", "Name": app.name, "Exec": "\(program) %u",
            ])
        installed[type, default: []].append(InstalledApp(app: app, entry: entry, displayName: app.name))
    }
}
