/// One site rule: links of `site` open with this app (or always ask).
package struct SiteRule: Equatable, Sendable {
    package enum Target: Equatable, Sendable {
        /// `--app KEY [--profile NAME] [--private]`.
        case app(key: String, profile: String?, privateWindow: Bool)
        /// `--ask`: the picker every time.
        case ask
        /// `--none`: nothing opens (SPEC §9.2); `choosy again` opens the link all the same.
        case nothing
    }

    /// Nil: `*`, every link (only with `from`).
    package var site: Site?
    package var target: Target
    /// `--from SOURCE`: the rule is for links from this source only (a desktop ID with
    /// `.desktop`, or an app key); nil: from anywhere.
    package var from: String?
    /// What a newer choosy stored for the rule, kept as it was.
    var unknownMembers = UnknownJSONMembers()

    package init(site: Site?, target: Target, from: String? = nil) {
        precondition(site != nil || from != nil, "'*' is only for a rule with a source")
        self.site = site
        self.target = target
        self.from = from
    }

    /// The SITE as written: the site, or `*`.
    package var siteText: String { site?.text ?? "*" }

    /// `SITE` or `SITE --from SOURCE`, for messages.
    package var name: String { siteText + (from.map { " --from \($0)" } ?? "") }

    /// Why a profile name cannot be one, or nil: it reaches a browser's argv, where a leading
    /// `-` would be read as an option.
    package static func problem(withProfile name: String) -> String? {
        if name.isEmpty { return "a profile name cannot be empty" }
        if name.hasPrefix("-") { return "a profile name cannot start with '-'" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a profile name holds no control characters"
        }
        return nil
    }

    /// `{"site": "github.com/work-org", "app": "firefox", "profile": "Work", "private": true}`,
    /// `{"site": "example.org", "ask": true}` or `{"site": "example.org", "none": true}`.
    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        let text = try fields.required("site", .string)
        from = try fields.optional("from", .string)
        if from?.isEmpty == true { throw JSONError(shape: "is empty").inside("from") }
        if text == "*" {
            guard from != nil else { throw JSONError(shape: "is '*', which only a rule with a \"from\" may be").inside("site") }
            site = nil
        } else {
            do {
                site = try Site(parsing: text)
            } catch {
                throw JSONError(shape: "is not a site: \(error.reason)").inside("site")
            }
        }
        unknownMembers = fields.unknownMembers(known: Self.members)
        if try fields.optional("ask", .bool) == true {
            target = .ask
            return
        }
        if try fields.optional("none", .bool) == true {
            target = .nothing
            return
        }
        let profile = try fields.optional("profile", .string)
        if let profile, let problem = Self.problem(withProfile: profile) {
            throw JSONError(shape: problem).inside("profile")
        }
        target = .app(
            key: try fields.required("app", .string), profile: profile, privateWindow: try fields.optional("private", .bool) ?? false)
    }

    /// Made once: rules.json holds a rule per site, and building them for each cost more than
    /// reading the rule.
    private static let members = ["site", "from", "ask", "none", "app", "profile", "private"]

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("site", .string(siteText))]
        if let from { members.append(("from", .string(from))) }
        switch target {
        case .ask:
            members.append(("ask", .bool(true)))
        case .nothing:
            members.append(("none", .bool(true)))
        case .app(let key, let profile, let privateWindow):
            members.append(("app", .string(key)))
            if let profile { members.append(("profile", .string(profile))) }
            if privateWindow { members.append(("private", .bool(true))) }
        }
        return unknownMembers.object(after: members)
    }

    /// What `rule list` and `-v` say it does: `firefox`, `firefox, profile Work, private`, `ask`.
    package var targetDescription: String {
        switch target {
        case .ask: "ask"
        case .nothing: "nothing"
        case .app(let key, let profile, let privateWindow):
            ([key] + (profile.map { ["profile \($0)"] } ?? []) + (privateWindow ? ["private window"] : [])).joined(separator: ", ")
        }
    }
}

/// The rules of rules.json, in the order they were added.
package struct SiteRules: Equatable, Sendable, GuardedJSONContents {
    package static let fileName = "rules.json"
    package static let lost = "no site rules"
    package static let understoodVersion = 1
    package static let members: Set<String> = ["rules"]

    package private(set) var rules: [SiteRule]
    package var version = SiteRules.understoodVersion
    package var unknownMembers = UnknownJSONMembers()

    package init() {
        rules = []
    }

    package init(_ rules: [SiteRule]) {
        self.rules = rules
    }

    /// Whether some rule is for one source only: only then is the source of a link looked for.
    package var haveSources: Bool { rules.contains { $0.from != nil } }

    /// The sources the rules name (`from`), each once, in the order of their first rule.
    package var sources: [String] { uniqued(rules.compactMap(\.from)) }

    /// The rule that decides a link from a source (`namesSource`: whether a rule's `from`
    /// names it; nil: no source): a rule for the source beats any other, and among those of
    /// one kind the most specific site wins, `*` the least specific of all.
    package func match(_ url: WebURL, from namesSource: ((String) -> Bool)? = nil) -> SiteRule? {
        guard !url.host.hasEmptyLabel else { return nil }
        if let namesSource, let rule = mostSpecific(url, among: { $0.from.map(namesSource) ?? false }) { return rule }
        return mostSpecific(url) { $0.from == nil }
    }

    private func mostSpecific(_ url: WebURL, among included: (SiteRule) -> Bool) -> SiteRule? {
        // A site whose name does not end the link's host name cannot be its site: that byte
        // test, without allocating, leaves out most rules before the label-wise one.
        let name = url.host.domainName?.utf8
        var best: SiteRule?
        for rule in rules where included(rule) {
            guard let site = rule.site else {
                if best == nil { best = rule }
                continue
            }
            if let name, let domain = site.host.domainName?.utf8, !name.reversed().starts(with: domain.reversed()) { continue }
            guard site.matches(url) else { continue }
            if let best, let bestSite = best.site, !site.isMoreSpecific(than: bestSite) { continue }
            best = rule
        }
        return best
    }

    /// The rule of a site (nil: `*`) for a source (nil: any).
    package func rule(for site: Site?, from: String? = nil) -> SiteRule? {
        rules.first { $0.site == site && $0.from == from }
    }

    /// Adds the rule, or replaces the one the site had for its source (in its place).
    package mutating func add(_ rule: SiteRule) {
        if let index = rules.firstIndex(where: { $0.site == rule.site && $0.from == rule.from }) {
            rules[index] = rule
        } else {
            rules.append(rule)
        }
    }

    /// Whether the site had a rule for the source.
    package mutating func remove(_ site: Site?, from: String? = nil) -> Bool {
        let count = rules.count
        rules.removeAll { $0.site == site && $0.from == from }
        return rules.count < count
    }

    package mutating func read(_ fields: JSONFields, skippingFailures: Bool) throws(JSONError) {
        rules = try fields.required("rules", .array(of: JSONShape(SiteRule.init(json:)), skippingFailures: skippingFailures))
    }

    package var json: JSONValue {
        unknownMembers.object(after: [("version", .int(version)), ("rules", .array(rules.map(\.json)))])
    }
}
