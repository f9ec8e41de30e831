/// The rules of rules.json by the domain of their site, kept in
/// `$XDG_CACHE_HOME/choosy/site-rules.index` (doc/configuration.md, "Files"): every link reads
/// the rules, and parsing the JSON of a hundred of them cost more than the rest of deciding
/// where the link goes. With the index a link parses only the rules that may match its host:
/// those whose site's domain is the host or a domain above it, and those whose site has no
/// domain name (an IP address, or `*`).
///
/// It stands for the rules.json of the size and `ContentHash` it names, and only while its own
/// hash matches its body; the lines a lookup reads are checked (their order, and the domain
/// against the rule), and one that is not right makes the caller read rules.json instead.
///
/// The file: a first line naming the format; `SIZE HASH BODYHASH COUNT` in decimal and hex;
/// then the body: the JSON array of the sources the rules name, each once, and a line per
/// rule, `DOMAIN<tab>ORDER<tab>RULE` (the rule as rules.json holds it, on one line), sorted by
/// domain and then by the rule's place in rules.json.
package struct SiteRuleIndex {
    /// The rules.json the index stands for.
    package struct Key: Equatable {
        var size: Int
        var hash: UInt64

        package init(_ bytes: [UInt8]) {
            size = bytes.count
            hash = ContentHash.of(bytes)
        }
    }

    private static let magic = Array("choosy site rule index 1\n".utf8)
    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")

    private let bytes: [UInt8]
    private let sourcesLine: Range<Int>
    /// Each rule's line without its newline, and its domain within it.
    private let lines: [(line: Range<Int>, domain: Range<Int>)]

    /// The index in `bytes`, when it stands for the rules.json of `key`; nil for any other
    /// or for bytes that are not one whole.
    package init?(decoding bytes: [UInt8], for key: Key) {
        guard bytes.starts(with: Self.magic), let headerEnd = Self.find(Self.newline, in: bytes, Self.magic.count..<bytes.count) else {
            return nil
        }
        let fields = bytes[Self.magic.count..<headerEnd].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 4, let size = ASCIINumber.decimal(fields[0]), size == key.size, let hash = ASCIINumber.hex16(fields[1]),
            hash == key.hash,
            let bodyHash = ASCIINumber.hex16(fields[2]), let count = ASCIINumber.decimal(fields[3]), count <= bytes.count
        else { return nil }
        let body = (headerEnd + 1)..<bytes.count
        guard bytes.withUnsafeBytes({ ContentHash.of(UnsafeRawBufferPointer(rebasing: $0[body])) }) == bodyHash,
            let sourcesEnd = Self.find(Self.newline, in: bytes, body)
        else { return nil }
        var lines: [(line: Range<Int>, domain: Range<Int>)] = []
        lines.reserveCapacity(count)
        var start = sourcesEnd + 1
        while start < bytes.count {
            guard let end = Self.find(Self.newline, in: bytes, start..<bytes.count), let tab = Self.find(Self.tab, in: bytes, start..<end)
            else { return nil }
            let domain = start..<tab
            // Sorted, as written: a binary search of lines out of order would miss rules.
            if let previous = lines.last?.domain, bytes[domain].lexicographicallyPrecedes(bytes[previous]) { return nil }
            lines.append((start..<end, domain))
            start = end + 1
        }
        guard lines.count == count else { return nil }
        self.bytes = bytes
        sourcesLine = body.lowerBound..<sourcesEnd
        self.lines = lines
    }

    /// The index of `rules`, those of the rules.json of `key`; nil when a site's domain cannot
    /// be a field of a line (no domain name holds a tab or a newline, but the index does not
    /// rest on that).
    package static func encoded(_ rules: SiteRules, for key: Key) -> [UInt8]? {
        var entries: [(domain: String, order: Int, rule: String)] = []
        for (order, rule) in rules.rules.enumerated() {
            let domain = rule.site?.host.domainName ?? ""
            guard !domain.utf8.contains(tab), !domain.utf8.contains(newline) else { return nil }
            entries.append((domain, order, rule.json.rendered()))
        }
        entries.sort {
            $0.domain.utf8.elementsEqual($1.domain.utf8) ? $0.order < $1.order : $0.domain.utf8.lexicographicallyPrecedes($1.domain.utf8)
        }
        var body = Array(JSONValue.strings(rules.sources).rendered().utf8)
        body.append(newline)
        for entry in entries {
            body += entry.domain.utf8
            body.append(tab)
            body += String(entry.order).utf8
            body.append(tab)
            body += entry.rule.utf8
            body.append(newline)
        }
        return framed(body, lines: entries.count, for: key)
    }

    /// The index file of `body` (the sources line, then `lines` rule lines), for the rules.json of `key`.
    package static func framed(_ body: [UInt8], lines: Int, for key: Key) -> [UInt8] {
        let header = "\(key.size) \(ASCIINumber.hex16(key.hash)) \(ASCIINumber.hex16(ContentHash.of(body))) \(lines)\n"
        return magic + Array(header.utf8) + body
    }

    /// The rules that may decide links of `host`, in their order in rules.json: `SiteRules.match`
    /// gives the same answer for such a link from them as from all the rules. Nil when a line
    /// it reads is not right.
    package func rules(for host: WebHost) -> [SiteRule]? {
        // The lines first, by number, and each one's place in rules.json (a rule is parsed only
        // once its line is known to be wanted; arrays of Int cost no new generic metadata).
        var found: [Int] = []
        var orders: [Int] = []
        // Those of no domain, then of the host's name and of each name above it.
        var domains: [Substring] = [""]
        if let name = host.domainName {
            var rest = name[...]
            while !rest.isEmpty {
                domains.append(rest)
                guard let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) else { break }
                rest = rest[rest.utf8.index(after: dot)...]
            }
        }
        for domain in domains {
            var index = firstLine(atLeast: domain.utf8)
            while index < lines.count, bytes[lines[index].domain].elementsEqual(domain.utf8) {
                guard let order = order(at: index) else { return nil }
                found.append(index)
                orders.append(order)
                index += 1
            }
        }
        var rules: [SiteRule] = []
        rules.reserveCapacity(found.count)
        for position in found.indices.sorted(by: { orders[$0] < orders[$1] }) {
            guard let rule = rule(at: found[position]) else { return nil }
            rules.append(rule)
        }
        return rules
    }

    /// The sources the rules name (`from`), each once; nil when the line is not right.
    package var sources: [String]? {
        guard let value = try? JSONReader.parse(bytes[sourcesLine]), let elements = value.elements else { return nil }
        let sources = elements.compactMap(\.stringValue)
        return sources.count == elements.count ? sources : nil
    }

    /// The first line whose domain is not before `domain`.
    private func firstLine(atLeast domain: Substring.UTF8View) -> Int {
        var (low, high) = (0, lines.count)
        while low < high {
            let middle = low + (high - low) / 2
            if bytes[lines[middle].domain].lexicographicallyPrecedes(domain) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The place in rules.json of the rule of line `index`, when the line has one.
    private func order(at index: Int) -> Int? {
        let (line, domain) = lines[index]
        let afterDomain = domain.upperBound + 1
        guard let tab = Self.find(Self.tab, in: bytes, afterDomain..<line.upperBound) else { return nil }
        return ASCIINumber.decimal(bytes[afterDomain..<tab])
    }

    /// The rule of line `index`, checked: one rules.json reads, of the line's domain.
    private func rule(at index: Int) -> SiteRule? {
        let (line, domain) = lines[index]
        guard let tab = Self.find(Self.tab, in: bytes, (domain.upperBound + 1)..<line.upperBound),
            let json = try? JSONReader.parse(bytes[(tab + 1)..<line.upperBound]), let rule = try? SiteRule(json: json),
            (rule.site?.host.domainName ?? "").utf8.elementsEqual(bytes[domain])
        else { return nil }
        return rule
    }

    private static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.firstIndex(of: byte, in: range)
    }
}
