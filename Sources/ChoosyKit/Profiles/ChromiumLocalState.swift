/// Chromium's `Local State` (also Chrome's, Brave's, Vivaldi's, Edge's, Opera's): one JSON
/// object whose `profile.info_cache` maps each profile directory (`Default`, `Profile 1`) to
/// what the browser knows of it, its display `name` among it. The file holds much else and
/// runs to several MB; only that part is looked at.
package enum ChromiumLocalState {
    /// Real files reach a few MB with many profiles and extensions.
    package static let sizeLimit = 64 << 20

    /// The profiles in the file's order, named by their display name (the directory when it
    /// has none); a second profile with the same display name is skipped, as its key
    /// (`chromium@Work`) would be the first one's. Throws when the file is not JSON.
    package static func profiles(in bytes: [UInt8]) throws(JSONError) -> [BrowserProfile] {
        guard case .object(let directories)? = try JSONReader.parse(bytes)["profile"]?["info_cache"] else { return [] }
        var profiles: [BrowserProfile] = []
        for (directory, info) in directories where !directory.isEmpty && !directory.utf8.contains(0) {
            var name = info["name"]?.stringValue ?? ""
            if name.isEmpty || name.utf8.contains(0) { name = directory }
            guard !profiles.contains(where: { $0.name == name }) else { continue }
            profiles.append(BrowserProfile(name: name, selector: directory))
        }
        return profiles
    }
}
