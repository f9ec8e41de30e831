/// A Firefox profile group (doc/profiles.md): the profiles that Firefox's profile manager (Firefox
/// 138 and later) keeps in `Profile Groups/<StoreID>.sqlite` beside `profiles.ini`, in the
/// `Profiles` table its ProfilesDatastoreService creates (`id`, `path`, `name`, `avatar`,
/// theme columns), read as its SelectableProfileService reads them: `path` is below the
/// directory of `profiles.ini` unless absolute, and the group's profiles go by `id`.
package enum FirefoxProfileGroup {
    /// What is read: the table and columns every version of the store has had (`user_version`
    /// 3 as Firefox 140 writes it, 7 as Firefox 153 does), checked in the store itself rather
    /// than by its version, so a later version that keeps them is read too.
    package static let table = "Profiles"
    package static let columns = ["id", "path", "name"]
    /// Real stores hold a few rows and some shared preferences in well under a MiB, read in
    /// milliseconds; anything far past that is no store (doc/security.md).
    package static let limits = SQLiteReadLimits(fileSize: 64 << 20, rows: 10_000, valueBytes: 64 << 10, totalBytes: 4 << 20, seconds: 1)
    /// How many stores one profile list may name: each is one group, and real lists have one.
    package static let storesPerList = 4

    /// The store of `storeID` beside a `profiles.ini` in `root`. Firefox makes store IDs of
    /// hex digits; one with anything but letters, digits, `-` and `_` (a `/`, `..`) is no
    /// store, as it could name a file elsewhere.
    package static func storePath(root: String, storeID: String) -> String? {
        let allowed =
            !storeID.isEmpty
            && storeID.utf8.allSatisfy { byte in
                PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
            }
        return allowed ? joinPath(root, "Profile Groups", storeID + ".sqlite") : nil
    }

    /// The group's profiles from the rows of `columns`, in the table's order (by `id`, its
    /// rowid), leniently: a row without a path or a
    /// name, with a line break or NUL in either, or with a directory or name seen already,
    /// is skipped rather than costing the others.
    package static func profiles(rows: [[String?]], root: String) -> [BrowserProfile] {
        var profiles: [BrowserProfile] = []
        var directories: Set<String> = []
        var names: Set<String> = []
        for row in rows where row.count >= 3 {
            guard let path = row[1], let name = row[2], !path.isEmpty, !name.isEmpty,
                !(path + name).utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D })
            else { continue }
            let directory = path.hasPrefix("/") ? path : joinPath(root, path)
            guard !directories.contains(directory), !names.contains(name) else { continue }
            directories.insert(directory)
            names.insert(name)
            profiles.append(BrowserProfile(name: name, selector: name, directory: directory, inProfileGroup: true))
        }
        return profiles
    }
}
