/// The mark choosy leaves in the environment of what it launches with a link, so that a
/// handler which hands the same link back to choosy (`Exec=xdg-open %u`, `gio open %u`, a
/// script running `choosy handle`) is noticed instead of looping (doc/security.md).
package enum LinkHandoff {
    package static let variable = "CHOOSY_HANDLING"

    /// FNV-1a (64 bits) of the link's bytes, in hex: the variable says which link, without
    /// copying a link of up to 128 KiB into every process the app starts.
    package static func mark(of link: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in link.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return ASCIINumber.hex16(hash)
    }

    /// Whether this process was started, through whatever wrappers, by a choosy that handed
    /// `link` on.
    package static func isHandedBack(_ link: String, in environment: Environment) -> Bool {
        environment.value(variable) == mark(of: link)
    }
}
