/// Chromium's `Local State` (also Chrome's, Brave's, Vivaldi's, Edge's, Opera's): one JSON
/// object whose `profile.info_cache` maps each profile directory (`Default`, `Profile 1`) to
/// what the browser knows of it, its display `name` among it. The file holds much else and
/// runs to several MB; only that part is looked at.
package enum ChromiumLocalState {
    /// Real files reach a few MB with many profiles and extensions.
    package static let sizeLimit = 64 << 20

    /// The profiles in the file's order, named by their display name (the directory when it
    /// has none). Profiles whose display names are equal (Chromium lets two be "Person 1")
    /// are each shown with their directory, "Person 1 (Profile 2)" (doc/profiles.md), so that each
    /// has a key of its own; a name that is still another's is skipped. Throws when the file
    /// is not JSON.
    package static func profiles(in bytes: [UInt8]) throws(JSONError) -> [BrowserProfile] {
        guard case .object(let directories)? = try JSONReader.parse(bytes)["profile"]?["info_cache"] else { return [] }
        var named: [(name: String, directory: String)] = []
        for (directory, info) in directories where !directory.isEmpty && !directory.utf8.contains(0) {
            let name = info["name"]?.stringValue ?? ""
            named.append((name.isEmpty || name.utf8.contains(0) ? directory : name, directory))
        }
        // Counted once, so that thousands of profiles cost n log n, not n² (doc/security.md).
        let directoriesByName = Dictionary(grouping: named, by: \.name).mapValues(\.count)
        var profiles: [BrowserProfile] = []
        var shownNames: Set<String> = []
        for (name, directory) in named {
            let shared = directoriesByName[name, default: 0] > 1
            let shown = shared ? "\(name) (\(directory))" : name
            guard shownNames.insert(shown).inserted else { continue }
            profiles.append(BrowserProfile(name: shown, selector: directory))
        }
        return profiles
    }
}
