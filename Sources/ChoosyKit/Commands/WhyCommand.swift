/// `choosy why URL | TYPE [ACTION] [KEY=VALUE…]`: the decision `handle` or `open` would make,
/// explained (SPEC §7.1), read from the same plan they do; launches and writes nothing.
struct WhyCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "why", "the decision, explained",
        arguments: [.one("URL|TYPE", .appType), .optional("ACTION", .action), .any("KEY=VALUE", .parameter)],
        options: CommandGrammar.cleaning, shared: CommandGrammar.openOptions,
        misuse: "why needs a link or an app type, e.g. 'choosy why https://example.org/' or 'choosy why Browser browse'",
        help: """
            Explains the decision that 'handle URL' (a link; or a local file, a word with a
            / or a ., or a file: URL) or 'open TYPE [ACTION] [KEY=VALUE…]' would make with the
            same options, and launches and writes nothing: the type and action and how they
            were found (a file's MIME type too), the link's source, what decided
            (--app, a site rule, the default, the only app, the picker), the candidates in
            order with why each is one, every other app of the type with why it is not one
            (not installed, with the desktop IDs looked for; Hidden, TryExec, an invalid
            Exec, a removed association, a shadowed copy of the ID, no support for the
            action), the URL and the command line, and what opening would remember.
            """
    )

    /// `why` runs as `--dry-run`: nothing is written, moved aside or downloaded.
    static func options(_ line: ParsedCommandLine) -> OptionValues {
        var options = line.options
        options.open.dryRun = true
        return options
    }

    let request: OpenRequest
    /// The local file the first word names, as given.
    private var file: String?
    let json: Bool
    let clean: Bool?
    let unshorten: Bool?

    /// The first word is a local file when it is a `file:` URL or holds a `/` or a `.` (no app
    /// type's key or name does), else a link when it has a scheme (`https:`, `mailto:`), else
    /// an app type.
    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        let words = line.arguments
        var options = line.options.open
        options.dryRun = true
        let scheme = URLParts(words[0])?.scheme.lowercased()
        if scheme == "file" || (scheme == nil && words[0].contains(where: { $0 == "/" || $0 == "." })) {
            guard words.count == 1 else { throw .usage("why takes one file, one link, or an app type with an action and parameters") }
            // Made a file once the working directory is known (`run`).
            request = OpenRequest.handling(words[0], options: options)
            file = words[0]
        } else if scheme != nil {
            guard words.count == 1 else { throw .usage("why takes one link, or an app type with an action and parameters") }
            request = OpenRequest.handling(words[0], options: options)
        } else {
            var rest = Array(words.dropFirst())
            var action: String?
            // The word after TYPE is the action unless it is a parameter.
            if let next = rest.first, !next.contains("=") {
                action = next
                rest.removeFirst()
            }
            request = OpenRequest(type: words[0], action: action, parameters: try OpenCommand.parameters(rest), options: options)
        }
        (json, clean, unshorten) = (line.options.json, line.options.clean, line.options.unshorten)
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        // What a background refresh could not do, which -v has said already; why forgets nothing.
        if !context.options.verbose, let failures = choosy.refreshFailures().summary() { choosy.diagnostics.warning(failures) }
        var request = request
        if let file, let local = try choosy.localFile(file) {
            // A file: no cleaning, no site rule (SPEC §9.6).
            request = OpenRequest.handling(local, options: request.options)
        } else if let link = request.handledLink {
            request.handledLink = choosy.linkToOpen(link, clean: clean, unshorten: unshorten)
        } else {
            request.parameters = request.parameters.map { ($0.0, choosy.linkToOpen($0.1, clean: clean, unshorten: unshorten)) }
        }
        let plan = try choosy.planner().plan(request, explaining: true)
        return CommandOutput(json ? Self.json(plan).rendered() + "\n" : Self.text(plan, style: context.style))
    }

    // MARK: Text

    static func text(_ plan: OpenPlan, style: TerminalStyle) -> String {
        var lines = [
            "type: \(singleLine(plan.type.name)) (\(singleLine(plan.type.key)))"
                + (plan.action.map { ", action \(singleLine($0.key))" } ?? ""),
            "found: " + found(plan.found),
        ]
        if let source = plan.source { lines.append("source: \(singleLine(source.id)) (\(singleLine(source.how)))") }
        if let step = plan.rule {
            lines.append("rule: \(singleLine(step.rule.name)) (\(singleLine(step.rule.targetDescription))): \(singleLine(step.outcome))")
        }
        if let choice = plan.choice { lines += text(choice, style: style) }
        if !plan.typeOthers.isEmpty { lines.append("not candidates of \(singleLine(plan.type.name)):") }
        lines += plan.typeOthers.map { text($0, style: style) }
        if let browser = plan.browser {
            lines.append(style.bold("through the browser: ") + singleLine(browser.why))
            lines += text(browser.choice, style: style).map { "  " + $0 }
        }
        if let decision = plan.decision {
            lines.append("decided by: \(decision.by.rawValue): \(singleLine(decision.reason))")
        } else if let pending = plan.pendingChoice, case .ask(let reason) = pending.step.outcome {
            lines.append("decided by: picker: \(singleLine(reason))")
            // What the picker would show beside its title (SPEC §6.1).
            if let link = pending.step.link { lines.append("the picker shows: \(singleLine(link))") }
        } else if plan.opensNothing {
            lines.append("decided by: rule: nothing opens; 'choosy again' opens the link")
        }
        if let app = plan.launched { lines.append("app: \(singleLine(app.key))") }
        if let handOver = plan.handOver { lines.append("before the hand-over: \(singleLine(handOver.reason))") }
        if let url = plan.url { lines.append("url: \(singleLine(url))") }
        if !plan.argv.isEmpty { lines.append("argv: " + singleLine(shellQuoted(plan.argv))) }
        for write in plan.writes { lines.append(style.dim("would write: " + singleLine(describe(write)))) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func text(_ step: ChoiceStep, style: TerminalStyle) -> [String] {
        var lines = ["candidates of \(singleLine(step.type.name)):"]
        let chosen = step.chosen?.key
        for (index, candidate) in step.candidates.enumerated() {
            let mark = candidate.choice.key == chosen ? " " + style.bold("(chosen)") : ""
            lines.append(
                "  \(index + 1). \(singleLine(candidate.choice.key))  \(singleLine(candidate.choice.displayName))\(mark)"
                    + style.dim("  \(singleLine(candidate.why))"))
        }
        for browser in step.webPage {
            lines.append("  +  \(singleLine(browser.key))  \(singleLine(browser.displayName)) (web page)")
        }
        if !step.others.isEmpty { lines.append("not candidates:") }
        return lines + step.others.map { text($0, style: style) }
    }

    private static func text(_ other: NotCandidate, style: TerminalStyle) -> String {
        "  \(singleLine(other.key))  \(singleLine(other.name))" + style.dim("  \(singleLine(other.reason.text))")
    }

    private static func found(_ finding: OpenPlan.Finding) -> String {
        switch finding {
        case .named: "as named"
        case .catalogLink(let pattern): "the catalog link \(singleLine(pattern))"
        case .webLink: "a web link no catalog link matches: the browser's"
        case .schemeAction(let scheme): "a \(singleLine(scheme)): link"
        case .schemeHandlers(let scheme, let claim):
            switch claim {
            case .typeSchemes: "a \(singleLine(scheme)): link, a scheme of the type"
            case .appScheme: "a \(singleLine(scheme)): link, the scheme of catalog apps of the type"
            case .associations: "a \(singleLine(scheme)): link, to the entries associated with x-scheme-handler/\(singleLine(scheme))"
            }
        case .localFile(let mimeTypes, let reason, let claim):
            "a local file of MIME type \(singleLine(mimeTypes[0])) (\(singleLine(reason)))"
                + (mimeTypes.count > 1 ? ", a kind of \(singleLine(mimeTypes.dropFirst().joined(separator: ", ")))" : "") + ", "
                + {
                    switch claim {
                    case .appType(let key): "claimed by the app type \(singleLine(key))"
                    case .associations: "to the entries associated with these types"
                    }
                }()
        }
    }

    private static func describe(_ write: PlannedWrite) -> String {
        switch write {
        case .forgetDefault(let type): "forget the default of \(type)"
        case .choice(let type, let app, let always, let shown):
            (always ? "\(app) as the default of \(type); " : "") + "seen apps of \(type): \(shown.joined(separator: ", "))"
        case .browserForLinks(let type, let always, let shown):
            (always ? "\(type) links stay in the browser; " : "") + "seen apps of \(type): \(shown.joined(separator: ", "))"
        case .rule(let site, let choice, _): "a site rule: \(site) opens with \(choice)"
        case .desktopDefault(let mimeType, let id): "\(id) as the desktop's default for \(mimeType) (mimeapps.list)"
        case .useCount(let type, let choice): "one more pick of \(choice) among the apps of \(type), for order_by_use"
        }
    }

    // MARK: JSON

    /// `open --json`'s members, then the explanation.
    static func json(_ plan: OpenPlan) -> JSONValue {
        guard case .object(var members) = plan.result.json else { return plan.result.json }
        members.append(("found", found(plan.found)))
        if let step = plan.rule {
            members.append(
                (
                    "rule",
                    .object([
                        ("site", .string(step.rule.name)), ("target", .string(step.rule.targetDescription)),
                        ("outcome", .string(step.outcome)),
                    ])
                ))
        }
        if let decision = plan.decision {
            members += [("decided_by", .string(decision.by.rawValue)), ("reason", .string(decision.reason))]
        } else if let pending = plan.pendingChoice, case .ask(let reason) = pending.step.outcome {
            members += [("decided_by", .string(Decider.picker.rawValue)), ("reason", .string(reason))]
        }
        if let choice = plan.choice {
            members += json(choice)
        } else {
            members += [("candidates", .array([])), ("not_candidates", .array(plan.typeOthers.map(json)))]
        }
        if let browser = plan.browser {
            members.append(("browser", .object([("why", .string(browser.why))] + json(browser.choice))))
        }
        if let handOver = plan.handOver { members.append(("hand_over", json(handOver))) }
        members.append(("writes", .array(plan.writes.map { .string(describe($0)) })))
        return .object(members)
    }

    /// What is done before the browser is handed the link: `focus` (with the window), `new_window`
    /// (with its arguments) or `nothing`, and why.
    private static func json(_ handOver: HandOverStep) -> JSONValue {
        let action: [(String, JSONValue)] =
            switch handOver.action {
            case .focus(let window): [("action", .string("focus")), ("window", .string(window.id))]
            case .newWindow(let arguments): [("action", .string("new_window")), ("arguments", .strings(arguments))]
            case .nothing: [("action", .string("nothing"))]
            }
        return .object(action + [("reason", .string(handOver.reason))])
    }

    private static func found(_ finding: OpenPlan.Finding) -> JSONValue {
        switch finding {
        case .named: .object([("by", .string("named"))])
        case .catalogLink(let pattern): .object([("by", .string("catalog_link")), ("pattern", .string(pattern))])
        case .webLink: .object([("by", .string("web_link"))])
        case .schemeAction(let scheme): .object([("by", .string("scheme")), ("scheme", .string(scheme))])
        case .schemeHandlers(let scheme, let claim):
            .object([("by", .string("scheme_handlers")), ("scheme", .string(scheme)), ("claim", .string(claim.rawValue))])
        case .localFile(let mimeTypes, let reason, let claim):
            .object([
                ("by", .string("mime_type")), ("mime_type", .string(mimeTypes[0])), ("how", .string(reason)),
                ("parents", .strings(Array(mimeTypes.dropFirst()))),
                (
                    "claim",
                    {
                        switch claim {
                        case .appType(let key): .string(key)
                        case .associations: .string("associations")
                        }
                    }()
                ),
            ])
        }
    }

    private static func json(_ step: ChoiceStep) -> [(String, JSONValue)] {
        [
            (
                "candidates",
                .array(
                    step.candidates.map { candidate in
                        .object([
                            ("key", .string(candidate.choice.key)), ("name", .string(candidate.choice.displayName)),
                            ("desktop_id", .optional(candidate.choice.entry?.id)), ("why", .string(candidate.why)),
                        ])
                    }
                        + step.webPage.map { browser in
                            .object([
                                ("key", .string(browser.key)), ("name", .string(browser.displayName + " (web page)")),
                                ("desktop_id", .optional(browser.entry?.id)), ("why", .string("the link as it is, in the browser")),
                            ])
                        })
            ),
            ("not_candidates", .array(step.others.map(json))),
            ("picker_link", .optional(step.outcome.asks ? step.link : nil)),
        ]
    }

    private static func json(_ other: NotCandidate) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("key", .string(other.key)), ("name", .string(other.name)), ("reason", .string(other.reason.code)),
            ("detail", .string(other.reason.text)),
        ]
        if case .notInstalled(let lookups) = other.reason {
            members.append(("desktop_ids", .strings(lookups.map(\.id))))
        }
        return .object(members)
    }
}
