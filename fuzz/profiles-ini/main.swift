@testable import ChoosyKit

// profiles.ini is written by Firefox (and LibreWolf, Waterfox, Floorp), but crashes, hand
// edits and other programs leave anything in it. The reader must survive any bytes, and each
// name it gives must be safe to hand the browser as one argument. The same input is also read
// as a profile group store's rows (0xFF between cells, three to a row).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfilesINI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let profiles = FirefoxProfileList.profiles(in: input.bytes)
    invariant(FirefoxProfileList.profiles(in: input.bytes) == profiles, "reading is deterministic")
    var names: Set<String> = []
    var keys: Set<String> = []
    for profile in profiles {
        invariant(!profile.name.isEmpty, "an empty name")
        invariant(names.insert(profile.name).inserted, "the name '\(profile.name)' twice")
        // Its key's part never reads as a container's, nor as another profile's, and is the
        // name itself unless the name holds `/`, `%25` or `%2F`.
        let part = profile.profileKey
        invariant(!part.contains("/") && keys.insert(part).inserted, "the key part '\(part)' of '\(profile.name)'")
        let escaped = profile.name.contains("/") || profile.name.contains("%25") || profile.name.contains("%2F")
        invariant((part == profile.name) != escaped, "'\(profile.name)' is escaped as '\(part)'")
        invariant(!escaped || PercentEncoding.decode(part) == profile.name, "'\(part)' does not decode to '\(profile.name)'")
        invariant(profile.selector == profile.name, "-P takes the name")
        // One line of the file: no line break, no NUL, no blank at either end.
        invariant(!profile.name.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }, "a line break or NUL in '\(profile.name)'")
        invariant(
            profile.name.first != " " && profile.name.last != " " && profile.name.first != "\t" && profile.name.last != "\t",
            "blanks around '\(profile.name)'")
        // The name reaches the browser as one argument, and its key reads back as the app and it.
        let firefox = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", AppProfiles.placeholder])
        invariant(profile.arguments(firefox) == ["-P", profile.name], "the name is not one argument")
        let key = ChoiceKey.split(ChoiceKey.make(app: "firefox", profile: profile.name))
        invariant(key.app == "firefox" && key.profile == profile.name, "the key of '\(profile.name)' does not read back")
        // Nothing is made up: the name is written in the input.
        let name = Array(profile.name.utf8)
        invariant(input.bytes.indices.contains { input.bytes[$0...].starts(with: name) }, "'\(profile.name)' is not in the input")
    }
    checkContainers(input.bytes)
    checkProfileGroupRows(input.fields)
    return 0
}

/// The same bytes as a profile's `containers.json` and `extensions.json`, which extensions and
/// hand edits also leave in any state: names are unique, one line, never empty, and a
/// container's link holds its name and the URL each as one parameter.
func checkContainers(_ bytes: [UInt8]) {
    _ = FirefoxContainers.extensionIsActive(in: bytes)
    let names = FirefoxContainers.names(in: bytes)
    invariant(Set(names).count == names.count, "a container twice")
    for name in names {
        invariant(!name.isEmpty && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "container name '\(name)'")
        let link = FirefoxContainers.link("https://example.org/?a=b&c=d#e", in: name)
        let query = link.dropFirst("ext+container:".count).split(separator: "&", omittingEmptySubsequences: false)
        invariant(
            query.count == 2 && PercentEncoding.decode(query[0].dropFirst("name=".count)) == name,
            "the name is not one parameter of \(link)")
        invariant(
            PercentEncoding.decode(query[1].dropFirst("url=".count)) == "https://example.org/?a=b&c=d#e",
            "the URL is not one parameter of \(link)")
        let profile = BrowserProfile(name: "Work", selector: "Work").inContainer(name)
        invariant(
            ChoiceKey.split(ChoiceKey.make(app: "firefox", profile: profile.choiceName)).profile == "Work/" + name,
            "the key of '\(name)' does not read back")
    }
}

/// A profile group store's rows as cells (id, path, name), a cell of just U+0001 standing for NULL.
func checkProfileGroupRows(_ cells: [String]) {
    checkProfileGroupRows(
        stride(from: 0, to: cells.count, by: 3).map { start in
            cells[start..<min(start + 3, cells.count)].map { $0 == "\u{1}" ? nil : $0 }
        })
}
