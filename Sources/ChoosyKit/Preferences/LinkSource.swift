/// Where a link came from (doc/links-and-rules.md, "Where a link came from"): the app that
/// asked choosy, as a desktop ID, or what `CHOOSY_SOURCE` or `--from` named.
package struct LinkSource: Equatable, Sendable {
    /// A desktop ID (`org.gnome.Evolution.desktop`), or as `CHOOSY_SOURCE` wrote it.
    package var id: String
    /// How it was found, for `-v`: "CHOOSY_SOURCE", "the GIO_LAUNCHED_DESKTOP_FILE of process 4242 (slack)".
    package var how: String
}
