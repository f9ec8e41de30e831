/// An action to perform with the user's favourite app of a type: what Choosy's
/// `ChoosyActionContext` was.
///
/// ```swift
/// let action = ChoosyAction(appType: "Twitter", action: "show_profile",
///                           parameters: ["profile_screenname": "choosyapp"])
/// try Choosy().handle(action)
/// ```
public struct ChoosyAction: Sendable {
    /// The app type, by key or name, in any case (`"Twitter"`, `"browser"`).
    public var appType: String
    /// The action, by key or name (`"show_profile"`); nil starts the chosen app with no URL.
    public var action: String?
    /// Generic parameters (`["profile_screenname": "choosyapp"]`); each app gets only the ones
    /// its URL template uses.
    public var parameters: [String: String]
    /// The title of the picker, when the user is asked.
    public var pickerTitle: String?

    public init(appType: String, action: String? = nil, parameters: [String: String] = [:], pickerTitle: String? = nil) {
        self.appType = appType
        self.action = action
        self.parameters = parameters
        self.pickerTitle = pickerTitle
    }
}

extension Choosy {
    /// choosy for a Swift program, as the `choosy` command works for its user: the process's
    /// environment (`HOME`, `XDG_*`, `CHOOSY_*`), its desktop entries, preferences and catalog.
    /// Catalog data is used as it is, stale or not: refresh it with `registerAppTypes(_:)`.
    /// Warnings go to stderr, one line each.
    public convenience init() {
        let environment = Environment.current()
        var settings = Settings(executable: currentExecutable())
        settings.refreshInBackground = false
        self.init(
            environment: environment, settings: settings,
            diagnostics: StandardErrorDiagnostics(verbose: false, style: TerminalStyle.forStream(2, environment: environment))
        )
    }

    /// Opens `action` with the user's favourite app of its type, as `choosy open` does: the
    /// remembered default, or the picker (which remembers a choice made *always*), then the
    /// app with a URL carrying only the parameters it supports. What Choosy's
    /// `handleAction:` was.
    ///
    /// - Returns: which app was launched, with which URL and command line.
    /// - Throws: `ChoosyError`, whose `status` is the exit status `choosy open` would have
    ///   (3 unknown type or action, 4 nothing installed, 5 no choice made, 6 launch failed, …).
    @discardableResult
    public func handle(_ action: ChoosyAction) throws(ChoosyError) -> ChoosyOutcome {
        var options = OpenOptions()
        options.title = action.pickerTitle
        let parameters = action.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        defer { finish() }
        return ChoosyOutcome(
            try actionOpener().open(OpenRequest(type: action.appType, action: action.action, parameters: parameters, options: options)))
    }

    /// Forgets the favourite app of the action's type, then handles the action, so the user
    /// is asked again. What Choosy's `resetAppSelectionAndHandleAction:` was.
    @discardableResult
    public func resetAppSelectionAndHandle(_ action: ChoosyAction) throws(ChoosyError) -> ChoosyOutcome {
        try ResetCommand.forget(action.appType, in: self)
        return try handle(action)
    }

    /// Downloads these app types (keys or names) from the catalog server now, so that later
    /// actions have fresh data and never wait on the network. What Choosy's
    /// `registerAppTypes:` was.
    ///
    /// - Returns: the types that could not be refreshed, with the reason; a type the server
    ///   does not have is not a failure (the bundled and the user's data stand).
    @discardableResult
    public func registerAppTypes(_ types: [String]) -> [String: String] {
        var failed: [String: String] = [:]
        for type in types {
            do {
                for report in try UpdateCommand.update([type], in: self) {
                    if case .failed(let reason) = report.outcome { failed[type] = reason }
                }
            } catch {
                failed[type] = error.message
            }
        }
        return failed
    }
}

/// What `Choosy.handle(_:)` did.
public struct ChoosyOutcome: Sendable, Equatable {
    /// The app type's key (`"twitter"`).
    public var appType: String
    /// The key of the app that was launched (`"x_web"`); for a web app, the browser that
    /// opened it is `browser`.
    public var app: String
    /// The URL the app was handed; nil for an app started with no action.
    public var url: String?
    /// The command line that ran.
    public var commandLine: [String]
    /// The browser app that opened a web app, if one did.
    public var browser: String?

    init(_ result: OpenResult) {
        appType = result.type
        app = result.app
        url = result.url
        commandLine = result.argv
        browser = result.via?.app
    }
}
