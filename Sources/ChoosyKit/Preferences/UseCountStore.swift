/// `$XDG_STATE_HOME/choosy/use-counts.json`: how often the user picked each choice of a type in
/// a picker, kept while `order_by_use` is on, so that pickers offer the most picked first (SPEC
/// §6.1). A `GuardedJSONFile`: a corrupt one is read as no counts, and the next pick moves it
/// aside and counts again.
package final class UseCountStore {
    private struct File: GuardedJSONContents {
        static let fileName = "use-counts.json"
        static let lost = "no counts of picks"
        static let understoodVersion = 1
        static let members: Set<String> = ["types"]

        static func directory(in environment: Environment) -> String { environment.stateHome }

        var version = File.understoodVersion
        /// Per type, per choice key, the picks.
        var types: [String: [String: Int]] = [:]
        var unknownMembers = UnknownJSONMembers()

        mutating func read(_ fields: JSONFields, skippingFailures: Bool) throws(JSONError) {
            types = try fields.required(
                "types", .dictionary(of: .dictionary(of: .int, skippingFailures: skippingFailures), skippingFailures: skippingFailures))
        }

        var json: JSONValue {
            unknownMembers.object(after: [
                ("types", .object(sortedByName: types.mapValues { .object(sortedByName: $0.mapValues(JSONValue.int)) })),
                ("version", .int(version)),
            ])
        }
    }

    private let file: GuardedJSONFile<File>

    package var path: String { file.path }

    package init(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings, clock: Clock) {
        file = GuardedJSONFile(environment: environment, fileSystem: fileSystem, warnings: warnings, clock: clock)
    }

    /// The picks of each choice of `type`.
    package func counts(for type: String) -> [String: Int] {
        file.load().types[type] ?? [:]
    }

    /// One more pick of `choice` among the choices of `type`.
    package func count(_ choice: String, of type: String) throws(ChoosyError) {
        try file.modify(whenCorrupt: .startEmpty) { file in
            file.types[type, default: [:]][choice, default: 0] += 1
        }
    }
}
