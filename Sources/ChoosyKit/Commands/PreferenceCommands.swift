extension Choosy {
    /// `choosy reset TYPE`: forgets the default (and the apps seen); returns the app forgotten.
    @discardableResult
    package func reset(_ typeInput: String) throws(ChoosyError) -> String? {
        // Only the key is needed: no desktop entry is read.
        let key = try catalog().resolve(typeInput)
        let store = preferences()
        let previous = store.preference(for: key).defaultApp
        try store.update(key) { $0 = TypePreference() }
        return previous
    }

    /// `choosy reset --all`.
    package func resetAll() throws(ChoosyError) {
        try preferences().resetAll()
    }

    /// `choosy default TYPE`: the remembered app key, if any.
    package func defaultApp(_ typeInput: String) throws(ChoosyError) -> String? {
        preferences().preference(for: try catalog().resolve(typeInput)).defaultApp
    }

    /// `choosy default TYPE APP`: makes an installed app, or one of its profiles
    /// (`firefox@Work`), the default, as picking it *always*. APP may also be the app's name.
    package func setDefaultApp(_ typeInput: String, app key: String) throws(ChoosyError) {
        let type = try appType(typeInput)
        let directory = try installedCatalog()
        let named = type.app(ChoiceKey.split(key).app) == nil ? type.apps.first(where: { $0.name.lowercased() == key.lowercased() }) : nil
        let chosen = try directory.choice(named?.key ?? key, in: type)
        let shown = try directory.choices(of: type).offered.map(\.key)
        try preferences().update(type.key) { preference in
            preference = ChoiceDecider.preference(afterChoosing: chosen.key, always: true, installed: shown, preference)
        }
    }
}
