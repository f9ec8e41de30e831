/// What a process runs, by the file names that a desktop entry's `Exec` program is matched
/// against (doc/links-and-rules.md, "Where a link came from"): where a link came from and which
/// choices are running (doc/running.md) match processes alike.
package struct ProcessPrograms {
    let fileSystem: FileSystem

    package init(fileSystem: FileSystem) {
        self.fileSystem = fileSystem
    }

    /// The file names of what the process of `directory` (`/proc/<pid>`) runs, given its
    /// first two `arguments`: the script an interpreter runs (`python3 /opt/tool/tool.py` is
    /// tool.py), else its executable and its `argv[0]`. A process whose `argv[0]` passes links
    /// on (a shell) is that alone: its executable would not change what it is, so it is not read.
    package func names(in directory: String, arguments: [String]) -> [String] {
        if arguments.count >= 2, holds(arguments[1], UInt8(ascii: "/")), fileSystem.isExecutable(arguments[1]) {
            return [Self.fileName(arguments[1])]
        }
        let argumentName = arguments.first.map(Self.fileName) ?? ""
        if LinkSourceFinder.passesLinksOn(argumentName) { return [argumentName] }
        var names: [String] = []
        names.reserveCapacity(2)
        // A replaced executable reads `/usr/bin/app (deleted)`.
        if let path = fileSystem.linkTarget(directory + "/exe"),
            case let name = Self.fileName(path.hasSuffix(" (deleted)") ? String(path.dropLast(10)) : path), !name.isEmpty
        {
            names.append(name)
        }
        if !argumentName.isEmpty, !names.contains(argumentName) { names.append(argumentName) }
        return names
    }

    /// The last component: by byte in ASCII, where each byte is a Character (splitting by
    /// Character was most of reading an ancestor's names).
    package static func fileName(_ path: String) -> String {
        guard isASCII(path) else { return path.split(separator: "/").last.map(String.init) ?? "" }
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        return String(path[start..<end])
    }
}
