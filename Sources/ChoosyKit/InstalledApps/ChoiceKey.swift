/// The key of a choice: an app key, or `<app key>@<profile name>` for one of its profiles
/// (everything after the first `@` is the profile's name as shown, spaces included).
package enum ChoiceKey {
    package static func make(app: String, profile: String?) -> String {
        profile.map { "\(app)@\($0)" } ?? app
    }

    /// `firefox@Work` → (`firefox`, `Work`); `firefox` → (`firefox`, nil).
    package static func split(_ key: String) -> (app: String, profile: String?) {
        guard let at = key.firstIndex(of: "@") else { return (key, nil) }
        return (String(key[..<at]), String(key[key.index(after: at)...]))
    }
}
