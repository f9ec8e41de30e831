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
    /// MIME types of local files that the type's apps open (`text/html` for the browser): a
    /// file of one of them is offered to the type's installed apps, with their profiles.
    package var mimeTypes: [String] = []

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

/// App type keys are used in file names and URLs, so only this shape is ever accepted.
package func isValidTypeKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
}

/// Text made into a key: lowercased, every character outside `[a-z0-9_]` replaced by `_`
/// (`org.gnome.Evolution` → `org_gnome_evolution`).
package func keyFromText(_ text: some StringProtocol) -> String {
    String(
        text.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? Character(scalar) : "_"
        })
}
