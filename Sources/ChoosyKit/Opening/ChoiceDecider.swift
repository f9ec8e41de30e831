/// What choosy knows when it must pick an app for an action.
package struct ChoiceSituation: Equatable, Sendable {
    /// The installed choices of the type, in catalog order: app keys, and `app@profile` keys
    /// for the apps offered once per profile.
    package var installed: [String]
    /// Keys of installed apps that launch without being offered: the plain key of an app
    /// offered per profile, the key of an app's only profile.
    package var unoffered: [String]
    /// The apps to offer: installed ones that support the action, or all installed ones when
    /// none does; the system's default handler first.
    package var candidates: [String]
    package var preference: TypePreference
    /// `--app KEY`.
    package var forcedApp: String?
    /// `--choose`, the long press.
    package var choose: Bool
    /// `CHOOSY_ALWAYS_DISPLAY_PICKER=1`.
    package var alwaysPicker: Bool
    /// A web link: the picker offers the browser too ("Name (web page)", doc/links-and-rules.md), so a
    /// single app is not launched without asking while the type has no default.
    package var offersWebPage: Bool

    package init(
        installed: [String], candidates: [String], preference: TypePreference, unoffered: [String] = [],
        forcedApp: String? = nil, choose: Bool = false, alwaysPicker: Bool = false, offersWebPage: Bool = false
    ) {
        self.offersWebPage = offersWebPage
        self.installed = installed
        self.unoffered = unoffered
        self.candidates = candidates
        self.preference = preference
        self.forcedApp = forcedApp
        self.choose = choose
        self.alwaysPicker = alwaysPicker
    }
}

package enum ChoiceDecision: Equatable, Sendable {
    case launch(app: String, reason: String)
    /// Show the picker with these apps in this order; `forgetDefault`: the remembered default
    /// is dropped first (it was uninstalled).
    case pick(candidates: [String], forgetDefault: Bool, reason: String)
    case nothingInstalled
}

/// The decision order of the README's "How choosy chooses", as pure functions so every rule
/// is tested directly: what to do, and what to remember.
package enum ChoiceDecider {
    package static func decide(_ situation: ChoiceSituation) -> ChoiceDecision {
        if let app = situation.forcedApp {
            return .launch(app: app, reason: "--app \(app) was given (nothing is remembered)")
        }
        let candidates = situation.candidates
        guard !candidates.isEmpty else { return .nothingInstalled }
        let remembered = situation.preference.defaultApp
        // Looking at the list never costs the user a favourite: only *always* replaces it.
        if situation.choose {
            return .pick(
                candidates: first(remembered, in: situation), forgetDefault: false,
                reason: "--choose was given: the picker is shown (the default stays unless another is picked always)")
        }
        if situation.alwaysPicker {
            return .pick(candidates: first(remembered, in: situation), forgetDefault: false, reason: "CHOOSY_ALWAYS_DISPLAY_PICKER is set")
        }
        if let remembered {
            // A profile that is gone is gone like an uninstalled app.
            guard situation.installed.contains(remembered) || situation.unoffered.contains(remembered) else {
                return .pick(
                    candidates: candidates, forgetDefault: true,
                    reason: "the default '\(remembered)' is no longer installed: it is forgotten")
            }
            let seen = Set(situation.preference.seen)
            let new = situation.installed.filter { !seen.contains($0) }
            if !new.isEmpty {
                return .pick(
                    candidates: first(remembered, in: situation), forgetDefault: false,
                    reason: "new app(s) since the default was chosen: \(new.joined(separator: ", "))")
            }
            let rememberedApp = ChoiceKey.split(remembered).app
            if candidates.contains(remembered)
                || situation.unoffered.contains(remembered) && candidates.contains(where: { ChoiceKey.split($0).app == rememberedApp })
            {
                return .launch(app: remembered, reason: "'\(remembered)' is the default and no new app appeared")
            }
            return .pick(candidates: candidates, forgetDefault: false, reason: "the default '\(remembered)' cannot do this action")
        }
        if candidates.count == 1 && !situation.offersWebPage {
            return .launch(app: candidates[0], reason: "no default, and '\(candidates[0])' is the only app that can do it")
        }
        if candidates.count == 1 {
            return .pick(
                candidates: candidates, forgetDefault: false,
                reason: "no default, and the web page in the browser is a choice beside '\(candidates[0])'")
        }
        return .pick(candidates: candidates, forgetDefault: false, reason: "no default, and \(candidates.count) apps can do it")
    }

    /// What to remember before the picker is shown: a default that was uninstalled is
    /// forgotten. Nil when nothing changes.
    package static func preferenceBeforePicking(_ decision: ChoiceDecision, _ preference: TypePreference) -> TypePreference? {
        guard case .pick(_, true, _) = decision else { return nil }
        var updated = preference
        updated.defaultApp = nil
        return updated
    }

    /// What to remember once the user chose `app` from a list shown while `installed` were the
    /// installed apps: *always* makes it the default, and either way the apps seen are the
    /// ones shown, so that only a later new app asks again. With `afterChoosingTheBrowser`, the
    /// only places `seen` is written.
    package static func preference(afterChoosing app: String, always: Bool, installed: [String], _ preference: TypePreference)
        -> TypePreference
    {
        var updated = preference
        if always { (updated.defaultApp, updated.linksInBrowser) = (app, false) }
        updated.seen = installed
        return updated
    }

    /// What to remember once the user chose the browser for a web link of the type:
    /// *always* keeps the type's web links there; the default for `open` stays.
    package static func preference(afterChoosingTheBrowser always: Bool, installed: [String], _ preference: TypePreference)
        -> TypePreference
    {
        var updated = preference
        if always { updated.linksInBrowser = true }
        updated.seen = installed
        return updated
    }

    /// The candidates with the default first: moved there, or, when it is a key that is not
    /// offered (`chromium`, the browser's own default profile, beside `chromium@Work`), put
    /// there while its app is among them, so that the picker still offers the default.
    private static func first(_ key: String?, in situation: ChoiceSituation) -> [String] {
        let candidates = situation.candidates
        guard let key else { return candidates }
        if candidates.contains(key) { return [key] + candidates.filter { $0 != key } }
        let app = ChoiceKey.split(key).app
        guard situation.unoffered.contains(key), candidates.contains(where: { ChoiceKey.split($0).app == app }) else { return candidates }
        return [key] + candidates
    }
}
