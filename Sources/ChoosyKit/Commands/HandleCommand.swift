/// `choosy handle URL|FILE`: a plain link opened through the app type it stands for, or a
/// local file by the apps of its MIME type (doc/links-and-rules.md, "choosy handle").
struct HandleCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "handle", "open a plain link through its app type, or a local file", arguments: [.optional("URL|FILE", .url)],
        options: CommandGrammar.cleaning, shared: CommandGrammar.openOptions, misuse: "handle takes one URL or file",
        help:
            "Opens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route. For an http(s) link, its site rule (choosy help rule) decides first. With --unshorten (or unshorten in the config), a shortened link (t.co, bit.ly, …) is first followed to where it leads; with --clean (or clean_links in the config), the link is cleaned of its trackers (choosy help clean). A path (or a file: URL) is a local file: it opens with the apps of its MIME type, or of the app type that claims it (an HTML page in the browser, each profile a choice); picking one always for a type no app type claims makes it the desktop's default for that type. Put a path that starts with - after --. With no URL (the desktop starting its browser with no link), the browser starts as it would: the Browser type's default, else its picker. Every link is kept in the history (choosy help history)."
    )

    /// nil: no link, as the desktop starts its browser.
    let link: String?

    init(_ line: ParsedCommandLine) { link = line.arguments.first }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        guard let link else { return try Self.startBrowser(options: context.options.open, json: context.options.json, in: choosy) }
        return try Self.handle(
            link, options: context.options.open, clean: context.options.clean, unshorten: context.options.unshorten,
            json: context.options.json, in: choosy)
    }

    /// `handle` of a link or file, and `again`'s (`source`: the one the history kept): opened,
    /// and kept in the history whatever became of it (SPEC §6.1).
    static func handle(
        _ given: String, options: OpenOptions, clean: Bool?, unshorten: Bool?, json: Bool, source: String? = nil, in choosy: Choosy
    ) throws(ChoosyError) -> CommandOutput {
        let file = try choosy.localFile(given)
        // The cleaned link is the one the rules, the catalog links and the app see; a local file
        // is no link to clean (SPEC §9.6), and its app gets its URL.
        let link = file?.url ?? choosy.linkToOpen(given, clean: clean, unshorten: unshorten)
        // A clicked link has no terminal: what was said about corrupt files is shown on the
        // desktop too, as the fallback's own notice is.
        defer {
            let said = choosy.corruptFiles.messages
            if !options.dryRun && !said.isEmpty { choosy.desktopNotifier().notify(said.joined(separator: "\n")) }
        }
        if LinkHandoff.isHandedBack(link, in: choosy.environment) {
            // The app choosy handed this link to gave it back (doc/security.md, "Odd files and loops").
            let message =
                "\(link) was handed back to choosy by the app it was handed to (through xdg-open or another wrapper): not opening it again, which would loop; choose another handler"
            if !options.dryRun { choosy.desktopNotifier().notify(message) }
            throw .unavailable(message)
        }
        var request: OpenRequest
        if let file {
            request = OpenRequest.handling(file, options: options)
        } else {
            if let url = LinkClassifier.routed(link) {
                return RouteCommand.output(
                    of: try RouteCommand.routeKept(url, options: options, source: source, in: choosy), dryRun: options.dryRun)
            }
            request = OpenRequest.handling(link, options: options)
        }
        // `-v` and `--json` say where the link came from (doc/links-and-rules.md).
        request.reportsSource = json || choosy.diagnostics.isVerbose
        let result: OpenResult
        do {
            result = try choosy.actionOpener().open(request)
        } catch {
            HistoryCommand.keep(link, command: .handle, .failure(error), options: options, source: source, in: choosy)
            throw error
        }
        HistoryCommand.keep(link, command: .handle, .success(result), options: options, source: source, in: choosy)
        var output = CommandOutput(OpenCommand.printed(result, json: json, dryRun: options.dryRun))
        if let rule = result.nothingByRule {
            // SPEC §9.2: one line, and on the desktop a notification, naming the way back.
            let said = "the site rule '\(rule)' opens nothing for \(LinkForDisplay.text(link)); 'choosy again' opens it"
            if !options.dryRun { choosy.desktopNotifier().notify(said) }
            output.standardError = "choosy: \(singleLine(said))\n"
            if options.dryRun && !json { output.standardOutput = "" }
        }
        return output
    }

    /// `handle` with no link (SPEC §6.1): the browser starts as it would with none; its picker
    /// when it has no default, else the handler `install` replaced when no picker can be shown.
    private static func startBrowser(options: OpenOptions, json: Bool, in choosy: Choosy) throws(ChoosyError) -> CommandOutput {
        let result = try choosy.actionOpener().open(OpenRequest(type: "browser", action: nil, parameters: [], options: options))
        return CommandOutput(OpenCommand.printed(result, json: json, dryRun: options.dryRun))
    }
}
