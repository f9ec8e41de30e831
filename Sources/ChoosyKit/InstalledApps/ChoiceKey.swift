/// The key of a choice: an app key, or `<app key>@<profile name>` for one of its profiles
/// (everything after the first `@` is the profile's name as shown, spaces included).
package enum ChoiceKey {
    package static func make(app: String, profile: String?) -> String {
        profile.map { "\(app)@\($0)" } ?? app
    }

    /// `firefox@Work` → (`firefox`, `Work`); `firefox` → (`firefox`, nil). Split at the `@`
    /// byte, not at a Character: a name that starts with a combining mark would join the `@`
    /// into one Character (found by fuzzing).
    package static func split(_ key: String) -> (app: String, profile: String?) {
        let bytes = key.utf8
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return (key, nil) }
        return (String(decoding: bytes[..<at], as: UTF8.self), String(decoding: bytes[bytes.index(after: at)...], as: UTF8.self))
    }
}
