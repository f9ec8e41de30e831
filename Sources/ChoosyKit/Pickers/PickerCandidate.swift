/// One installed app offered by a picker.
package struct PickerCandidate: Equatable, Sendable {
    /// The catalog key of the app (what `--app` takes).
    package var appKey: String
    /// The name shown to the user (the catalog name, or the entry's translated `Name`).
    package var displayName: String
    /// The `Icon` of the app's desktop entry: an icon theme name or an absolute path.
    package var icon: String?
    /// True for the type's current default; pickers only mark it.
    package var isDefault: Bool

    package init(appKey: String, displayName: String, icon: String? = nil, isDefault: Bool = false) {
        self.appKey = appKey
        self.displayName = displayName
        self.icon = icon
        self.isDefault = isDefault
    }
}
