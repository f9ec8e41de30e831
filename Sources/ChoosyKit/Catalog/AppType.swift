/// An app type after merging every source: what an action means, which parameters exist,
/// and how each app spells the URL.
package struct AppType: Equatable, Sendable {
    package var key: String
    package var name: String
    package var parameters: [Parameter] = []
    package var actions: [Action] = []
    package var apps: [App] = []
    /// Standard URL schemes the type's actions can be written in (`mailto` for email): any
    /// handler of one of them is an app of the type, catalogued or not.
    package var schemes: [String] = []

    package func action(_ key: String) -> Action? { actions.first { $0.key == key } }
    package func app(_ key: String) -> App? { apps.first { $0.key == key } }
    package func parameter(_ key: String) -> Parameter? { parameters.first { $0.key == key } }

    /// The app key someone meant by `input`, of the apps `among` (keys of this type): the
    /// app one of whose desktop IDs it names (`firefox-esr` or `firefox_esr`: Firefox is
    /// `firefox-esr.desktop`), else the nearest key by spelling.
    package func suggestedApp(for input: String, among keys: [String]) -> String? {
        let typed = keyFromText(input.hasSuffix(".desktop") ? input.dropLast(".desktop".count) : input[...])
        let named = apps.first { app in
            keys.contains(app.key) && app.desktopIDs.contains { keyFromText($0.dropLast(".desktop".count)) == typed }
        }
        return named?.key ?? suggestion(for: input, among: keys)
    }
}

package struct Parameter: Equatable, Sendable {
    package var key: String
    package var name: String
    package var description: String = ""
}

package struct Action: Equatable, Sendable {
    package var key: String
    package var name: String
    /// The action for any app that handles one of the type's `schemes`.
    package var urlFormat: String?
}

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
/// (README, "Profiles and private windows").
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

/// App type keys are used in file names and URLs, so only this shape is ever accepted.
package func isValidTypeKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
}

/// Text made into a key: lowercased, every character outside `[a-z0-9_]` replaced by `_`
/// (`org.gnome.Evolution` → `org_gnome_evolution`).
package func keyFromText(_ text: some StringProtocol) -> String {
    String(text.lowercased().unicodeScalars.map { scalar -> Character in
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? Character(scalar) : "_"
    })
}
