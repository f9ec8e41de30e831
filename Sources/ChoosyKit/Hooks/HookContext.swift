/// The launch a prepare hook is asked about: which type, action and app, with which parameters.
public struct HookContext: Equatable, Sendable {
    public var typeKey: String
    /// The human-readable names are what hook file names are made of (`prepareForTwitterShowProfile`).
    public var typeName: String
    public var actionKey: String
    public var actionName: String
    public var appKey: String?
    public var parameters: [String: String]

    public init(typeKey: String, typeName: String, actionKey: String, actionName: String, appKey: String?, parameters: [String: String]) {
        self.typeKey = typeKey
        self.typeName = typeName
        self.actionKey = actionKey
        self.actionName = actionName
        self.appKey = appKey
        self.parameters = parameters
    }

    public init(type: AppType, action: Action, app: App?, parameters: [String: String]) {
        self.init(typeKey: type.key, typeName: type.name, actionKey: action.key, actionName: action.name,
                  appKey: app?.key, parameters: parameters)
    }
}

/// What the prepare step decided.
public enum PrepareResult: Equatable, Sendable {
    /// Launch with these parameters (the caller's, as the hooks replaced and added to them).
    case proceed([String: String])
    /// A hook said no (or failed): nothing is launched, exit 5 and x-cancel.
    case cancel(String)
}
