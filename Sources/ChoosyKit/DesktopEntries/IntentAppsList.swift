/// The applications the desktop chose for intents (intent-apps spec 0.1): the
/// `[Default Applications]` of the `intentapps.list` files, in the order `ListFile` gives
/// (desktop-specific ones first), where `org.freedesktop.Terminal1=ptyxis.desktop;kitty.desktop;`
/// names the desktop's terminal; else the entries whose `Implements` lists the intent.
package struct IntentAppsList: Sendable {
    private let environment: Environment
    private let index: DesktopEntryIndex
    private let fileSystem: FileSystem

    /// Found only when an intent is asked for: every launch makes a list, and few ask it.
    package var files: [ListFile] { ListFile.locations(of: "intentapps.list", in: environment, dataHome: false) }

    package init(environment: Environment, index: DesktopEntryIndex, fileSystem: FileSystem) {
        self.environment = environment
        self.index = index
        self.fileSystem = fileSystem
    }

    /// The entry for `intent`, and why: the spec's algorithm, the first ID of the first file's
    /// list for the intent whose entry is usable and implements it (else the file's next ID,
    /// then the next file); without one, the first usable entry implementing it (directory
    /// precedence, then ID order). Nil when no entry implements it.
    package func implementation(of intent: String) -> (entry: DesktopEntry, reason: String)? {
        for file in files {
            guard let info = fileSystem.info(file.path), info.kind == .regular,
                let bytes = try? fileSystem.read(file.path, limit: KeyFile.sizeLimit),
                let listed = KeyFile(parsing: bytes)?.groups["Default Applications"]?[intent]
            else { continue }
            for id in KeyFile.list(listed) {
                guard let entry = index.usableEntry(id: id), entry.list("Implements").contains(intent) else { continue }
                return (entry, "\(file.path) makes \(id) the default for \(intent)")
            }
        }
        guard let entry = index.usableEntries(implementing: intent).first else { return nil }
        return (entry, "no intentapps.list names one, and \(entry.id) implements \(intent)")
    }
}
