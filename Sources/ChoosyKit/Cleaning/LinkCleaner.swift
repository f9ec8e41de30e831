/// Cleans a web link the way the ClearURLs add-on does with its default settings
/// (doc/links-and-rules.md, "Clean links"): for each provider whose `urlPattern` matches and
/// none of whose `exceptions` does, in file order, it unwraps a redirection, or leaves a
/// blocked site's link alone, or removes what the raw rules match and the query and fragment
/// items the rules name; after the first provider that changed the link, it starts again on the
/// new link, as the add-on does when the browser requests it, until nothing changes.
///
/// Where the add-on rewrites the whole query, choosy removes only the matched items: the rest of
/// the link stays byte for byte. An unwrapped link must be an http(s) link that is shown as it
/// is (no control or format character), and no raw rule may change the host. The rules are data
/// from outside: cleaning one link may take `timeLimit`, after which the link is left as it
/// was, with one warning (doc/security.md, "The link-cleaning rules and their server").
final class LinkCleaner {
    let files: [ClearURLsRuleFile]
    private let removesReferralMarketing: Bool
    private let timeLimit: Double
    private let warn: (String) -> Void
    /// Compiled patterns, nil for one that does not compile (warned about once).
    private var compiled: [String: RegularExpression?] = [:]
    /// What `HostNameInPattern` found in each `urlPattern`, nil for none.
    private var requiredNames: [String: [UInt8]?] = [:]
    /// The matches' limits and deadline; nil without PCRE2 (then no pattern compiles either).
    private lazy var budget = try? MatchBudget()
    private var warnedAboutTime = false
    private var firstLinkStarted: Double?

    /// Redirect wrappers unwrapped for one link, at most.
    static let maximumUnwraps = 5
    /// Passes over the providers for one link, at most: each pass changes the link, and a link
    /// only gets shorter but by an unwrap.
    static let maximumPasses = 64
    /// Seconds of CPU time the cleaning of one link may take, about a hundred times what the
    /// bundled rules need: 95 ms, so that with what follows the last check a link costs at most
    /// the 100 ms doc/links-and-rules.md promises.
    static let timeLimit = 0.095

    /// `loadingStarted`: the thread's CPU time when the rules began to load, which the first
    /// link's budget counts from (loading them is part of cleaning it).
    init(
        files: [ClearURLsRuleFile], removesReferralMarketing: Bool, timeLimit: Double = LinkCleaner.timeLimit,
        loadingStarted: Double? = nil, warn: @escaping (String) -> Void
    ) {
        self.files = files
        self.removesReferralMarketing = removesReferralMarketing
        self.timeLimit = timeLimit
        self.warn = warn
        firstLinkStarted = loadingStarted
        // Room for every pattern at once: growing a table of tens of thousands, one rehash
        // after another, cost as much as compiling them.
        let providers = files.flatMap(\.providers)
        requiredNames.reserveCapacity(providers.count)
        compiled.reserveCapacity(
            providers.reduce(0) {
                $0 + 1 + $1.exceptions.count + $1.redirections.count + $1.rawRules.count + $1.rules.count + $1.referralMarketing.count
            })
    }

    func clean(_ link: String) -> CleanedLink {
        guard let budget else { return CleanedLink(link: link) }
        let loading = firstLinkStarted.map { threadCPUSeconds() - $0 } ?? 0
        firstLinkStarted = nil
        budget.start(seconds: timeLimit - loading)
        let result = clean(link, within: budget)
        // A match the deadline stopped counted as no match: what came of it does not stand.
        guard !budget.isSpent else {
            if !warnedAboutTime {
                warnedAboutTime = true
                let milliseconds = Int((timeLimit * 1000).rounded(.up))
                let sources = concatenated(files.map(\.source), separator: ", ")
                warn("cleaning a link took more than \(milliseconds) ms (the rules of \(sources)): it is left as it was")
            }
            return CleanedLink(link: link)
        }
        return result
    }

    private func clean(_ link: String, within budget: MatchBudget) -> CleanedLink {
        var result = CleanedLink(link: link)
        var unwraps = 0
        passes: for _ in 0..<Self.maximumPasses {
            guard let view = BrowserView(result.link), !view.isLocal else { break }
            // The link's items, split once a pass for all the providers that apply: only a
            // provider changes the link, and then the next pass begins.
            var items: QueryItems?
            for file in files {
                for provider in file.providers {
                    guard !budget.isSpent else { break passes }
                    guard applies(provider, to: view.href, in: file, budget) else { continue }
                    if unwraps < Self.maximumUnwraps, let target = unwrapped(view.href, by: provider, in: file, budget) {
                        result.steps.append(CleaningStep(provider: provider.name, kind: .redirection, before: result.link, after: target))
                        result.link = target
                        unwraps += 1
                        continue passes
                    }
                    if provider.completeProvider {
                        // The add-on would block the site: the link stays as it was given.
                        return CleanedLink(link: link, blockedBy: provider.name)
                    }
                    if apply(provider, in: file, to: &result, items: &items, budget) { continue passes }
                }
            }
            break
        }
        return result
    }

    private func applies(_ provider: ClearURLsProvider, to href: String, in file: ClearURLsRuleFile, _ budget: MatchBudget) -> Bool {
        // Most patterns name their site: a link without that name is not theirs, and their
        // pattern need not be compiled (compiling is most of what cleaning a link costs).
        if let name = requiredName(of: provider.urlPattern), !HostNameInPattern.occurs(name, in: href) { return false }
        guard expression(provider.urlPattern, provider, file)?.matches(href, within: budget) == true else { return false }
        return !provider.exceptions.contains { expression($0, provider, file)?.matches(href, within: budget) == true }
    }

    /// The link the first matching redirection wraps (its group 1, percent-decoded until it no
    /// longer changes, `http://` in front when it has no scheme, as the add-on does), when that
    /// is an http(s) link shown as it is: one that decodes to a control or format character
    /// (`%1B]52;…`, a bidi override) is no link to open, and the wrapper stays.
    private func unwrapped(_ href: String, by provider: ClearURLsProvider, in file: ClearURLsRuleFile, _ budget: MatchBudget) -> String? {
        for redirection in provider.redirections {
            guard let groups = expression(redirection, provider, file)?.firstMatch(in: href, within: budget) else { continue }
            guard groups.count > 1, let range = groups[1] else { return nil }
            let bytes = Array(href.utf8)
            var target = String(decoding: bytes[range], as: UTF8.self)
            for _ in 0..<Self.maximumPasses {
                // decodeURIComponent, which throws where this is nil.
                guard let decoded = PercentEncoding.decode(target) else { return nil }
                if decoded == target { break }
                target = decoded
            }
            if !target.hasPrefix("http") { target = "http://" + target }
            return DisplayText.isShownAsIs(target) && BrowserView(target) != nil ? target : nil
        }
        return nil
    }

    /// Applies the provider's raw rules, then its rules, to the link; true when it changed.
    /// `passItems` are the items of the link as the pass began, split when first needed.
    private func apply(
        _ provider: ClearURLsProvider, in file: ClearURLsRuleFile, to result: inout CleanedLink, items passItems: inout QueryItems?,
        _ budget: MatchBudget
    ) -> Bool {
        var changed = false
        for rawRule in provider.rawRules {
            guard let expression = expression(rawRule, provider, file) else { continue }
            let (after, removed) = expression.removingMatches(in: result.link, within: budget)
            guard after != result.link, let before = BrowserView(result.link), BrowserView(after)?.origin == before.origin else { continue }
            result.steps.append(
                CleaningStep(provider: provider.name, kind: .rawRule(rawRule), before: result.link, after: after, removed: removed))
            result.link = after
            changed = true
        }
        let names =
            provider.rules.map { ($0, CleaningStep.Kind.rule($0)) }
            + (removesReferralMarketing ? provider.referralMarketing.map { ($0, .referralMarketing($0)) } : [])
        if !changed && passItems == nil { passItems = QueryItems(result.link) }
        var items = changed ? QueryItems(result.link) : passItems ?? QueryItems(result.link)
        // A `?` with nothing after it goes with the first rule, as any removal would take it.
        var bareMark = items.hasBareMark
        for (name, kind) in names {
            guard !budget.isSpent else { break }
            // The add-on tests each item's name against ^rule$, with the rule as written.
            guard let expression = expression("^" + name + "$", provider, file) else { continue }
            let removed = items.remove(where: { expression.matches($0, within: budget) })
            guard !removed.isEmpty || bareMark else { continue }
            bareMark = false
            let after = items.link
            result.steps.append(CleaningStep(provider: provider.name, kind: kind, before: result.link, after: after, removed: removed))
            result.link = after
            changed = true
        }
        return changed
    }

    private func requiredName(of pattern: String) -> [UInt8]? {
        if let known = requiredNames[pattern] { return known }
        let name = HostNameInPattern.required(by: pattern)
        requiredNames[pattern] = name
        return name
    }

    private func expression(_ pattern: String, _ provider: ClearURLsProvider, _ file: ClearURLsRuleFile) -> RegularExpression? {
        if let known = compiled[pattern] { return known }
        var expression: RegularExpression?
        do {
            expression = try RegularExpression(pattern)
        } catch {
            warn("\(file.source): provider '\(provider.name)': \(error.description); that rule is left out")
        }
        compiled[pattern] = expression
        return expression
    }
}

/// The part of a host that a `urlPattern` of the usual form, `^https?:\/\/(?:[a-z0-9-]+\.)*?`
/// and then letters, digits, `-` and `\.` (`amazon`, `msn\.com`), requires every link it matches
/// to hold. Those characters can only match in the host, which a link's `href` holds in
/// lowercase ASCII, so the text must be there as it is.
enum HostNameInPattern {
    private static let prefix = Array(#"^https?:\/\/(?:[a-z0-9-]+\.)*?"#.utf8)

    /// The lowercase text, or nil for a pattern of another form (or with an alternation
    /// outside its groups, which could match without it).
    static func required(by pattern: String) -> [UInt8]? {
        let bytes = Array(pattern.utf8)
        guard bytes.starts(with: prefix), !hasTopLevelAlternation(bytes) else { return nil }
        var name: [UInt8] = []
        var index = prefix.count
        while index < bytes.count {
            let byte = bytes[index] | 0x20
            if (byte >= 0x61 && byte <= 0x7A) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) || bytes[index] == 0x2D {
                name.append(bytes[index] >= 0x41 && bytes[index] <= 0x5A ? byte : bytes[index])
                index += 1
            } else if bytes[index] == 0x5C, index + 1 < bytes.count, bytes[index + 1] == 0x2E {
                name.append(0x2E)
                index += 2
            } else {
                break
            }
        }
        // A quantifier after the text makes its last character optional.
        if index < bytes.count, [UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "{")].contains(bytes[index]), !name.isEmpty {
            name.removeLast()
        }
        return name.isEmpty ? nil : name
    }

    /// Whether `name` is somewhere in `text`'s bytes.
    static func occurs(_ name: [UInt8], in text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = name.first, bytes.count >= name.count else { return false }
            for start in 0...(bytes.count - name.count) where bytes[start] == first {
                if name.indices.allSatisfy({ bytes[start + $0] == name[$0] }) { return true }
            }
            return false
        }
    }

    private static func hasTopLevelAlternation(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var inClass = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "[") where !inClass: inClass = true
            case UInt8(ascii: "]") where inClass: inClass = false
            case UInt8(ascii: "(") where !inClass: depth += 1
            case UInt8(ascii: ")") where !inClass: depth -= 1
            case UInt8(ascii: "|") where !inClass && depth <= 0: return true
            default: break
            }
            index += 1
        }
        return false
    }
}

/// What cleaning made of a link, and how.
struct CleanedLink: Equatable, Sendable {
    var link: String
    var steps: [CleaningStep] = []
    /// The provider that would block the link's site (its link is left as it is).
    var blockedBy: String?
}

extension CleanedLink {
    /// What -v says about it: what each provider did, or why the link was left as it is.
    var explanations: [String] {
        if let blockedBy {
            return ["the rules of \(singleLine(blockedBy)) block this site: the link is left as it is"]
        }
        return summaries.map { "cleaned the link: \($0.provider): \($0.summary)" }
    }

    /// What each provider did, in words, its steps of one kind one after the other taken
    /// together (`globalRules`, `removed utm_source, utm_medium`); the names shown (`singleLine`).
    var summaries: [(provider: String, summary: String)] {
        var groups: [(provider: String, kind: CleaningStep.Kind, removed: [String])] = []
        for step in steps {
            if let last = groups.last, last.provider == step.provider, last.kind.isRemoval, last.kind.sameKind(as: step.kind) {
                groups[groups.count - 1].removed += step.removed
            } else {
                groups.append((step.provider, step.kind, step.removed))
            }
        }
        return groups.map { group in
            var seen = Set<String>()
            let removed = group.removed.filter { seen.insert($0).inserted }.map(singleLine)
            let what = removed.isEmpty ? "a ? or # with nothing after it" : concatenated(removed, separator: ", ")
            let summary =
                switch group.kind {
                case .redirection: "unwrapped the link it redirects to"
                case .rawRule, .rule: "removed \(what)"
                case .referralMarketing: "removed the referral items \(what)"
                }
            return (singleLine(group.provider), summary)
        }
    }
}

struct CleaningStep: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case redirection
        case rawRule(String)
        case rule(String)
        case referralMarketing(String)

        var isRemoval: Bool { self != .redirection }

        func sameKind(as other: Kind) -> Bool {
            switch (self, other) {
            case (.redirection, .redirection), (.rawRule, .rawRule), (.rule, .rule), (.referralMarketing, .referralMarketing): true
            default: false
            }
        }
    }

    var provider: String
    var kind: Kind
    var before: String
    var after: String
    /// What went: the names of the items a rule removed, as the link wrote them, or the text
    /// of each match of a raw rule.
    var removed: [String] = []
}

/// A link as the add-on's browser hands it over: its `href` (scheme and host as the URL
/// standard writes them), and what must not change.
private struct BrowserView: Equatable {
    let href: String
    let origin: String
    let isLocal: Bool

    init?(_ link: String) {
        guard let url = try? WebURL(parsing: link) else { return nil }
        origin = url.origin
        href = url.href
        isLocal = Self.isLocal(url.host.serialized)
    }

    /// The add-on's default skips local hosts: `localhost` and the private, shared, link-local
    /// and loopback IPv4 ranges (10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16, 127.0.0.1).
    private static func isLocal(_ host: String) -> Bool {
        if host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard parts.count == 4 else { return false }
        switch (parts[0], parts[1]) {
        case (10, _), (192, 168), (169, 254): return true
        case (172, 16...31), (100, 64...127): return true
        case (127, 0): return parts[2] == 0 && parts[3] == 1
        default: return false
        }
    }
}

/// The items of a link's query and fragment, as the add-on reads their names: a query item's
/// name form-decoded (`+` a space), a fragment item's as written. The link is split once, so
/// that each rule costs a test of each name rather than another pass over the link (a link may
/// hold thousands of items).
struct QueryItems {
    private struct Item {
        let text: Substring
        /// Nil for an item that no rule removes (an empty one; in the fragment, an empty name).
        let name: String?
        var kept = true
    }

    private let base: Substring
    private var query: [Item]?
    private var fragment: [Item]?
    private let wholeFragment: Substring
    private var fragmentChanged = false
    /// Whether the link has a `?` with nothing but `&` after it, which `link` leaves out.
    let hasBareMark: Bool

    init(_ link: String) {
        let bytes = link.utf8
        let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#"))
        let beforeFragment = link[..<(fragmentStart ?? link.endIndex)]
        wholeFragment = link[(fragmentStart ?? link.endIndex)...]
        if let queryStart = beforeFragment.utf8.firstIndex(of: UInt8(ascii: "?")) {
            base = beforeFragment[..<queryStart]
            query = Self.items(beforeFragment[beforeFragment.index(after: queryStart)...]) { item in
                item.isEmpty ? nil : PercentEncoding.decodeLeniently(Self.name(of: item), plusIsSpace: true)
            }
        } else {
            base = beforeFragment
        }
        if let fragmentStart {
            fragment = Self.items(link[link.index(after: fragmentStart)...]) { item in
                let name = Self.name(of: item)
                return name.isEmpty ? nil : String(name)
            }
        }
        hasBareMark = query?.allSatisfy(\.text.isEmpty) == true
    }

    /// Removes the items whose name `isRemoved`; the names of those removed, as the link
    /// writes them.
    mutating func remove(where isRemoved: (String) -> Bool) -> [String] {
        let removedFromQuery = Self.remove(from: &query, where: isRemoved)
        let removedFromFragment = Self.remove(from: &fragment, where: isRemoved)
        fragmentChanged = fragmentChanged || !removedFromFragment.isEmpty
        return removedFromQuery + removedFromFragment
    }

    /// The link without the removed items; the rest as it was, byte for byte, and no `?` or `#`
    /// left with nothing after it.
    var link: String {
        var link = String(base)
        if let query {
            let kept = query.filter(\.kept).map(\.text)
            if !kept.allSatisfy(\.isEmpty) { link += "?" + kept.joined(separator: "&") }
        }
        guard let fragment else { return link }
        guard fragmentChanged else { return link + wholeFragment }
        let kept = fragment.filter(\.kept).map(\.text)
        return link + (kept.allSatisfy(\.isEmpty) ? "" : "#" + kept.joined(separator: "&"))
    }

    private static func items(_ text: Substring, name: (Substring) -> String?) -> [Item] {
        // By byte: `&` and `=` are ASCII, so each piece is whole UTF-8.
        text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { piece in
            let item = Substring(piece)
            return Item(text: item, name: name(item))
        }
    }

    private static func remove(from items: inout [Item]?, where isRemoved: (String) -> Bool) -> [String] {
        guard var list = items else { return [] }
        items = nil  // so that the list is changed in place
        var removed: [String] = []
        for index in list.indices where list[index].kept {
            guard let name = list[index].name, isRemoved(name) else { continue }
            list[index].kept = false
            removed.append(String(Self.name(of: list[index].text)))
        }
        items = list
        return removed
    }

    private static func name(of item: Substring) -> Substring {
        item[..<(item.utf8.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex)]
    }
}
