/// `choosy open TYPE [ACTION] [KEY=VALUE…]`: the action in the user's favourite app of the type.
struct OpenCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "open", "open the favourite app of TYPE",
        arguments: [.one("TYPE", .appType), .optional("ACTION", .action), .any("KEY=VALUE", .parameter)], options: CommandGrammar.cleaning,
        shared: CommandGrammar.openOptions, misuse: "open needs an app type, e.g. 'choosy open Browser browse url=https://example.org'",
        help: """
            Opens ACTION of the app type TYPE (a key or name, any case) in the user's
            favourite app, passing each app only the parameters it supports. Without ACTION
            the app is opened as it is. The first time (or when a new app of the type
            appears, or the favourite is removed) a picker asks which app to use, just once or
            always. With --clean (or clean_links in the config), each parameter that is a
            web link is cleaned of its trackers first; with --unshorten (or unshorten), a
            shortened one is first followed to where it leads.
            """
    )

    let request: OpenRequest
    let json: Bool
    /// `--clean` or `--no-clean`, if given.
    let clean: Bool?
    /// `--unshorten` or `--no-unshorten`, if given.
    let unshorten: Bool?

    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        var rest = Array(line.arguments.dropFirst())
        var action: String?
        // The word after TYPE is the action unless it is a parameter.
        if let next = rest.first, !next.contains("=") {
            action = next
            rest.removeFirst()
        }
        request = OpenRequest(type: line.arguments[0], action: action, parameters: try Self.parameters(rest), options: line.options.open)
        json = line.options.json
        clean = line.options.clean
        unshorten = line.options.unshorten
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        var request = request
        request.parameters = request.parameters.map { ($0.0, choosy.linkToOpen($0.1, clean: clean, unshorten: unshorten)) }
        // `-v` and `--json` say where the link came from (doc/links-and-rules.md).
        request.reportsSource = json || choosy.diagnostics.isVerbose
        let result = try choosy.actionOpener().open(request)
        return CommandOutput(Self.printed(result, json: json, dryRun: request.options.dryRun))
    }

    /// What an open prints (`handle` too): the `--json` object, the `--dry-run` argv line, or
    /// nothing.
    static func printed(_ result: OpenResult, json: Bool, dryRun: Bool) -> String {
        if json { return result.json.rendered() + "\n" }
        return dryRun ? shellQuoted(result.argv) + "\n" : ""
    }

    /// `KEY=VALUE` words, split at the first `=`; a word without `=` or with an empty key is a
    /// usage error.
    static func parameters(_ words: [String]) throws(ChoosyError) -> [(String, String)] {
        try words.map { word throws(ChoosyError) in
            guard let equals = word.firstIndex(of: "=") else {
                throw .usage("'\(word)' is not a parameter: write KEY=VALUE")
            }
            let key = String(word[..<equals])
            guard !key.isEmpty else { throw .usage("'\(word)' has an empty parameter key: write KEY=VALUE") }
            return (key, String(word[word.index(after: equals)...]))
        }
    }
}
