@testable import ChoosyKit

/// A profile group store's rows (`FirefoxProfileGroup.columns`: id, path, name), as SQLite gives
/// them to choosy from a store Firefox, another program or a hand edit wrote. Names and
/// directories are unique, one line, never empty, taken from the rows in their order; a
/// relative path is below the root.
func checkProfileGroupRows(_ rows: [[String?]]) {
    let root = "/home/ada/.mozilla/firefox"
    let profiles = FirefoxProfileGroup.profiles(rows: rows, root: root)
    invariant(FirefoxProfileGroup.profiles(rows: rows, root: root) == profiles, "reading rows is deterministic")
    invariant(Set(profiles.map(\.name)).count == profiles.count, "a group name twice")
    invariant(Set(profiles.map(\.directory)).count == profiles.count, "a group directory twice")
    var unread = rows[...]
    for profile in profiles {
        invariant(profile.inProfileGroup && profile.selector == profile.name, "'\(profile.name)' is not a group profile chosen by name")
        invariant(
            !profile.name.isEmpty && !profile.name.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }, "group name '\(profile.name)'")
        guard let directory = profile.directory, directory.hasPrefix("/") else {
            invariant(false, "group profile '\(profile.name)' has no absolute directory")
            return
        }
        // Each comes from a later row than the one before, with its name and path (a
        // relative one below the root).
        let fromItsRow = unread.firstIndex { row in
            row.count >= 3 && row[2] == profile.name && row[1].map { $0.hasPrefix("/") ? $0 : root + "/" + $0 } == directory
        }
        guard let row = fromItsRow else {
            invariant(false, "'\(profile.name)' in \(directory) is no row's, in order")
            return
        }
        unread = unread[(row + 1)...]
        let firefox = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", AppProfiles.placeholder])
        invariant(
            profile.arguments(firefox) == ["--profile", directory] && !profile.looksLikeAnOption(firefox),
            "group profile '\(profile.name)' is not opened by its directory")
        let key = ChoiceKey.split(ChoiceKey.make(app: "firefox", profile: profile.name))
        invariant(key.app == "firefox" && key.profile == profile.name, "the key of group profile '\(profile.name)' does not read back")
    }
}
