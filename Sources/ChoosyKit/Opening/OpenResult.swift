/// What `open` (or `url`) decided and did.
package struct OpenResult: Sendable {
    package struct Via: Sendable {
        package var type: String
        package var app: String
    }

    package var type: String
    package var action: String?
    package var app: String
    /// Nil when an app was started with no action and so no URL.
    package var url: String?
    /// The command line that ran (or would run); empty for `url`.
    package var argv: [String]
    package var desktopID: String?
    /// For web apps: the browser that opens them.
    package var via: Via?
    /// Where the link came from (a desktop ID), when it was looked for and found.
    package var source: String?
    /// It opened (or would open) in a private window: the history does not keep it (SPEC §6.1).
    package var privateWindow = false
    /// The site rule (its name) that opens nothing for the link (`rule add SITE --none`).
    package var nothingByRule: String?

    /// The `--json` object (README, "Usage").
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)),
            ("action", .optional(action)),
            ("app", .string(app)),
            ("url", .optional(url)),
            ("argv", .strings(argv)),
            ("desktop_id", .optional(desktopID)),
        ]
        if let via {
            members.append(("via", .object([("type", .string(via.type)), ("app", .string(via.app))])))
        }
        if let source { members.append(("source", .string(source))) }
        return .object(members)
    }
}
