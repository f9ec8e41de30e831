extension ChoosyError {
    /// A choice is needed and no picker can be shown (no terminal, no display, none that
    /// shows itself): exit 5 with the candidates, so the user can pass one with `--app`.
    /// `no picker available to choose a Browser app (candidates: firefox, chromium): install rofi or zenity to choose; pass --app KEY or --picker`
    package static func noPickerAvailable(
        typeName: String, candidates: [PickerCandidate], launchable: [UnpickedChoice.Candidate], userDefault: String?, reason: String
    ) -> ChoosyError {
        let article = typeName.lowercased().first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let keys = candidates.map(\.appKey).joined(separator: ", ")
        var error = ChoosyError.noChoice(
            "no picker available to choose \(article) \(typeName) app (candidates: \(keys)): \(reason); pass --app KEY or --picker")
        error.unpicked = UnpickedChoice(candidates: launchable, userDefault: userDefault, typeName: typeName, reason: reason)
        return error
    }
}
