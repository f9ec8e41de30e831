/// One provider of a rules file in the ClearURLs format (`data.min.json`): the links it covers
/// (`urlPattern`, less its `exceptions`) and what it does to them. Every member is a regular
/// expression in JavaScript's syntax, kept as text until a link needs it.
struct ClearURLsProvider: Equatable, Sendable {
    var name: String
    var urlPattern: String
    /// A site the add-on blocks whole: choosy leaves its links as they are.
    var completeProvider = false
    /// Names of query and fragment items to remove (each matched whole, case-insensitively).
    var rules: [String] = []
    /// Names of referral items (affiliate tags), kept unless the user asks to remove them.
    var referralMarketing: [String] = []
    /// Matched anywhere in the link and removed.
    var rawRules: [String] = []
    var exceptions: [String] = []
    /// A redirect wrapper: group 1 of the first that matches is the link it wraps.
    var redirections: [String] = []
}

/// A rules file in the ClearURLs format, read leniently: a provider without a `urlPattern`, or
/// a member of the wrong type, is left out with a warning; the rest of the file stands.
struct ClearURLsRuleFile: Sendable {
    /// Where the file came from, for warnings and `clean -v`.
    let source: String
    let providers: [ClearURLsProvider]
    let warnings: [String]

    /// The largest rules file read (the ClearURLs data is about 100 KiB).
    static let maximumSize = 2 << 20

    init(source: String, providers: [ClearURLsProvider], warnings: [String] = []) {
        self.source = source
        self.providers = providers
        self.warnings = warnings
    }

    init(parsing bytes: [UInt8], source: String) throws(CleaningError) {
        guard bytes.count <= Self.maximumSize else {
            throw CleaningError("\(source): larger than \(Self.maximumSize) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONReader.parse(bytes)
        } catch {
            throw CleaningError("\(source): \(error)")
        }
        guard case .object(let members) = document["providers"] else {
            throw CleaningError("\(source): no \"providers\" object")
        }
        var providers: [ClearURLsProvider] = []
        var warnings: [String] = []
        var positions: [String: Int] = [:]
        for (name, value) in members {
            guard let pattern = value["urlPattern"]?.stringValue else {
                warnings.append("\(source): provider '\(name)' has no urlPattern; it is left out")
                continue
            }
            func strings(_ member: String) -> [String] {
                guard let value = value[member] else { return [] }
                guard let elements = value.elements else {
                    warnings.append("\(source): provider '\(name)': \(member) is not an array; it is left out")
                    return []
                }
                // The add-on keeps each rule once (they are the keys of an object).
                var seen = Set<String>()
                return elements.compactMap(\.stringValue).filter { seen.insert($0).inserted }
            }
            var provider = ClearURLsProvider(name: name, urlPattern: pattern)
            provider.completeProvider = value["completeProvider"] == .bool(true)
            provider.rules = strings("rules")
            provider.referralMarketing = strings("referralMarketing")
            provider.rawRules = strings("rawRules")
            provider.exceptions = strings("exceptions")
            provider.redirections = strings("redirections")
            // A name given twice is one provider, with the later value in the first place,
            // as JavaScript's JSON.parse makes it.
            if let position = positions[name] {
                providers[position] = provider
            } else {
                positions[name] = providers.count
                providers.append(provider)
            }
        }
        self.source = source
        self.providers = providers
        self.warnings = warnings
    }
}
