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
            space < close, let pid = decimal(bytes[..<space]), pid > 0
        else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let parent = decimal(fields[1]) else { return nil }
        return (pid, parent)
    }

    /// The values of `names` in `environ` (`NAME=VALUE` entries, each ended by a NUL); the
    /// first of a name wins, as `getenv` finds it. A value that is not UTF-8 is left out.
    package static func variables(_ names: Set<String>, inEnviron bytes: [UInt8]) -> [String: String] {
        var found: [String: String] = [:]
        for entry in bytes.split(separator: 0) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            guard let name = String(validating: entry[..<equals], as: UTF8.self), names.contains(name), found[name] == nil,
                let value = String(validating: entry[(equals + 1)...], as: UTF8.self)
            else { continue }
            found[name] = value
        }
        return found
    }

    /// The arguments of `cmdline`, each ended by a NUL (a process may rewrite it: then it is
    /// what it wrote).
    package static func arguments(ofCmdline bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
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

    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int32? {
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int32(String(decoding: digits, as: UTF8.self))
    }
}
