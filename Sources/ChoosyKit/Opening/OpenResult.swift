/// What `open` (or `url`) decided and did.
public struct OpenResult: Sendable {
    public struct Via: Sendable {
        public var type: String
        public var app: String
    }

    public var type: String
    public var action: String?
    public var app: String
    /// Nil when an app was started with no action and so no URL.
    public var url: String?
    /// The command line that ran (or would run); empty for `url`.
    public var argv: [String]
    public var desktopID: String?
    /// For web apps: the browser that opens them.
    public var via: Via?

    /// The `--json` object (README, "Usage").
    public var json: JSONValue {
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
        return .object(members)
    }
}
