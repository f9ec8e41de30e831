extension AppType {
    /// The declared actions, then those that only an app names (shown by their key): both
    /// can be asked for.
    package var knownActions: [Action] {
        var known = actions
        for app in apps {
            for appAction in app.actions where !known.contains(where: { $0.key == appAction.key }) {
                known.append(Action(key: appAction.key, name: appAction.key))
            }
        }
        return known
    }

    /// An action as typed: its key, or its key or name in any case with spaces or `-` for `_`
    /// (`show_profile`, `"Show Profile"`, `show-profile`).
    package func knownAction(_ input: String) -> Action? {
        let known = knownActions
        let normalized = input.lowercased().replacingSpaces()
        return known.first { $0.key == input }
            ?? known.first { $0.key.lowercased() == normalized || $0.name.lowercased().replacingSpaces() == normalized }
    }
}

extension String {
    fileprivate func replacingSpaces() -> String {
        String(map { $0 == " " || $0 == "-" ? "_" : $0 })
    }
}
