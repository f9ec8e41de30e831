extension Choosy {
    /// `choosy reset TYPE`: forgets the default (and the apps seen); returns the app forgotten.
    @discardableResult
    package func reset(_ typeInput: String) throws(ChoosyError) -> String? {
        // Only the key is needed: no desktop entry is read.
        let key = try catalog().resolve(typeInput)
        let store = preferences()
        let previous = try store.preference(for: key).defaultApp
        try store.update(key) { $0 = TypePreference() }
        return previous
    }

    /// `choosy reset --all`.
    package func resetAll() throws(ChoosyError) {
        try preferences().resetAll()
    }

    /// `choosy default TYPE`: the remembered app key, if any.
    package func defaultApp(_ typeInput: String) throws(ChoosyError) -> String? {
        try preferences().preference(for: catalog().resolve(typeInput)).defaultApp
    }

    /// `choosy default TYPE APP`: makes an installed app the default, as picking it *always*.
    package func setDefaultApp(_ typeInput: String, app key: String) throws(ChoosyError) {
        let type = try appType(typeInput)
        guard let app = type.app(key) ?? type.apps.first(where: { $0.name.lowercased() == key.lowercased() }) else {
            throw .unknown("unknown app '\(key)' for \(type.name)" + didYouMean(key, among: type.apps.map(\.key)))
        }
        let installed = try installedApps(of: type)
        guard installed.contains(where: { $0.app.key == app.key }) else {
            throw .unavailable("\(app.name) (\(app.key)) is not installed")
        }
        try preferences().update(type.key) { preference in
            preference = ChoiceDecider.preference(afterChoosing: app.key, always: true, installed: installed.map(\.app.key), preference)
        }
    }
}
