/// Firefox's `profiles.ini` (also LibreWolf's, Waterfox's, Floorp's): `[Profile<N>]` groups
/// with `Name`, `Path`, `IsRelative` and `Default`, next to `[General]` and `[Install<hash>]`
/// groups, which say nothing about names. Read leniently: Firefox writes the file, but a
/// crash or a hand edit can leave anything in it, and a line that is not `Key=Value` (or not
/// UTF-8) is skipped rather than costing every profile.
package enum FirefoxProfileList {
    /// A `profiles.ini` of real users is well under a KiB per profile.
    package static let sizeLimit = 1 << 20

    /// The profiles in file order; one without a `Name` is skipped, and so is a second with
    /// the same name (Firefox's `-P` would open the first).
    package static func profiles(in bytes: [UInt8]) -> [BrowserProfile] {
        var names: [String] = []
        var inProfile = false
        var name: String?
        func finishGroup() {
            if inProfile, let name, !name.isEmpty, !names.contains(name) { names.append(name) }
            name = nil
        }
        // A CR ends a line too (as in Firefox's own reader): no name can hold a line break.
        for rawLine in bytes.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            var line = rawLine.drop { $0 == 0x20 || $0 == 0x09 }
            guard let first = line.first, first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { continue }
            if first == UInt8(ascii: "[") {
                finishGroup()
                while line.last == 0x20 || line.last == 0x09 { line = line.dropLast() }
                inProfile = line.last == UInt8(ascii: "]") && line.dropFirst().starts(with: "Profile".utf8)
                continue
            }
            guard inProfile, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            var key = line[..<equals]
            while key.last == 0x20 || key.last == 0x09 { key = key.dropLast() }
            guard key.elementsEqual("Name".utf8) else { continue }
            // A NUL can reach no argv element; a name that is not UTF-8 could not be typed.
            var value = line[line.index(after: equals)...].drop { $0 == 0x20 || $0 == 0x09 }
            while value.last == 0x20 || value.last == 0x09 { value = value.dropLast() }
            guard !value.contains(0), let text = String(validating: value, as: UTF8.self) else { continue }
            name = text
        }
        finishGroup()
        return names.map { BrowserProfile(name: $0, selector: $0) }
    }
}
