/// What choosy remembers for one app type.
package struct TypePreference: Equatable, Sendable {
    /// The app picked *always*, if any.
    package var defaultApp: String?
    /// The installed apps of the type the last time the user was shown a choice, so a new app
    /// can make choosy ask again.
    package var seen: [String]
    /// The browser ("Name (web page)") was picked *always* for a web link of the type: its web
    /// links stay in the browser (SPEC §9.1), while `open` still uses `defaultApp`.
    package var linksInBrowser: Bool

    package init(defaultApp: String? = nil, seen: [String] = [], linksInBrowser: Bool = false) {
        self.defaultApp = defaultApp
        self.seen = seen
        self.linksInBrowser = linksInBrowser
    }

    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        self.init(defaultApp: try fields.optional("default", .string), seen: try fields.optional("seen", .array(of: .string)) ?? [],
                  linksInBrowser: try fields.optional("links_in_browser", .bool) ?? false)
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let defaultApp { members.append(("default", .string(defaultApp))) }
        if linksInBrowser { members.append(("links_in_browser", .bool(true))) }
        members.append(("seen", .strings(seen)))
        return .object(members)
    }
}

/// `$XDG_CONFIG_HOME/choosy/preferences.json`, a `GuardedJSONFile`: a corrupt file is moved
/// aside and choosy starts again with no remembered apps.
package final class PreferenceStore {
    private struct File {
        var version = 1
        var types: [String: TypePreference] = [:]

        init() {}

        init(json: JSONValue) throws(JSONError) {
            let fields = try JSONFields(json)
            version = try fields.required("version", .int)
            types = try fields.required("types", .dictionary(of: JSONShape(TypePreference.init(json:))))
        }

        /// Indented, with names in order (the layout `JSONEncoder` gave it).
        var json: JSONValue {
            .object([("types", .object(sortedByName: types.mapValues(\.json))), ("version", .int(version))])
        }
    }

    private let file: GuardedJSONFile<File>
    private static var whenCorrupt: GuardedJSONFile<File>.WhenCorrupt { .startEmpty("no remembered apps") }

    package var path: String { file.path }

    package init(environment: Environment, fileSystem: FileSystem, diagnostics: DiagnosticSink, clock: Clock) {
        file = GuardedJSONFile(
            path: joinPath(environment.configHome, "choosy", "preferences.json"), fileSystem: fileSystem, diagnostics: diagnostics,
            clock: clock, empty: File(), decode: File.init(json:), encode: \.json
        )
    }

    package func preference(for type: String) throws(ChoosyError) -> TypePreference {
        try file.load(whenCorrupt: Self.whenCorrupt).types[type] ?? TypePreference()
    }

    package func all() throws(ChoosyError) -> [String: TypePreference] {
        try file.load(whenCorrupt: Self.whenCorrupt).types
    }

    /// Applies `change` to the latest stored value of `type` and saves it.
    package func update(_ type: String, _ change: (inout TypePreference) -> Void) throws(ChoosyError) {
        try file.modify(whenCorrupt: Self.whenCorrupt) { file in
            var preference = file.types[type] ?? TypePreference()
            change(&preference)
            file.types[type] = preference == TypePreference() ? nil : preference
        }
    }

    /// Forgets the default of every type (the lists of seen apps go too).
    package func resetAll() throws(ChoosyError) {
        try file.modify(whenCorrupt: Self.whenCorrupt) { $0.types = [:] }
    }
}
