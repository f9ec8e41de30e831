/// What choosy remembers for one app type.
package struct TypePreference: Equatable, Sendable {
    /// The app picked *always*, if any.
    package var defaultApp: String?
    /// The installed apps of the type the last time the user was shown a choice, so a new app
    /// can make choosy ask again.
    package var seen: [String] = []
    /// The browser ("Name (web page)") was picked *always* for a web link of the type: its web
    /// links stay in the browser, while `open` still uses `defaultApp`.
    package var linksInBrowser = false
    /// What a newer choosy stored for the type, kept as it was.
    var unknownMembers = UnknownJSONMembers()
}

extension TypePreference {
    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        self.init(
            defaultApp: try fields.optional("default", .string), seen: try fields.optional("seen", .array(of: .string)) ?? [],
            linksInBrowser: try fields.optional("links_in_browser", .bool) ?? false)
        unknownMembers = fields.unknownMembers(known: ["default", "seen", "links_in_browser"])
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let defaultApp { members.append(("default", .string(defaultApp))) }
        if linksInBrowser { members.append(("links_in_browser", .bool(true))) }
        members.append(("seen", .strings(seen)))
        return unknownMembers.object(after: members)
    }
}

/// `$XDG_CONFIG_HOME/choosy/preferences.json`, a `GuardedJSONFile`: a corrupt file is read
/// as no remembered apps, and the next change moves it aside and starts again.
package final class PreferenceStore {
    private struct File: GuardedJSONContents {
        static let fileName = "preferences.json"
        static let lost = "no remembered apps"
        static let understoodVersion = 1
        static let members: Set<String> = ["types"]

        var version = File.understoodVersion
        var types: [String: TypePreference] = [:]
        var unknownMembers = UnknownJSONMembers()

        mutating func read(_ fields: JSONFields, skippingFailures: Bool) throws(JSONError) {
            types = try fields.required("types", .dictionary(of: JSONShape(TypePreference.init(json:)), skippingFailures: skippingFailures))
        }

        /// Indented, with names in order (the layout `JSONEncoder` gave it).
        var json: JSONValue {
            unknownMembers.object(after: [("types", .object(sortedByName: types.mapValues(\.json))), ("version", .int(version))])
        }
    }

    private let file: GuardedJSONFile<File>
    private static var whenCorrupt: GuardedJSONFile<File>.WhenCorrupt { .startEmpty }

    package var path: String { file.path }

    package init(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock) {
        file = GuardedJSONFile(environment: environment, fileSystem: fileSystem, warnings: warnings, clock: clock)
    }

    package func preference(for type: String) -> TypePreference {
        file.load().types[type] ?? TypePreference()
    }

    package func all() -> [String: TypePreference] {
        file.load().types
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
