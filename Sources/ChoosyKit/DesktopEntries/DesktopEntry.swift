/// The `[Desktop Entry]` group of one desktop entry file, with typed access to the keys
/// choosy uses. Values are kept raw and unescaped on access, because lists must be split
/// before their elements are unescaped.
package struct DesktopEntry: Equatable, Sendable {
    /// The desktop file ID (`kde-foo.desktop` for `applications/kde/foo.desktop`).
    package var id: String
    /// Where the file was read from (`%k`).
    package var path: String
    /// Key (with `[locale]` suffix when localized) → raw value.
    package var keys: [String: String]
    /// The `[Desktop Action …]` groups that `Actions` lists, in its order.
    package var actions: [DesktopAction] = []

    /// A `string` value, unescaped.
    package func value(_ key: String) -> String? {
        keys[key].map(KeyFile.unescape)
    }

    /// The `Key[xx]` value that `locale` selects, in the spec's matching order, or nil when
    /// there is none (the unlocalized value is not a translation).
    package func translation(of key: String, for locale: DesktopLocale?) -> String? {
        guard let locale else { return nil }
        for candidate in locale.candidates {
            if let raw = keys["\(key)[\(candidate)]"] { return KeyFile.unescape(raw) }
        }
        return nil
    }

    /// The translation for `locale`, else the unlocalized value.
    package func localizedValue(_ key: String, for locale: DesktopLocale?) -> String? {
        translation(of: key, for: locale) ?? value(key)
    }

    /// A `;`-separated list value.
    package func list(_ key: String) -> [String] {
        keys[key].map(KeyFile.list) ?? []
    }

    /// A `boolean` value: `true` (or the `1` that GLib also accepts) is true, anything else false.
    package func boolean(_ key: String) -> Bool {
        let raw = keys[key]
        return raw == "true" || raw == "1"
    }

    package var type: String? { value("Type") }
    package var name: String? { value("Name") }
    package var exec: String? { value("Exec") }
    package var tryExec: String? { value("TryExec") }
    package var icon: String? { value("Icon") }
    /// The `Path` key: the working directory to run the program in.
    package var workingDirectory: String? { value("Path") }
    package var mimeTypes: [String] { list("MimeType") }
    package var isHidden: Bool { boolean("Hidden") }
    package var runsInTerminal: Bool { boolean("Terminal") }

    /// The action that opens a private window: the first whose key or untranslated `Name`
    /// holds "private" or "incognito", any case, and that has an `Exec`
    /// (doc/profiles.md).
    package var privateWindowAction: DesktopAction? {
        actions.first { action in
            guard action.exec != nil else { return false }
            return [action.key, action.name ?? ""].contains { text in
                let lowered = text.lowercased()
                return holds(lowered, "private") || holds(lowered, "incognito")
            }
        }
    }

    /// True when `MimeType` lists `mimeType` (MIME types compare case-insensitively).
    package func handles(_ mimeType: String) -> Bool {
        let wanted = mimeType.lowercased()
        return mimeTypes.contains { $0.lowercased() == wanted }
    }
}

/// One `[Desktop Action KEY]` group (Desktop Entry spec, "Additional applications actions"):
/// another way to start the app, such as a private window.
package struct DesktopAction: Equatable, Sendable {
    /// The action's identifier, as `Actions` lists it.
    package var key: String
    /// Key → raw value, as in `DesktopEntry.keys`.
    package var keys: [String: String]

    package var name: String? { keys["Name"].map(KeyFile.unescape) }
    package var exec: String? { keys["Exec"].map(KeyFile.unescape) }
}

/// Reads desktop entry files. Anything malformed yields nil, never a crash or a partial entry.
package enum DesktopEntryParser {
    package static let groupName = "Desktop Entry"

    /// The entry in `bytes`, or nil when they are not a key file with a `[Desktop Entry]` group.
    /// With `keeping`, the same entry or nil, but holding only those keys and no actions.
    package static func parse(_ bytes: [UInt8], id: String, path: String, keeping: [String]? = nil) -> DesktopEntry? {
        let kept = keeping.map { $0.map { Array($0.utf8) } }
        guard
            let file = KeyFile(
                parsing: bytes, keeping: kept.map { kept in (groupName, { key in kept.contains { $0.elementsEqual(key) } }) }),
            let keys = file.groups[groupName]
        else { return nil }
        // The spec: an action is one `Actions` lists and that has its group; others are ignored.
        let actions = (keys["Actions"].map(KeyFile.list) ?? []).compactMap { key in
            file.groups["Desktop Action \(key)"].map { DesktopAction(key: key, keys: $0) }
        }
        return DesktopEntry(id: id, path: path, keys: keys, actions: actions)
    }

    /// The entry in the regular file at `path`, or nil when it is missing, not a regular file
    /// (a FIFO would block the read forever), larger than `KeyFile.sizeLimit`, or malformed.
    package static func read(_ path: String, id: String, fileSystem: FileSystem) -> DesktopEntry? {
        guard let info = fileSystem.info(path), info.kind == .regular, info.size <= Int64(KeyFile.sizeLimit),
            let bytes = try? fileSystem.read(path, limit: KeyFile.sizeLimit)
        else { return nil }
        return parse(bytes, id: id, path: path)
    }
}
