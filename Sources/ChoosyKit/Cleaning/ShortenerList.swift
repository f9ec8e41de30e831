/// The hosts of link shorteners (doc/links-and-rules.md, "Unshortening"): a text file with one
/// host a line (`bit.ly`), `#` starting a comment, blank lines ignored. A line that is no host
/// is skipped, and the file costs one warning for all such lines; the rest of the list stands.
struct ShortenerList: Equatable, Sendable {
    /// Where the list came from, for warnings and -v.
    let source: String
    /// Each host as a browser writes it (lowercase, IDNA in ASCII).
    let hosts: Set<String>
    let warning: String?

    /// The largest list read; the shipped one is under 2 KiB.
    static let maximumSize = 1 << 20

    init(parsing bytes: [UInt8], source: String) throws(CleaningError) {
        guard bytes.count <= Self.maximumSize else {
            throw CleaningError("\(source): larger than \(Self.maximumSize) bytes")
        }
        var hosts = Set<String>()
        var skipped: [Int] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let text = trimmed(String(decoding: line.prefix { $0 != UInt8(ascii: "#") }, as: UTF8.self))
            guard !text.isEmpty else { continue }
            if let host = Self.host(text) { hosts.insert(host) } else { skipped.append(index + 1) }
        }
        self.source = source
        self.hosts = hosts
        warning =
            skipped.first.map { first in
                "\(source): \(skipped.count) line\(skipped.count == 1 ? " is" : "s are") not a host name (the first is line \(first)); skipped"
            }
    }

    /// Whether links of `host` are shortened links; `www.` in front of a listed name counts as
    /// the name, and so does a trailing dot.
    func lists(_ host: WebHost) -> Bool {
        let name = Self.name(of: host)
        return hosts.contains(name) || (name.hasPrefix("www.") && hosts.contains(String(name.dropFirst(4))))
    }

    /// A host as a link's host reads it, or nil for text that is not a host alone (a URL, a
    /// path, a port).
    private static func host(_ text: String) -> String? {
        guard
            !text.utf8.contains(where: {
                [UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x20, 0x09].contains($0)
            }),
            text.first == "[" || !text.contains(":"), let host = try? WebHost(parsing: text), !host.hasEmptyLabel
        else { return nil }
        let name = name(of: host)
        return name.isEmpty ? nil : name
    }

    private static func name(of host: WebHost) -> String {
        host.domainName ?? host.serialized
    }
}
