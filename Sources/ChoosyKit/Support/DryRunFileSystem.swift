/// The file system of a `--dry-run`: reads pass through, and nothing is written, moved aside,
/// removed or locked, whoever asks (a cache that would be refreshed simply is not). Built by
/// the composition root around the real one, so no part can forget the dry run.
package struct DryRunFileSystem: FileSystem {
    private let reading: FileSystem

    package init(reading: FileSystem) {
        self.reading = reading
    }

    package func info(_ path: String) -> FileInfo? { reading.info(path) }
    package func read(_ path: String, limit: Int) throws -> [UInt8] { try reading.read(path, limit: limit) }
    package func readProcessFile(_ path: String, limit: Int) throws -> [UInt8] { try reading.readProcessFile(path, limit: limit) }
    package func info(atPath path: [UInt8]) -> FileInfo? { reading.info(atPath: path) }
    package func isSymbolicLink(atPath path: [UInt8]) -> Bool { reading.isSymbolicLink(atPath: path) }
    package func isReadable(atPath path: [UInt8]) -> Bool { reading.isReadable(atPath: path) }
    package func readStart(atPath path: [UInt8], count: Int) throws -> [UInt8] { try reading.readStart(atPath: path, count: count) }
    package func currentDirectory() -> [UInt8]? { reading.currentDirectory() }
    package func list(_ directory: String) -> [String]? { reading.list(directory) }
    package func listNames(_ directory: String) -> DirectoryNames? { reading.listNames(directory) }
    package func isExecutable(_ path: String) -> Bool { reading.isExecutable(path) }
    package func linkTarget(_ path: String) -> String? { reading.linkTarget(path) }
    package func canonicalPath(_ path: String) -> String? { reading.canonicalPath(path) }

    package func writeAtomically(_ bytes: [UInt8], to path: String, permissions: UInt32) throws { throw Self.refusal(path) }
    package func append(_ bytes: [UInt8], to path: String, permissions: UInt32) throws { throw Self.refusal(path) }
    package func removeAbandonedTemporaryFiles(of path: String) {}
    package func createDirectory(_ path: String, permissions: UInt32) throws { throw Self.refusal(path) }
    package func rename(_ source: String, to destination: String) throws { throw Self.refusal(source) }
    package func remove(_ path: String) {}
    package func lock(_ path: String, timeout: Double) throws -> any HeldLock { throw Self.refusal(path) }

    private static func refusal(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: "a dry run writes nothing")
    }
}
