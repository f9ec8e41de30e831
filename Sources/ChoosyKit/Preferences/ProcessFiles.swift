/// What choosy reads in a process's `/proc/<pid>/` files to find where a link came from
/// (doc/links-and-rules.md, "Where a link came from"). Every one of them may hold anything
/// (a process names itself, and sets its own environment), so each reader takes bytes and
/// gives nil or nothing for what it cannot read.
package enum ProcessFiles {
    /// The largest `environ` read; a larger one is not searched (doc/security.md).
    package static let environmentLimit = 256 << 10
    /// `stat`, `cmdline` and `cgroup` are small; a larger one is not read.
    package static let smallFileLimit = 64 << 10

    /// The process ID and its parent's, from `stat`: `pid (comm) state ppid …`, where the
    /// command name may hold spaces and parentheses, so it ends at the last `)`.
    package static func ids(ofStat bytes: [UInt8]) -> (pid: Int32, parent: Int32)? {
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")), let close = bytes.lastIndex(of: UInt8(ascii: ")")),
            space < close, let pid = ASCIINumber.decimal(bytes[..<space]).flatMap(Int32.init(exactly:)), pid > 0
        else { return nil }
        // The second field after the command name, fields being runs of bytes between spaces
        // (by index: splitting the rest of the line cost more than reading the file).
        var index = close + 1
        var field = 0
        while index < bytes.count {
            guard bytes[index] != UInt8(ascii: " ") else {
                index += 1
                continue
            }
            let end = bytes[index...].firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex
            if field == 1 { return ASCIINumber.decimal(bytes[index..<end]).flatMap(Int32.init(exactly:)).map { (pid, $0) } }
            field += 1
            index = end
        }
        return nil
    }

    /// The values of `names` in `environ` (`NAME=VALUE` entries, each ended by a NUL); the
    /// first of a name wins, as `getenv` finds it. A value that is not UTF-8 is left out.
    /// Names are compared by their bytes, as `getenv` compares them (and a String of each of
    /// the dozens of names cost more than reading the file).
    package static func variables(_ names: Set<String>, inEnviron bytes: [UInt8]) -> [String: String] {
        var found: [String: String] = [:]
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.endIndex
            defer { start = end + 1 }
            guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")),
                let name = names.first(where: { $0.utf8.count == equals - start && $0.utf8.elementsEqual(bytes[start..<equals]) }),
                found[name] == nil,
                let value = String(validating: bytes[(equals + 1)..<end], as: UTF8.self)
            else { continue }
            found[name] = value
        }
        return found
    }

    /// The arguments of `cmdline`, each ended by a NUL (a process may rewrite it: then it is
    /// what it wrote); only the first `limit` (the rest of a long command line is not read).
    package static func arguments(ofCmdline bytes: [UInt8], limit: Int = .max) -> [String] {
        bytes.split(separator: 0, maxSplits: limit, omittingEmptySubsequences: true).prefix(limit).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The last component of the unified (`0::`) hierarchy's path in `cgroup`: the unit a
    /// process runs in (`app-gnome-firefox-1234.scope`).
    package static func unit(inCgroup bytes: [UInt8]) -> String? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "0::".utf8) {
            guard let slash = line.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            let name = line[(slash + 1)...]
            return name.isEmpty ? nil : String(validating: name, as: UTF8.self)
        }
        return nil
    }
}
