/// Merges the records of one app type from several sources, in order: a later source wins
/// field by field, and parameters, actions, apps and app actions are matched by key, so
/// entries only one source has are kept (doc/configuration.md, "The catalog").
package enum CatalogMerger {
    package static func merge(_ records: [AppTypeRecord]) -> AppType? {
        guard let key = records.first?.key else { return nil }
        var name: String?
        var schemes: [String]?
        var mimeTypes: [String]?
        var parameters = OrderedMerge<ParameterRecord>()
        var actions = OrderedMerge<ActionRecord>()
        var apps = OrderedMerge<AppRecord>()
        for record in records {
            name = record.name ?? name
            schemes = record.schemes ?? schemes
            mimeTypes = record.mimeTypes ?? mimeTypes
            record.parameters?.forEach { parameters.add($0.key, $0, merging: merge) }
            record.actions?.forEach { actions.add($0.key, $0, merging: merge) }
            record.apps?.forEach { apps.add($0.key, $0, merging: merge) }
        }
        return AppType(
            key: key,
            name: name ?? key,
            parameters: parameters.values.map {
                Parameter(key: $0.key, name: $0.name ?? $0.key, description: $0.description ?? "")
            },
            actions: actions.values.map { Action(key: $0.key, name: $0.name ?? $0.key, urlFormat: $0.urlFormat) },
            apps: apps.values.map { app in
                var appActions = OrderedMerge<AppActionRecord>()
                app.actions?.forEach { appActions.add($0.key, $0, merging: merge) }
                return App(
                    key: app.key,
                    name: app.name ?? app.key,
                    urlScheme: app.appURLScheme ?? "",
                    desktopIDs: app.desktopIDs ?? [],
                    docs: app.docs,
                    actions: appActions.values.compactMap { action in
                        action.urlFormat.map { AppAction(key: action.key, urlFormat: $0) }
                    },
                    profiles: app.profiles,
                    privateArguments: app.privateArguments,
                    newWindowArguments: app.newWindowArguments
                )
            },
            schemes: schemes ?? [],
            mimeTypes: mimeTypes ?? []
        )
    }

    /// The links of one app type from several sources, in order: a later source's link with
    /// the same pattern replaces the earlier one, and new patterns are added.
    package static func links(_ records: [AppTypeRecord]) -> [CatalogLink] {
        var links = OrderedMerge<CatalogLink>()
        for record in records {
            record.links?.forEach { links.add($0.pattern, $0) { _, new in new } }
        }
        return links.values
    }

    private static func merge(_ old: ParameterRecord, _ new: ParameterRecord) -> ParameterRecord {
        ParameterRecord(key: old.key, name: new.name ?? old.name, description: new.description ?? old.description)
    }

    private static func merge(_ old: ActionRecord, _ new: ActionRecord) -> ActionRecord {
        ActionRecord(key: old.key, name: new.name ?? old.name, urlFormat: new.urlFormat ?? old.urlFormat)
    }

    private static func merge(_ old: AppActionRecord, _ new: AppActionRecord) -> AppActionRecord {
        AppActionRecord(key: old.key, urlFormat: new.urlFormat ?? old.urlFormat)
    }

    private static func merge(_ old: AppRecord, _ new: AppRecord) -> AppRecord {
        // Duplicates are resolved, later winning, when the merged app is built.
        let actions = new.actions.map { (old.actions ?? []) + $0 } ?? old.actions
        return AppRecord(
            key: old.key,
            name: new.name ?? old.name,
            appURLScheme: new.appURLScheme ?? old.appURLScheme,
            desktopIDs: new.desktopIDs ?? old.desktopIDs,
            docs: new.docs ?? old.docs,
            actions: actions,
            profiles: new.profiles ?? old.profiles,
            privateArguments: new.privateArguments ?? old.privateArguments,
            newWindowArguments: new.newWindowArguments ?? old.newWindowArguments
        )
    }
}

/// Values by key in first-seen order; a value added again is merged into the earlier one.
private struct OrderedMerge<Value> {
    private(set) var values: [Value] = []
    private var index: [String: Int] = [:]

    mutating func add(_ key: String, _ value: Value, merging: (Value, Value) -> Value) {
        if let position = index[key] {
            values[position] = merging(values[position], value)
        } else {
            index[key] = values.count
            values.append(value)
        }
    }
}
