/// `choosy clean URL [--explain] [--json]`: the link without its trackers, by the ClearURLs
/// rules and choosy's own (doc/links-and-rules.md, "Clean links").
struct CleanCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "clean", "print a link without its trackers",
        arguments: [.one("URL", .url)],
        options: [
            .flag("--explain", "name each rule that changed the link") { $0.explain = true }, CommandGrammar.json, CommandGrammar.unshorten,
        ],
        misuse: "clean needs one URL",
        help: """
            Prints URL with its tracking parameters removed and redirect wrappers
            (google.com/url?q=…, l.facebook.com, Outlook Safe Links) unwrapped, by the
            ClearURLs rules, then choosy's own and yours (~/.config/choosy/clean/*.json).
            With --unshorten, a link of a shortener (t.co, bit.ly, …) is first followed
            to where it leads, by HEAD requests to the shortener (never offline; the
            unshorten setting of the config is for the commands that open links). Opens
            nothing. -v names the rules files in use.
            """
    )

    let link: String
    let explain: Bool
    let json: Bool
    let unshorten: Bool

    init(_ line: ParsedCommandLine) {
        link = line.arguments[0]
        explain = line.options.explain
        json = line.options.json
        unshorten = line.options.unshorten == true
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        guard (try? WebURL(parsing: link)) != nil else {
            throw .usage("'\(singleLine(link))' is not an http(s) link with a host a browser reads")
        }
        // Only when asked here: `clean` opens nothing, as a dry run.
        let unshortened = (unshorten ? choosy.linkUnshortener(asked: true) : nil)?.unshorten(link) ?? UnshortenedLink(link: link)
        for line in unshortened.explanations where !explain { choosy.diagnostics.explain(line) }
        let cleaned = choosy.linkCleaner().clean(unshortened.link)
        if cleaned.blockedBy != nil, let line = cleaned.explanations.first { choosy.diagnostics.explain(line) }
        if json { return CommandOutput(Self.json(cleaned, unshortened).rendered() + "\n") }
        // The link is shown too: one given with a raw escape sequence prints it escaped.
        var lines = [singleLine(cleaned.link)]
        if explain {
            lines = cleaned.summaries.map { "\($0.provider): \($0.summary)" } + lines
            if let blocker = cleaned.blockedBy { lines.insert("\(singleLine(blocker)): blocks the site; left as it is", at: 0) }
            lines = unshortened.explanations.map(singleLine) + lines
        }
        return CommandOutput(lines.joined(separator: "\n") + "\n")
    }

    private static func json(_ cleaned: CleanedLink, _ unshortened: UnshortenedLink) -> JSONValue {
        .object([
            ("url", .string(cleaned.link)),
            (
                "hops",
                .array(
                    unshortened.hops.map {
                        .object([("url", .string($0.url)), ("status", .number(String($0.status))), ("location", .string($0.location))])
                    })
            ),
            ("unshortening_failed", .optional(unshortened.failure)),
            ("blocked_by", .optional(cleaned.blockedBy)),
            (
                "steps",
                .array(
                    cleaned.steps.map { step in
                        let (kind, rule): (String, String?) =
                            switch step.kind {
                            case .redirection: ("redirection", nil)
                            case .rawRule(let rule): ("raw_rule", rule)
                            case .rule(let rule): ("rule", rule)
                            case .referralMarketing(let rule): ("referral_marketing", rule)
                            }
                        return .object([
                            ("provider", .string(step.provider)), ("kind", .string(kind)), ("rule", .optional(rule)),
                            ("removed", .array(step.removed.map { .string($0) })), ("url", .string(step.after)),
                        ])
                    })
            ),
        ])
    }
}
