/// `choosy completions bash|zsh|fish`: the shell's completion script.
struct CompletionsCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "completions", "print a shell completion script",
        arguments: [.one(of: .choice(CompletionScript.shells))], misuse: "completions needs one of: bash, zsh, fish",
        help: """
            Prints a completion script for commands, options, app types, actions, KEY= and app
            keys. `make install` installs them; by hand:
              bash (~/.bashrc):                 source <(choosy completions bash)
              zsh (~/.zshrc, after compinit):   source <(choosy completions zsh)
              fish (config.fish):               choosy completions fish | source
            """
    )

    let shell: String

    init(_ line: ParsedCommandLine) { shell = line.arguments[0] }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        guard let script = CompletionScript.text(for: shell) else { throw .usage(Self.grammar.misuse) }
        return CommandOutput(script)
    }
}
