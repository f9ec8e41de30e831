/// The `[Desktop Entry]` group of one desktop entry file, with typed access to the keys
/// choosy uses. Values are kept raw and unescaped on access, because lists must be split
/// before their elements are unescaped.
public struct DesktopEntry: Equatable, Sendable {
    /// The desktop file ID (`kde-foo.desktop` for `applications/kde/foo.desktop`).
    public var id: String
    /// Where the file was read from (`%k`).
    public var path: String
    /// Key (with `[locale]` suffix when localized) → raw value.
    public var keys: [String: String]

    public init(id: String, path: String, keys: [String: String]) {
        self.id = id
        self.path = path
        self.keys = keys
    }

    /// A `string` value, unescaped.
    public func value(_ key: String) -> String? {
        keys[key].map(KeyFile.unescape)
    }

    /// The `Key[xx]` value that `locale` selects, in the spec's matching order, or nil when
    /// there is none (the unlocalized value is not a translation).
    public func translation(of key: String, for locale: DesktopLocale?) -> String? {
        guard let locale else { return nil }
        for candidate in locale.candidates {
            if let raw = keys["\(key)[\(candidate)]"] { return KeyFile.unescape(raw) }
        }
        return nil
    }

    /// The translation for `locale`, else the unlocalized value.
    public func localizedValue(_ key: String, for locale: DesktopLocale?) -> String? {
        translation(of: key, for: locale) ?? value(key)
    }

    /// A `;`-separated list value.
    public func list(_ key: String) -> [String] {
        keys[key].map(KeyFile.list) ?? []
    }

    /// A `boolean` value: `true` (or the `1` that GLib also accepts) is true, anything else false.
    public func boolean(_ key: String) -> Bool {
        let raw = keys[key]
        return raw == "true" || raw == "1"
    }

    public var type: String? { value("Type") }
    public var name: String? { value("Name") }
    public var exec: String? { value("Exec") }
    public var tryExec: String? { value("TryExec") }
    public var icon: String? { value("Icon") }
    /// The `Path` key: the working directory to run the program in.
    public var workingDirectory: String? { value("Path") }
    public var mimeTypes: [String] { list("MimeType") }
    public var isHidden: Bool { boolean("Hidden") }
    public var runsInTerminal: Bool { boolean("Terminal") }

    /// True when `MimeType` lists `mimeType` (MIME types compare case-insensitively).
    public func handles(_ mimeType: String) -> Bool {
        let wanted = mimeType.lowercased()
        return mimeTypes.contains { $0.lowercased() == wanted }
    }
}

/// Reads desktop entry files. Anything malformed yields nil, never a crash or a partial entry.
public enum DesktopEntryParser {
    public static let groupName = "Desktop Entry"

    /// The entry in `bytes`, or nil when they are not a key file with a `[Desktop Entry]` group.
    public static func parse(_ bytes: [UInt8], id: String, path: String) -> DesktopEntry? {
        guard let file = KeyFile(parsing: bytes), let keys = file.groups[groupName] else { return nil }
        return DesktopEntry(id: id, path: path, keys: keys)
    }

    /// The entry in the regular file at `path`, or nil when it is missing, not a regular file
    /// (a FIFO would block the read forever), larger than `KeyFile.sizeLimit`, or malformed.
    public static func read(_ path: String, id: String, fileSystem: FileSystem) -> DesktopEntry? {
        guard let info = fileSystem.info(path), info.kind == .regular, info.size <= Int64(KeyFile.sizeLimit),
              let bytes = try? fileSystem.read(path, limit: KeyFile.sizeLimit)
        else { return nil }
        return parse(bytes, id: id, path: path)
    }
}
