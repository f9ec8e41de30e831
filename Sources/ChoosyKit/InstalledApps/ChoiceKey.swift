/// The key of a choice: an app key, or `<app key>@<profile name>` for one of its profiles
/// (everything after the first `@` is the profile's name as shown, spaces included), or
/// `<app key>@<profile name>/<container>` for a container (doc/profiles.md, "Keys").
package enum ChoiceKey {
    /// The profile's part of a key. A `/` in it would read as a container's (`Work/Banking`
    /// is the Banking container of Work), so a name that holds one is escaped: each `%` as
    /// `%25`, each `/` as `%2F` (`Work%2FBanking`). So is a name that holds `%25` or `%2F`,
    /// which could otherwise be another's escaped form; every other name stays as it is.
    /// Every escaped form holds `%25` or `%2F`, which no name kept as it is does, and escaping
    /// loses nothing: no two profiles, nor a profile and a container, share a key.
    package static func profilePart(_ name: String) -> String {
        guard needsEscaping(name) else { return name }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(name.utf8.count + 8)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "%"): escaped += "%25".utf8
            case UInt8(ascii: "/"): escaped += "%2F".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Whether `name` holds `/`, `%25` or `%2F`: one pass over its bytes, as every key is
    /// made from it (a picker of thousands of profiles makes each many times).
    private static func needsEscaping(_ name: String) -> Bool {
        var afterPercent = 0
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "/"): return true
            case UInt8(ascii: "%"): afterPercent = 1
            case UInt8(ascii: "2") where afterPercent == 1: afterPercent = 2
            case UInt8(ascii: "5") where afterPercent == 2, UInt8(ascii: "F") where afterPercent == 2: return true
            default: afterPercent = 0
            }
        }
        return false
    }

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
