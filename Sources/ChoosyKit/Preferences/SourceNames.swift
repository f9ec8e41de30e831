/// What a SOURCE answers to (doc/links-and-rules.md, "Where a link came from"): its desktop ID
/// (with `.desktop`) and the keys of the catalog apps whose entries it is, so that a rule
/// `--from slack` and one `--from com.slack.Slack` both take a link from Slack's entry. The
/// catalog's apps are loaded only when an app key is in play: rules that name desktop IDs
/// cost no catalog on the way of a link.
package final class SourceNames {
    /// The catalog's apps and their desktop IDs.
    private let loadApps: () -> [(key: String, desktopIDs: [String])]
    private lazy var apps = loadApps()
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

    /// The desktop IDs a SOURCE stands for: its own, or its app's.
    private func desktopIDs(of source: String) -> Set<String> {
        if source.hasSuffix(".desktop") { return [source] }
        let app = apps.first { $0.key == source }
        return Set(app?.desktopIDs ?? [Self.desktopID(source)])
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
