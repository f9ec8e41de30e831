/// `choosy handle URL|FILE`: a plain link opened through the app type it stands for, or a
/// local file by the apps of its MIME type (doc/links-and-rules.md, "choosy handle").
struct HandleCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.opening(
        "handle", "open a plain link through its app type, or a local file", argument: "URL|FILE", wanted: "URL or file",
        options: CommandGrammar.cleaning,
        help:
            "Opens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route. For an http(s) link, its site rule (choosy help rule) decides first. With --unshorten (or unshorten in the config), a shortened link (t.co, bit.ly, …) is first followed to where it leads; with --clean (or clean_links in the config), the link is cleaned of its trackers (choosy help clean). A path (or a file: URL) is a local file: it opens with the apps of its MIME type, or of the app type that claims it (an HTML page in the browser, each profile a choice); picking one always for a type no app type claims makes it the desktop's default for that type. Put a path that starts with - after --."
    )

    let link: String

    init(_ line: ParsedCommandLine) { link = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let options = context.options.open
        let file = try choosy.localFile(link)
        // The cleaned link is the one the rules, the catalog links and the app see; a local file
        // is no link to clean (SPEC §9.6), and its app gets its URL.
        let link = file?.url ?? choosy.linkToOpen(link, clean: context.options.clean, unshorten: context.options.unshorten)
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
                return RouteCommand.output(of: try RouteCommand.route(url, options: options, in: choosy), dryRun: options.dryRun)
            }
            request = OpenRequest.handling(link, options: options)
        }
        // `-v` and `--json` say where the link came from (doc/links-and-rules.md).
        request.reportsSource = context.options.json || choosy.diagnostics.isVerbose
        let result = try choosy.actionOpener().open(request)
        return CommandOutput(OpenCommand.printed(result, json: context.options.json, dryRun: options.dryRun))
    }
}
