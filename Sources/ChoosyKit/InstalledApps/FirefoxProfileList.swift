/// Firefox's `profiles.ini` (also LibreWolf's, Waterfox's, Floorp's): `[Profile<N>]` groups
/// with `Name`, `Path`, `IsRelative`, `Default` and, for a profile group (doc/profiles.md), `StoreID`,
/// next to `[General]` and `[Install<hash>]` groups, which say nothing about names. Read
/// leniently: Firefox writes the file, but a crash or a hand edit can leave anything in it,
/// and a line that is not `Key=Value` (or not UTF-8) is skipped rather than costing every
/// profile.
package enum FirefoxProfileList {
    /// A `profiles.ini` of real users is well under a KiB per profile.
    package static let sizeLimit = 1 << 20

    /// One `[Profile<N>]` group with a name.
    package struct Entry: Equatable, Sendable {
        package var name: String
        /// `Path` as written: below the file's directory when `isRelative`.
        package var path: String?
        /// `IsRelative=1`; Firefox reads any other value, or none, as an absolute `Path`.
        package var isRelative = false
        /// The profile group whose store is `Profile Groups/<StoreID>.sqlite` beside the file.
        package var storeID: String?

        /// False for a `Path` that is neither absolute nor marked `IsRelative=1`: Firefox skips
        /// such a profile, and read as it is the path would depend on the directory choosy runs in.
        package var hasUsablePath: Bool {
            guard let path, !path.isEmpty, !isRelative else { return true }
            return path.hasPrefix("/")
        }

        /// The profile's directory, for a file in `root`; nil without a usable `Path`.
        package func directory(root: String) -> String? {
            guard let path, !path.isEmpty, hasUsablePath else { return nil }
            return isRelative ? joinPath(root, path) : path
        }
    }

    /// The profiles in file order; one without a `Name` or with an unusable `Path` is skipped,
    /// and so is a second with the same name (Firefox's `-P` would open the first).
    package static func profiles(in bytes: [UInt8]) -> [BrowserProfile] {
        entries(in: bytes).filter(\.hasUsablePath).map { BrowserProfile(name: $0.name, selector: $0.name) }
    }

    /// The named profiles in file order, each name once among those with a usable `Path`
    /// (Firefox skips the others before it looks a name up).
    package static func entries(in bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        var names: Set<String> = []
        var inProfile = false
        var current = Entry(name: "")
        func finishGroup() {
            if inProfile, !current.name.isEmpty, !current.hasUsablePath || names.insert(current.name).inserted { entries.append(current) }
            current = Entry(name: "")
        }
        // A CR ends a line too (as in Firefox's own reader): no name can hold a line break.
        bytes.withUnsafeBufferPointer { bytes in
            KeyFileLine.lines(in: bytes, endingAtCR: true) { line in
                switch KeyFileLine(bytes, line) {
                case .group(let name):
                    finishGroup()
                    inProfile = bytes[name].starts(with: "Profile".utf8)
                case .malformedGroup:
                    // Firefox ignores the lines after a malformed header until the next good one.
                    finishGroup()
                    inProfile = false
                case .entry(let key, let valueRange) where inProfile:
                    // A NUL can reach no argv element; a value that is not UTF-8 could not be typed.
                    let value = bytes[KeyFileLine.trimmingEnd(valueRange, of: bytes)]
                    guard !value.contains(0), let text = String(validating: value, as: UTF8.self) else { break }
                    let key = bytes[key]
                    if key.elementsEqual("Name".utf8) {
                        current.name = text
                    } else if key.elementsEqual("Path".utf8) {
                        current.path = text
                    } else if key.elementsEqual("IsRelative".utf8) {
                        current.isRelative = text == "1"
                    } else if key.elementsEqual("StoreID".utf8) {
                        current.storeID = text.isEmpty ? nil : text
                    }
                case .entry, .blank, .comment, .other:
                    // Comments start with `#` or `;`: a `;` line names no key read here.
                    break
                }
                return true
            }
        }
        finishGroup()
        return entries
    }
}
