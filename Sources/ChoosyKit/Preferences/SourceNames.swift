/// What a SOURCE answers to (doc/links-and-rules.md, "Where a link came from"): its desktop ID
/// (with `.desktop`) and the keys of the catalog apps whose entries it is, so that a rule
/// `--from slack` and one `--from com.slack.Slack` both take a link from Slack's entry. The
/// catalog's apps are loaded only when an app key is in play: rules that name desktop IDs
/// cost no catalog on the way of a link.
package final class SourceNames {
    /// The catalog's apps and their desktop IDs.
    private let loadApps: () -> [(key: String, desktopIDs: [String])]
    private lazy var apps = loadApps()
    /// The desktop IDs of each app key, of its first app (looked up once per source, not
    /// against every app).
    private lazy var idsByKey: [String: [String]] = {
        var ids: [String: [String]] = [:]
        for app in apps where ids[app.key] == nil { ids[app.key] = app.desktopIDs }
        return ids
    }()
    /// Whether a desktop entry has this ID.
    private let entryExists: (String) -> Bool

    package init(apps: @escaping () -> [(key: String, desktopIDs: [String])], entryExists: @escaping (String) -> Bool) {
        self.loadApps = apps
        self.entryExists = entryExists
    }

    /// Whether the SOURCE a rule stores (`from`) names the link's `source` (a desktop ID, with
    /// or without `.desktop`, or an app key).
    package func rule(_ from: String, names source: String) -> Bool {
        if from == source || from == Self.desktopID(source) { return true }
        return !desktopIDs(of: from).isDisjoint(with: desktopIDs(of: source))
    }

    /// Of `ids` (desktop IDs, with `.desktop`), the first that one of the SOURCEs `sources`
    /// names, as `rule(_:names:)` says: what each source stands for is worked out once, so
    /// that many entries of one program and many sources cost n log n, not their product.
    package func first(of ids: [String], namedByAnyOf sources: [String]) -> String? {
        var named: Set<String> = []
        for source in sources { named.formUnion(desktopIDs(of: source)) }
        return ids.first(where: named.contains)
    }

    /// The desktop ID a SOURCE stands for, as `--json` names a link's source: one with
    /// `.desktop` as it is; else the ID it makes with `.desktop` when an entry has it, else an
    /// app key's first entry that exists (its first desktop ID when none does), else that ID;
    /// nil when no desktop ID can be made of it (or its app has none).
    package func desktopID(of source: String) -> String? {
        let id = Self.desktopID(source)
        guard DesktopEntryIndex.isValidID(id) else { return nil }
        if source.hasSuffix(".desktop") || entryExists(id) { return id }
        guard let ids = idsByKey[source] else { return id }
        return ids.first(where: entryExists) ?? ids.first
    }

    /// The desktop IDs a SOURCE stands for: its own, or its app's.
    private func desktopIDs(of source: String) -> Set<String> {
        if source.hasSuffix(".desktop") { return [source] }
        return Set(idsByKey[source] ?? [Self.desktopID(source)])
    }

    /// How a rule stores the SOURCE of `--from`: the ID of a desktop entry (with `.desktop`),
    /// else the key of a catalog app; nil when it names neither.
    package func canonical(_ source: String) -> String? {
        let id = Self.desktopID(source)
        guard DesktopEntryIndex.isValidID(id) else { return nil }
        if entryExists(id) { return id }
        if apps.contains(where: { $0.key == source }) { return source }
        if apps.contains(where: { $0.desktopIDs.contains(id) }) { return id }
        return nil
    }

    private static func desktopID(_ source: String) -> String {
        source.hasSuffix(".desktop") ? source : source + ".desktop"
    }
}
