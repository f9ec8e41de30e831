/// What the rules files gave when they were last read, kept in
/// `$XDG_CACHE_HOME/choosy/clean/parsed.rules` (doc/links-and-rules.md, "Clean links"):
/// parsing the 105 KB of ClearURLs JSON was most of what cleaning a command's first link cost.
/// It stands for as long as the same files are there, each with the bytes it had (its size and
/// `ContentHash`: the files are the user's own, or checked against a published SHA-256); it is
/// written atomically (never torn), and one that does not read back whole is not used (the
/// files are parsed again and it is written anew).
struct CleaningRulesCache {
    /// A rules file as the cache knows it.
    struct Key: Equatable {
        var path: String
        var size: Int
        var hash: UInt64
    }

    let path: String
    private let fileSystem: FileSystem

    private static let magic = "choosy parsed cleaning rules 3\n"

    init(path: String, fileSystem: FileSystem) {
        self.path = path
        self.fileSystem = fileSystem
    }

    /// The key of the file at `path` that holds `bytes`.
    static func key(_ path: String, _ bytes: [UInt8]) -> Key {
        Key(path: path, size: bytes.count, hash: ContentHash.of(bytes))
    }

    /// The files as they were read, when the cache was written for exactly these keys.
    func load(for keys: [Key]) -> [ClearURLsRuleFile]? {
        guard fileSystem.info(path) != nil, let bytes = try? fileSystem.read(path, limit: JSONReader.ownFileLimit) else { return nil }
        guard let (cachedKeys, files) = Self.decode(bytes), cachedKeys == keys else { return nil }
        return files
    }

    func store(_ files: [ClearURLsRuleFile], for keys: [Key]) throws {
        fileSystem.removeAbandonedTemporaryFiles(of: path)
        try fileSystem.writeAtomically(Self.encode(files, keys), to: path, permissions: 0o600)
    }

    static func encode(_ files: [ClearURLsRuleFile], _ keys: [Key]) -> [UInt8] {
        var writer = FieldWriter()
        writer.bytes = Array(magic.utf8)
        writer.count(keys.count)
        for key in keys {
            writer.field(key.path)
            writer.field(String(key.size))
            writer.field(String(key.hash))
        }
        writer.count(files.count)
        for file in files {
            writer.field(file.source)
            writer.list(file.warnings)
            writer.count(file.providers.count)
            for provider in file.providers {
                writer.field(provider.name)
                writer.field(provider.urlPattern)
                writer.field(provider.completeProvider ? "1" : "0")
                for list in [provider.rules, provider.referralMarketing, provider.rawRules, provider.exceptions, provider.redirections] {
                    writer.list(list)
                }
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> ([Key], [ClearURLsRuleFile])? {
        let magic = Array(Self.magic.utf8)
        guard bytes.starts(with: magic) else { return nil }
        var reader = FieldReader(bytes: bytes, position: magic.count)
        guard let keyCount = reader.count() else { return nil }
        var keys: [Key] = []
        for _ in 0..<keyCount {
            guard let path = reader.field(), let size = reader.field().flatMap({ Int($0) }),
                let hash = reader.field().flatMap({ UInt64($0) })
            else { return nil }
            keys.append(Key(path: path, size: size, hash: hash))
        }
        guard let fileCount = reader.count() else { return nil }
        var files: [ClearURLsRuleFile] = []
        for _ in 0..<fileCount {
            guard let source = reader.field(), let warnings = reader.list(), let providerCount = reader.count() else { return nil }
            var providers: [ClearURLsProvider] = []
            providers.reserveCapacity(providerCount)
            for _ in 0..<providerCount {
                guard let name = reader.field(), let pattern = reader.field(), let complete = reader.field(),
                    complete == "0" || complete == "1",
                    let rules = reader.list(), let referralMarketing = reader.list(), let rawRules = reader.list(),
                    let exceptions = reader.list(), let redirections = reader.list()
                else { return nil }
                providers.append(
                    ClearURLsProvider(
                        name: name, urlPattern: pattern, completeProvider: complete == "1", rules: rules,
                        referralMarketing: referralMarketing, rawRules: rawRules, exceptions: exceptions, redirections: redirections))
            }
            files.append(ClearURLsRuleFile(source: source, providers: providers, warnings: warnings))
        }
        return reader.position == bytes.count ? (keys, files) : nil
    }
}

/// Fields as `<length>:<bytes>`, which any bytes can be without escaping.
private struct FieldWriter {
    var bytes: [UInt8] = []

    mutating func field(_ text: String) {
        bytes += String(text.utf8.count).utf8
        bytes.append(UInt8(ascii: ":"))
        bytes += text.utf8
    }

    mutating func count(_ count: Int) { field(String(count)) }

    mutating func list(_ texts: [String]) {
        count(texts.count)
        texts.forEach { field($0) }
    }
}

private struct FieldReader {
    let bytes: [UInt8]
    var position: Int

    mutating func field() -> String? {
        var length = 0
        var digits = 0
        while position < bytes.count, bytes[position] != UInt8(ascii: ":") {
            let digit = Int(bytes[position]) - 0x30
            guard (0...9).contains(digit), digits < 9 else { return nil }
            length = length * 10 + digit
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count, length <= bytes.count - position - 1 else { return nil }
        let start = position + 1
        position = start + length
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A count of what follows, which can be no more than the bytes left.
    mutating func count() -> Int? {
        guard let count = field().flatMap({ Int($0) }), count >= 0, count <= bytes.count - position else { return nil }
        return count
    }

    mutating func list() -> [String]? {
        guard let count = count() else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = field() else { return nil }
            texts.append(text)
        }
        return texts
    }
}
