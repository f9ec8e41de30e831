/// One app of a type: how it is found installed and how it spells each action's URL.
package struct App: Equatable, Sendable {
    package var key: String
    package var name: String
    /// The front of the app's URLs including the colon (`tweetbot:`), or a web address
    /// (`https://x.com`) for web apps.
    package var urlScheme: String
    /// Desktop file IDs that are this app, in preference order (Linux addition).
    package var desktopIDs: [String] = []
    /// Where the app documents its URL scheme (Linux addition, for maintainers).
    package var docs: String?
    package var actions: [AppAction] = []
    /// Where a browser keeps its profiles (Linux addition).
    package var profiles: AppProfiles?
    /// The arguments that open a private window (Linux addition); nil: the entry's own
    /// private-window action, if it has one.
    package var privateArguments: [String]?
    /// The arguments that open the link in a new window (Linux addition), for
    /// `new_window_here` (doc/running.md).
    package var newWindowArguments: [String]?

    package func urlFormat(for action: String) -> String? {
        actions.last { $0.key == action }?.urlFormat
    }

    /// The URL scheme without the colon and anything after it, lowercased (`tweetbot`).
    package var scheme: String {
        let head = urlScheme.prefix { $0 != ":" }
        return head.lowercased()
    }

    /// Web apps have no client of their own: they open in the user's browser. Browsers also
    /// have an `http:` scheme, but they name their desktop entries, so they are not web apps.
    package var isWebApp: Bool {
        let lowered = urlScheme.lowercased()
        return (lowered.hasPrefix("http:") || lowered.hasPrefix("https:")) && desktopIDs.isEmpty
    }
}

/// Where a browser keeps its list of profiles and how one is picked on its command line
/// (doc/profiles.md).
package struct AppProfiles: Equatable, Sendable {
    package enum Format: String, Sendable {
        /// `profiles.ini`: `[Profile…]` groups with a `Name`.
        case firefox
        /// `Local State` JSON: profile directories with names in `profile.info_cache`.
        case chromium
    }

    package var format: Format
    /// Desktop ID → where that variant keeps its profile list, with `~` and
    /// `$XDG_CONFIG_HOME` as written: one path, or the places the browser chooses between,
    /// the one it used first (`BrowserProfileFinder.profileListPath`).
    package var paths: [String: [String]]
    /// The arguments that select a profile, `{{profile}}` standing for it.
    package var arguments: [String]

    package static let placeholder = "{{profile}}"
}

package struct AppAction: Equatable, Sendable {
    package var key: String
    package var urlFormat: String
}
