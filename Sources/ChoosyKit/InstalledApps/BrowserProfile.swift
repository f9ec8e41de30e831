/// One profile of a browser, as its profile list names it.
package struct BrowserProfile: Equatable, Sendable {
    /// The name shown to the user, and (as `profileKey`) what follows the `@` of the choice's
    /// key (`firefox@Work`): Firefox's `Name`, Chromium's display name.
    package var name: String
    /// What `{{profile}}` becomes on the command line: Firefox's `Name`, Chromium's profile
    /// directory (`Profile 1`).
    package var selector: String
    /// The profile's directory: Firefox's from `profiles.ini`, Chromium's below the directory
    /// of its `Local State`.
    package var directory: String?
    /// A profile of a Firefox profile group, which `profiles.ini` does not name, so `-P`
    /// cannot open it: Firefox is given its directory, `--profile DIR`, as Firefox's own
    /// profile manager starts one (doc/profiles.md).
    package var inProfileGroup = false
    package static let profileGroupOption = "--profile"
    /// A Firefox container of the profile (doc/profiles.md): the link is opened in it.
    package var container: String?

    /// What follows the `@` of the key of the profile itself: its name, or, for a name a `/`
    /// would make read as a container's, that name escaped (`ChoiceKey.profilePart`).
    package var profileKey: String { ChoiceKey.profilePart(name) }
    /// What follows the `@` of the choice's key: the profile's, and for a container `/` and
    /// its name (`firefox@Work/Banking`): a word a shell and completion leave whole.
    package var choiceName: String { container.map { "\(profileKey)/\($0)" } ?? profileKey }
    /// The name shown after the app's: "Work", or "Work — Banking" for a container.
    package var shownName: String { container.map { "\(name) — \($0)" } ?? name }

    /// The profile's container `container`.
    package func inContainer(_ container: String) -> BrowserProfile {
        var profile = self
        profile.container = container
        return profile
    }

    /// The link as the browser is given it: in a container, the extension's own link.
    package func launchedURL(_ url: String) -> String {
        container.map { FirefoxContainers.link(url, in: $0) } ?? url
    }

    /// The app's profile arguments for this profile: each `{{profile}}` replaced by the
    /// selector, which stays inside its one argument whatever it holds.
    package func arguments(_ profiles: AppProfiles) -> [String] {
        if inProfileGroup, let directory { return [Self.profileGroupOption, directory] }
        return profiles.arguments.map { replacingEvery(AppProfiles.placeholder, in: $0, with: selector) }
    }

    /// True when a browser would read the profile as an option: the selector starts with `-`
    /// and is an argument of its own (`-P -foo`). `--profile-directory=-foo` is not, nor is a
    /// profile group's directory, which is absolute.
    package func looksLikeAnOption(_ profiles: AppProfiles) -> Bool {
        !inProfileGroup && selector.hasPrefix("-") && profiles.arguments.contains(AppProfiles.placeholder)
    }
}
