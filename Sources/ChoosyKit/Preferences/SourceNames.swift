/// What a SOURCE answers to (doc/links-and-rules.md, "Where a link came from"): its desktop ID
/// (with `.desktop`) and the keys of the catalog apps whose entries it is, so that a rule
/// `--from slack` and one `--from com.slack.Slack` both take a link from Slack's entry.
package struct SourceNames: Sendable {
    /// The catalog's apps and their desktop IDs.
    private let apps: [(key: String, desktopIDs: [String])]
    /// Whether a desktop entry has this ID.
    private let entryExists: @Sendable (String) -> Bool

    package init(apps: [(key: String, desktopIDs: [String])], entryExists: @escaping @Sendable (String) -> Bool) {
        self.apps = apps
        self.entryExists = entryExists
    }

    /// Every name a source (a desktop ID with or without `.desktop`, or an app key) goes by.
    package func names(of source: String) -> Set<String> {
        var names: Set = [source]
        var ids: Set = [Self.desktopID(source)]
        if let app = apps.first(where: { $0.key == source }) { ids.formUnion(app.desktopIDs) }
        names.formUnion(ids)
        for app in apps where app.desktopIDs.contains(where: ids.contains) { names.insert(app.key) }
        return names
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

    /// The desktop IDs among `sources`' names whose usable entries run a program, by the
    /// program's file name (`slack` for `Exec=/usr/bin/slack %U`): what an ancestor's
    /// executable is matched against.
    package func programs(of sources: [String], in index: DesktopEntryIndex) -> [String: String] {
        var programs: [String: String] = [:]
        for source in sources {
            for id in names(of: source).sorted() where id.hasSuffix(".desktop") {
                guard let exec = index.usableEntry(id: id)?.exec, let line = try? ExecCommandLine(parsing: exec),
                      let name = line.program.split(separator: "/").last.map(String.init), programs[name] == nil
                else { continue }
                programs[name] = id
            }
        }
        return programs
    }
}
