/// What choosy reads in a process's `/proc/<pid>/` files to find where a link came from
/// (doc/links-and-rules.md, "Where a link came from"). Every one of them may hold anything
/// (a process names itself, and sets its own environment), so each reader takes bytes and
/// gives nil or nothing for what it cannot read.
package enum ProcessFiles {
    /// The largest `environ` read; a larger one is not searched (doc/security.md).
    package static let environmentLimit = 256 << 10
    /// `stat`, `cmdline` and `cgroup` are small; a larger one is not read.
    package static let smallFileLimit = 64 << 10

    /// The process ID, its parent's and its command name, from `stat`: `pid (comm) state ppid
    /// …`, where the command name (the file name it was started as, cut to 15 bytes: a
    /// script's, not its interpreter's) may hold spaces and parentheses, so it ends at the
    /// last `)`.
    package static func stat(_ bytes: [UInt8]) -> (pid: Int32, parent: Int32, name: String)? {
        let all = 0..<bytes.count
        guard let space = bytes.firstIndex(of: UInt8(ascii: " "), in: all), let close = bytes.lastIndex(of: UInt8(ascii: ")"), in: all),
            space + 1 < close, bytes[space + 1] == UInt8(ascii: "("),
            let pid = ASCIINumber.decimal(bytes[..<space]).flatMap(Int32.init(exactly:)), pid > 0
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
            let end = bytes.firstIndex(of: UInt8(ascii: " "), in: index..<bytes.count) ?? bytes.count
            if field == 1 {
                guard let parent = ASCIINumber.decimal(bytes[index..<end]).flatMap(Int32.init(exactly:)) else { return nil }
                return (pid, parent, String(decoding: bytes[(space + 2)..<close], as: UTF8.self))
            }
            field += 1
            index = end
        }
        return nil
    }

    /// The values of `names` in `environ` (`NAME=VALUE` entries, each ended by a NUL); the
    /// first of a name wins, as `getenv` finds it. A value that is not UTF-8 is left out.
    /// Names are compared by their bytes, as `getenv` compares them, and an entry is passed
    /// over on its first byte when no name starts with it: an environment holds dozens of
    /// entries, and comparing each with every name cost more than reading the file.
    package static func variables(_ names: [String], inEnviron bytes: [UInt8]) -> [String: String] {
        let equalsSign = UInt8(ascii: "=")
        // An empty name is an entry that starts with `=`.
        let firstBytes = names.map { $0.utf8.first ?? equalsSign }
        var found: [String: String] = [:]
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: 0, in: start..<bytes.count) ?? bytes.count
            defer { start = end + 1 }
            guard firstBytes.contains(bytes[start]), let equals = bytes.firstIndex(of: equalsSign, in: start..<end),
                let name = names.first(where: { $0.utf8.count == equals - start && $0.utf8.elementsEqual(bytes[start..<equals]) }),
                found[name] == nil,
                let value = String(validating: bytes[(equals + 1)..<end], as: UTF8.self)
            else { continue }
            found[name] = value
        }
        return found
    }

    /// The arguments of `cmdline`, each ended by a NUL (a process may rewrite it: then it is
    /// what it wrote), empty ones left out; only the first `limit` (the rest of a long command
    /// line is not read).
    package static func arguments(ofCmdline bytes: [UInt8], limit: Int = .max) -> [String] {
        var arguments: [String] = []
        var start = 0
        while start < bytes.count, arguments.count < limit {
            let end = bytes.firstIndex(of: 0, in: start..<bytes.count) ?? bytes.count
            if end > start { arguments.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
            start = end + 1
        }
        return arguments
    }

    /// The last component of the unified (`0::`) hierarchy's path in `cgroup`: the unit a
    /// process runs in (`app-gnome-firefox-1234.scope`).
    package static func unit(inCgroup bytes: [UInt8]) -> String? {
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n"), in: start..<bytes.count) ?? bytes.count
            defer { start = end + 1 }
            guard bytes[start..<end].starts(with: "0::".utf8) else { continue }
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/"), in: start..<end) else { return nil }
            let name = bytes[(slash + 1)..<end]
            return name.isEmpty ? nil : String(validating: name, as: UTF8.self)
        }
        return nil
    }
}
