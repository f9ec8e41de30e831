/// `choosy url TYPE ACTION [KEY=VALUE…]`: the URL `open` would launch.
struct URLCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "url", "print the URL that open would use",
        arguments: [.one("TYPE", .appType), .one("ACTION", .action), .any("KEY=VALUE", .parameter)], shared: CommandGrammar.openOptions,
        misuse: "url needs an app type and an action, e.g. 'choosy url Twitter show_profile profile_screenname=x'",
        help: """
            Prints the URL that `open` would launch, and launches nothing. It decides the app
            the same way but remembers nothing.
            """
    )

    let request: OpenRequest
    let json: Bool

    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        let parameters = try OpenCommand.parameters(Array(line.arguments.dropFirst(2)))
        request = OpenRequest(
            type: line.arguments[0], action: line.arguments[1], parameters: parameters, options: line.options.open, purpose: .url)
        json = line.options.json
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let result = try context.choosy().actionOpener().open(request)
        return CommandOutput(json ? result.json.rendered() + "\n" : (result.url ?? "") + "\n")
    }
}
