/// `choosy handle URL`: a plain link opened through the app type it stands for
/// (doc/links-and-rules.md, "choosy handle").
struct HandleCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command.opening(
        "handle", "open a plain link through its app type",
        options: CommandGrammar.cleaning,
        help:
            "Opens a plain link through its app type: http(s) in the browser, mailto: in the email app, geo: in maps, twitter.com/x.com links in the Twitter app, choosy: links through route. For an http(s) link, its site rule (choosy help rule) decides first. With --unshorten (or unshorten in the config), a shortened link (t.co, bit.ly, …) is first followed to where it leads; with --clean (or clean_links in the config), the link is cleaned of its trackers (choosy help clean)."
    )

    let link: String

    init(_ line: ParsedCommandLine) { link = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let options = context.options.open
        // The cleaned link is the one the rules, the catalog links and the app see.
        let link = choosy.linkToOpen(link, clean: context.options.clean, unshorten: context.options.unshorten)
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
        if let url = LinkClassifier.routed(link) {
            return RouteCommand.output(of: try RouteCommand.route(url, options: options, in: choosy), dryRun: options.dryRun)
        }
        var request = OpenRequest.handling(link, options: options)
        // `-v` and `--json` say where the link came from (doc/links-and-rules.md).
        request.reportsSource = context.options.json || choosy.diagnostics.isVerbose
        let result = try choosy.actionOpener().open(request)
        return CommandOutput(OpenCommand.printed(result, json: context.options.json, dryRun: options.dryRun))
    }
}
