import Foundation
import Glibc

/// Every path below a directory with what it holds (contents and modification time for files,
/// the target for symlinks), so a test can show that a command touched nothing outside the
/// places it may write.
package struct TreeSnapshot: Equatable {
    package enum Node: Equatable {
        case directory
        case file(contents: Data, modified: Int64)
        case symlink(String)
        case other
    }

    private(set) var nodes: [String: Node] = [:]

    /// Walks `root` without following symlinks, leaving out every path in `excluding` and
    /// everything below it.
    package init(_ root: String, excluding excluded: [String] = []) {
        walk(root, excluded: excluded)
    }

    private mutating func walk(_ path: String, excluded: [String]) {
        guard !excluded.contains(path) else { return }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            nodes[path] = .directory
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() {
                walk(path + "/" + name, excluded: excluded)
            }
        case S_IFREG:
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            nodes[path] = .file(contents: FileManager.default.contents(atPath: path) ?? Data(), modified: modified)
        case S_IFLNK:
            nodes[path] = .symlink((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "")
        default:
            nodes[path] = .other
        }
    }

    /// The paths that were added, removed or changed since `earlier`, sorted.
    package func changes(since earlier: TreeSnapshot) -> [String] {
        Set(nodes.keys).union(earlier.nodes.keys).filter { nodes[$0] != earlier.nodes[$0] }.sorted()
    }
}
