/// Firefox containers (doc/profiles.md): the public identities of a profile's
/// `containers.json`, offered only when the "Open external links in a container" extension
/// is installed and active in that profile (its ID in `extensions.json`), because only that
/// extension opens an `ext+container:` link in a container.
package enum FirefoxContainers {
    /// The extension's ID, as its manifest and `extensions.json` give it.
    package static let extensionID = "{4d4aee45-b821-48a9-801c-d4a05821de76}"
    /// Real files are a few KiB (`extensions.json` grows with the add-ons, rarely past 1 MiB).
    package static let sizeLimit = 8 << 20
    /// The built-in containers carry a localization ID instead of a name: `l10nId` as Firefox
    /// writes it today, or `l10nID` as the profiles made before its Fluent names still hold
    /// it (`Tests/Fixtures/browser-profiles/README.md`); the extension matches the names
    /// Firefox shows in English.
    private static let builtInNames = [
        "user-context-personal": "Personal", "user-context-work": "Work",
        "user-context-banking": "Banking", "user-context-shopping": "Shopping",
        "userContextPersonal.label": "Personal", "userContextWork.label": "Work",
        "userContextBanking.label": "Banking", "userContextShopping.label": "Shopping",
    ]
    private static let localizationKeys = ["l10nId", "l10nID"]

    /// Whether `extensions.json` lists the extension as active. Anything unreadable is no.
    package static func extensionIsActive(in bytes: [UInt8]) -> Bool {
        guard case .array(let addons)? = (try? JSONReader.parse(bytes))?["addons"] else { return false }
        return addons.contains { $0["id"] == .string(extensionID) && $0["active"] == .bool(true) }
    }

    /// The names of the public containers of `containers.json`, in its order; names that are
    /// empty, repeated, or hold a control character are left out, so one bad identity costs
    /// only itself. Repeats are found in a set: a file of 100,000 containers is read in linear
    /// time (doc/security.md, "Many candidates").
    package static func names(in bytes: [UInt8]) -> [String] {
        guard case .array(let identities)? = (try? JSONReader.parse(bytes))?["identities"] else { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        for identity in identities {
            guard identity["public"] == .bool(true) else { continue }
            let name: String?
            if case .string(let written)? = identity["name"] {
                name = written
            } else {
                name =
                    localizationKeys.lazy.compactMap { key -> String? in
                        guard case .string(let id)? = identity[key] else { return nil }
                        return builtInNames[id]
                    }.first
            }
            guard let name, !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                seen.insert(name).inserted
            else { continue }
            names.append(name)
        }
        return names
    }

    /// The link that makes the extension open `url` in `container`: its own parameters,
    /// each value percent-encoded so that neither can end the other.
    package static func link(_ url: String, in container: String) -> String {
        "ext+container:name=\(PercentEncoding.encode(container))&url=\(PercentEncoding.encode(url))"
    }
}
