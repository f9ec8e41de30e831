@testable import ChoosyKit

// profiles.ini is written by Firefox (and LibreWolf, Waterfox, Floorp), but crashes, hand
// edits and other programs leave anything in it. The reader must survive any bytes, and each
// name it gives must be safe to hand the browser as one argument.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfilesINI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let profiles = FirefoxProfileList.profiles(in: input.bytes)
    invariant(FirefoxProfileList.profiles(in: input.bytes) == profiles, "reading is deterministic")
    var names: Set<String> = []
    for profile in profiles {
        invariant(!profile.name.isEmpty, "an empty name")
        invariant(names.insert(profile.name).inserted, "the name '\(profile.name)' twice")
        invariant(profile.selector == profile.name, "-P takes the name")
        // One line of the file: no line break, no NUL, no blank at either end.
        invariant(!profile.name.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }, "a line break or NUL in '\(profile.name)'")
        invariant(profile.name.first != " " && profile.name.last != " " && profile.name.first != "\t" && profile.name.last != "\t", "blanks around '\(profile.name)'")
        // The name reaches the browser as one argument, and its key reads back as the app and it.
        let firefox = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", AppProfiles.placeholder])
        invariant(profile.arguments(firefox) == ["-P", profile.name], "the name is not one argument")
        let key = ChoiceKey.split(ChoiceKey.make(app: "firefox", profile: profile.name))
        invariant(key.app == "firefox" && key.profile == profile.name, "the key of '\(profile.name)' does not read back")
        // Nothing is made up: the name is written in the input.
        let name = Array(profile.name.utf8)
        invariant(input.bytes.indices.contains { input.bytes[$0...].starts(with: name) }, "'\(profile.name)' is not in the input")
    }
    return 0
}
