/// Turns command results into the text or JSON the executable prints.
package struct OutputFormatter: Sendable {
    package let style: TerminalStyle
    package let json: Bool

    package init(style: TerminalStyle, json: Bool) {
        self.style = style
        self.json = json
    }

    // MARK: describe

    /// A type, with its links whose patterns could be read, and the desktop entries of its
    /// installed apps by app key, whose actions are shown.
    package func describe(_ type: AppType, links: [LinkExampleCheck.CheckedLink], entries: [String: DesktopEntry]) -> String {
        if json { return describeJSON(type, links: links, entries: entries).rendered() + "\n" }
        var lines = ["\(style.bold(shown(type.name))) (\(shown(type.key)))", "", style.bold("Actions:")]
        let keyWidth = (type.actions.map { shown($0.key).count } + type.parameters.map { shown($0.key).count }).max() ?? 0
        for action in type.actions {
            let apps = type.apps.filter { $0.urlFormat(for: action.key) != nil }.map { shown($0.key) }
            lines.append("  \(pad(shown(action.key), keyWidth))  \(shown(action.name))" + (apps.isEmpty ? "" : style.dim("  [\(apps.joined(separator: ", "))]")))
        }
        lines += ["", style.bold("Parameters:")]
        for parameter in type.parameters {
            let description = parameter.description.isEmpty ? "" : style.dim(" — \(shown(parameter.description))")
            lines.append("  \(pad(shown(parameter.key), keyWidth))  \(shown(parameter.name))\(description)")
        }
        lines += ["", style.bold("Apps:")]
        let appWidth = type.apps.map { shown($0.key).count }.max() ?? 0
        for app in type.apps {
            let kind = app.isWebApp ? "web app, opens in the browser" : shown(app.urlScheme)
            lines.append("  \(pad(shown(app.key), appWidth))  \(shown(app.name)) (\(kind))")
            let supported = app.actions.map { shown($0.key) }
            let indent = "  \(pad("", appWidth))  "
            if !supported.isEmpty {
                lines.append(indent + style.dim("does: \(supported.joined(separator: ", "))"))
            }
            if let profiles = app.profiles {
                lines.append(indent + style.dim("profiles: \(profiles.format.rawValue)-style, \(shown(shellQuoted(profiles.arguments)))"))
            }
            if let arguments = app.privateArguments {
                lines.append(indent + style.dim("private window: \(shown(shellQuoted(arguments)))"))
            }
            if let entry = entries[app.key], !entry.actions.isEmpty {
                let privateKey = entry.privateWindowAction?.key
                let actions = entry.actions.map { action in
                    shown(action.key) + (action.name.map { " (\(shown($0)))" } ?? "") + (action.key == privateKey ? " [private window]" : "")
                }
                lines.append(indent + style.dim("\(shown(entry.id)) actions: \(actions.joined(separator: ", "))"))
            }
        }
        if !links.isEmpty {
            lines += ["", style.bold("Links:")]
            let actionWidth = links.map { shown($0.link.action).count }.max() ?? 0
            for checked in links {
                let link = checked.link
                let only = link.apps.map { style.dim("  [only \($0.map(shown).joined(separator: ", "))]") } ?? ""
                lines.append("  \(pad(shown(link.action), actionWidth))  \(shown(link.pattern))\(only)")
                for verdict in checked.verdicts {
                    let failure = verdict.failure.map { " (fails: \(shown($0)))" } ?? ""
                    lines.append("      " + style.dim("e.g. \(shown(verdict.example.link)) → \(shown(verdict.example.outcome))") + failure)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package func describeJSON(_ type: AppType, links: [LinkExampleCheck.CheckedLink], entries: [String: DesktopEntry]) -> JSONValue {
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
                    ("profiles", app.profiles.map { profiles in
                        .object([("format", .string(profiles.format.rawValue)), ("args", .strings(profiles.arguments))])
                    } ?? .null),
                    ("private", app.privateArguments.map(JSONValue.strings) ?? .null),
                    ("desktop_actions", .array(desktopActions(of: entries[app.key]))),
                ])
            })),
            ("links", .array(links.map(\.json))),
        ])
    }

    /// The actions of an app's installed desktop entry (none when it is not installed).
    private func desktopActions(of entry: DesktopEntry?) -> [JSONValue] {
        guard let entry else { return [] }
        let privateKey = entry.privateWindowAction?.key
        return entry.actions.map { action in
            .object([("key", .string(action.key)), ("name", .optional(action.name)), ("private", .bool(action.key == privateKey))])
        }
    }

    // MARK: list

    package func list(_ listings: [TypeListing], single: Bool) -> String {
        if json { return JSONValue.array(listings.map(\.json)).rendered() + "\n" }
        if !single {
            let width = listings.map { shown($0.type.key).count }.max() ?? 0
            return listings.map { listing in
                let installed = listing.apps.filter { $0.installed != nil }.count
                let defaultApp = listing.defaultKey.map { style.dim(", default \(shown($0))") } ?? ""
                return "\(pad(shown(listing.type.key), width))  \(shown(listing.type.name)) " + style.dim("(\(installed) of \(listing.apps.count) installed") + defaultApp + style.dim(")")
            }.joined(separator: "\n") + "\n"
        }
        var lines: [String] = []
        for listing in listings {
            lines.append("\(style.bold(shown(listing.type.name))) (\(shown(listing.type.key)))")
            let choices = listing.apps.flatMap(\.profileChoices)
            let keyWidth = (listing.apps.map { shown($0.app.key).count } + choices.map { shown($0.key).count }).max() ?? 0
            let nameWidth = (listing.apps.map { shown($0.installed?.displayName ?? $0.app.name).count } + choices.map { shown($0.displayName).count }).max() ?? 0
            for entry in listing.apps {
                let isDefault = listing.defaultKey == entry.app.key
                let marker = isDefault ? style.green("*") : " "
                let name = pad(shown(entry.installed?.displayName ?? entry.app.name), nameWidth)
                let status: String
                if let installed = entry.installed {
                    status = installed.entry.map { "installed: \(shown($0.id))" } ?? "web app, opens in the browser"
                } else {
                    status = style.dim(entry.app.isWebApp ? "web app, needs a browser" : "not installed")
                }
                lines.append("\(marker) \(pad(shown(entry.app.key), keyWidth))  \(name)  \(status)\(isDefault ? style.green("  (default)") : "")")
                // Each profile is a choice of its own, listed under its app.
                for choice in entry.profileChoices {
                    let isDefault = listing.defaultKey == choice.key
                    let marker = isDefault ? style.green("*") : " "
                    lines.append("\(marker) \(pad(shown(choice.key), keyWidth))  \(pad(shown(choice.displayName), nameWidth))  " + style.dim("profile") + (isDefault ? style.green("  (default)") : ""))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: open, url

    /// `--json` object, `--dry-run` argv line, or nothing.
    package func opened(_ result: OpenResult, dryRun: Bool) -> String {
        if json { return result.json.rendered() + "\n" }
        return dryRun ? shellQuoted(result.argv) + "\n" : ""
    }

    package func url(_ result: OpenResult) -> String {
        json ? result.json.rendered() + "\n" : (result.url ?? "") + "\n"
    }

    // MARK: rule

    /// `rule list`: one rule a line, `SITE  APP`; `--json`: the rules as rules.json holds them.
    package func rules(_ rules: [SiteRule]) -> String {
        if json { return JSONValue.array(rules.map(\.json)).rendered() + "\n" }
        let width = rules.map { shown($0.site.text).count }.max() ?? 0
        return rules.map { "\(pad(shown($0.site.text), width))  \(shown($0.targetDescription))\n" }.joined()
    }

    /// `rule test`: which rule, what it does, and the app and argv it would run.
    package func ruleTest(_ test: Choosy.RuleTest) -> String {
        var lines = ["rule: " + (test.rule.map { "\(shown($0.site.text)) (\(shown($0.targetDescription)))" } ?? "none")]
        if let result = test.result {
            lines.append("app: \(shown(result.via?.app ?? result.app))" + (result.via == nil ? "" : style.dim(" (for \(shown(result.app)))")))
            lines.append("argv: " + shellQuoted(result.argv))
        } else {
            lines.append(style.dim(test.outcome))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: update

    package func update(_ reports: [Choosy.UpdateReport]) -> String {
        reports.map { report in
            switch report.outcome {
            case .updated, .alreadyFresh: return "\(report.key): \(style.green("updated"))"
            case .notModified: return "\(report.key): up to date"
            case .notFound: return "\(report.key): not on the server (the other sources stand)"
            case .failed(let reason): return "\(report.key): \(style.red("failed")) (\(singleLine(reason)))"
            }
        }.joined(separator: "\n") + (reports.isEmpty ? "" : "\n")
    }

    /// Text from a catalog or a desktop entry, made safe for a terminal: its control characters
    /// (escape sequences, newlines) are shown as escapes instead of acting.
    private func shown(_ text: String) -> String {
        singleLine(text)
    }

    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
