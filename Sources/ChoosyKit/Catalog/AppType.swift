/// An app type after merging every source: what an action means, which parameters exist,
/// and how each app spells the URL.
public struct AppType: Equatable, Sendable {
    public var key: String
    public var name: String
    public var parameters: [Parameter]
    public var actions: [Action]
    public var apps: [App]
    /// Standard URL schemes the type's actions can be written in (`mailto` for email): any
    /// handler of one of them is an app of the type, catalogued or not.
    public var schemes: [String]

    public init(key: String, name: String, parameters: [Parameter] = [], actions: [Action] = [], apps: [App] = [], schemes: [String] = []) {
        self.key = key
        self.name = name
        self.parameters = parameters
        self.actions = actions
        self.apps = apps
        self.schemes = schemes
    }

    public func action(_ key: String) -> Action? { actions.first { $0.key == key } }
    public func app(_ key: String) -> App? { apps.first { $0.key == key } }
    public func parameter(_ key: String) -> Parameter? { parameters.first { $0.key == key } }
}

public struct Parameter: Equatable, Sendable {
    public var key: String
    public var name: String
    public var description: String

    public init(key: String, name: String, description: String = "") {
        self.key = key
        self.name = name
        self.description = description
    }
}

public struct Action: Equatable, Sendable {
    public var key: String
    public var name: String
    /// The action for any app that handles one of the type's `schemes`.
    public var urlFormat: String?

    public init(key: String, name: String, urlFormat: String? = nil) {
        self.key = key
        self.name = name
        self.urlFormat = urlFormat
    }
}

public struct App: Equatable, Sendable {
    public var key: String
    public var name: String
    /// The front of the app's URLs including the colon (`tweetbot:`), or a web address
    /// (`https://x.com`) for web apps.
    public var urlScheme: String
    /// Desktop file IDs that are this app, in preference order (Linux addition).
    public var desktopIDs: [String]
    /// Where the app documents its URL scheme (Linux addition, for maintainers).
    public var docs: String?
    public var actions: [AppAction]

    public init(key: String, name: String, urlScheme: String, desktopIDs: [String] = [], docs: String? = nil, actions: [AppAction] = []) {
        self.key = key
        self.name = name
        self.urlScheme = urlScheme
        self.desktopIDs = desktopIDs
        self.docs = docs
        self.actions = actions
    }

    public func urlFormat(for action: String) -> String? {
        actions.last { $0.key == action }?.urlFormat
    }

    /// The URL scheme without the colon and anything after it, lowercased (`tweetbot`).
    public var scheme: String {
        let head = urlScheme.prefix { $0 != ":" }
        return head.lowercased()
    }

    /// Web apps have no client of their own: they open in the user's browser. Browsers also
    /// have an `http:` scheme, but they name their desktop entries, so they are not web apps.
    public var isWebApp: Bool {
        let lowered = urlScheme.lowercased()
        return (lowered.hasPrefix("http:") || lowered.hasPrefix("https:")) && desktopIDs.isEmpty
    }
}

public struct AppAction: Equatable, Sendable {
    public var key: String
    public var urlFormat: String

    public init(key: String, urlFormat: String) {
        self.key = key
        self.urlFormat = urlFormat
    }
}

/// App type keys are used in file names and URLs, so only this shape is ever accepted.
public func isValidTypeKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
}

/// Text made into a key: lowercased, every character outside `[a-z0-9_]` replaced by `_`
/// (`org.gnome.Evolution` → `org_gnome_evolution`).
public func keyFromText(_ text: some StringProtocol) -> String {
    String(text.lowercased().unicodeScalars.map { scalar -> Character in
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? Character(scalar) : "_"
    })
}
