/// Turns command results into the text or JSON the executable prints.
public struct OutputFormatter: Sendable {
    public let style: TerminalStyle
    public let json: Bool

    public init(style: TerminalStyle, json: Bool) {
        self.style = style
        self.json = json
    }

    // MARK: describe

    public func describe(_ type: AppType) -> String {
        if json { return describeJSON(type).rendered() + "\n" }
        var lines = ["\(style.bold(type.name)) (\(type.key))", "", style.bold("Actions:")]
        let keyWidth = (type.actions.map(\.key.count) + type.parameters.map(\.key.count)).max() ?? 0
        for action in type.actions {
            let apps = type.apps.filter { $0.urlFormat(for: action.key) != nil }.map(\.key)
            lines.append("  \(pad(action.key, keyWidth))  \(action.name)" + (apps.isEmpty ? "" : style.dim("  [\(apps.joined(separator: ", "))]")))
        }
        lines += ["", style.bold("Parameters:")]
        for parameter in type.parameters {
            let description = parameter.description.isEmpty ? "" : style.dim(" — \(parameter.description)")
            lines.append("  \(pad(parameter.key, keyWidth))  \(parameter.name)\(description)")
        }
        lines += ["", style.bold("Apps:")]
        let appWidth = type.apps.map(\.key.count).max() ?? 0
        for app in type.apps {
            let kind = app.isWebApp ? "web app, opens in the browser" : app.urlScheme
            lines.append("  \(pad(app.key, appWidth))  \(app.name) (\(kind))")
            let supported = app.actions.map(\.key)
            if !supported.isEmpty {
                lines.append("  \(pad("", appWidth))  " + style.dim("does: \(supported.joined(separator: ", "))"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public func describeJSON(_ type: AppType) -> JSONValue {
        .object([
            ("key", .string(type.key)),
            ("name", .string(type.name)),
            ("actions", .array(type.actions.map { action in
                .object([
                    ("key", .string(action.key)),
                    ("name", .string(action.name)),
                    ("apps", .strings(type.apps.filter { $0.urlFormat(for: action.key) != nil }.map(\.key))),
                ])
            })),
            ("parameters", .array(type.parameters.map { parameter in
                .object([
                    ("key", .string(parameter.key)),
                    ("name", .string(parameter.name)),
                    ("description", .string(parameter.description)),
                ])
            })),
            ("apps", .array(type.apps.map { app in
                .object([
                    ("key", .string(app.key)),
                    ("name", .string(app.name)),
                    ("app_url_scheme", .string(app.urlScheme)),
                    ("web", .bool(app.isWebApp)),
                    ("desktop_ids", .strings(app.desktopIDs)),
                    ("docs", .optional(app.docs)),
                    ("actions", .array(app.actions.map { action in
                        .object([("key", .string(action.key)), ("url_format", .string(action.urlFormat))])
                    })),
                ])
            })),
        ])
    }

    // MARK: update

    public func update(_ reports: [Choosy.UpdateReport]) -> String {
        reports.map { report in
            switch report.outcome {
            case .updated, .alreadyFresh: return "\(report.key): \(style.green("updated"))"
            case .notModified: return "\(report.key): up to date"
            case .notFound: return "\(report.key): \(style.red("not on the catalog server"))"
            case .failed(let reason): return "\(report.key): \(style.red("failed")) (\(singleLine(reason)))"
            }
        }.joined(separator: "\n") + (reports.isEmpty ? "" : "\n")
    }

    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
