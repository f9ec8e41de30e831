/// The launch a prepare hook is asked about: which type, action and app, with which parameters.
package struct HookContext: Equatable, Sendable {
    package var typeKey: String
    /// The human-readable names are what hook file names are made of (`prepareForTwitterShowProfile`).
    package var typeName: String
    package var actionKey: String
    package var actionName: String
    package var appKey: String?
    package var parameters: [String: String]

    package init(typeKey: String, typeName: String, actionKey: String, actionName: String, appKey: String?, parameters: [String: String]) {
        self.typeKey = typeKey
        self.typeName = typeName
        self.actionKey = actionKey
        self.actionName = actionName
        self.appKey = appKey
        self.parameters = parameters
    }

    package init(type: AppType, action: Action, app: App?, parameters: [String: String]) {
        self.init(
            typeKey: type.key, typeName: type.name, actionKey: action.key, actionName: action.name,
            appKey: app?.key, parameters: parameters)
    }
}

/// What the prepare step decided.
package enum PrepareResult: Equatable, Sendable {
    /// Launch with these parameters (the caller's, as the hooks replaced and added to them).
    case proceed([String: String])
    /// A hook said no (or failed): nothing is launched, exit 5 and x-cancel.
    case cancel(String)
}
