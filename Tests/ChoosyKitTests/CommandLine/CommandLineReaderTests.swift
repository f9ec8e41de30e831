import ChoosyKit
import ChoosyTestSupport
import Testing

/// argv → command, arguments and option values, in process.
@Suite struct CommandLineReaderTests {
    private func read(_ words: String...) throws -> ParsedCommandLine {
        try CommandLineReader(grammar: CommandTable.grammar).read(words)
    }

    /// The message of the usage error `words` earn, nil when they parse.
    private func refusal(_ words: [String]) -> String? {
        do {
            _ = try CommandLineReader(grammar: CommandTable.grammar).read(words)
            return nil
        } catch {
            #expect(error.status == .usage, "\(words)")
            return error.message
        }
    }

    /// Each option a command declares, in each way it can be written, sets what the table
    /// says it sets.
    @Test(arguments: CommandTable.grammar.commands.map(\.name))
    func everyDeclaredOptionIsTaken(command: String) throws {
        let command = try #require(CommandTable.grammar.command(named: command))
        // After `--help` the arguments are not checked.
        let helpOnly = try CommandLineReader(grammar: CommandTable.grammar).read([command.name, "--help"])
        for option in command.options {
            var spellings = option.takesValue ? [[option.name, "--value"], [option.name + "=--value"]] : [[option.name]]
            if let short = option.short {
                spellings.append(option.takesValue ? [short, "--value"] : [short])
            }
            var expected = helpOnly.options
            option.set(option.takesValue ? "--value" : nil, in: &expected)
            for spelling in spellings {
                let line = try CommandLineReader(grammar: CommandTable.grammar).read([command.name, "--help"] + spelling)
                #expect(line.command?.name == command.name)
                #expect(line.arguments == [], "\(spelling)")
                #expect(line.options == expected, "\(spelling)")
            }
        }
    }

    /// Each option sets something, and no two set the same.
    @Test func everyOptionSetsAValueOfItsOwn() {
        let options =
            CommandTable.grammar.options
            + CommandGrammar.insteadOfCommand.filter { option in
                !CommandTable.grammar.options.contains { $0.name == option.name }
            }
        let values = options.map { option in
            var values = OptionValues()
            option.set("value", in: &values)
            return values
        }
        for (index, value) in values.enumerated() {
            #expect(value != OptionValues(), "\(options[index].name)")
            #expect(values.filter { $0 == value }.count == 1, "\(options[index].name)")
        }
    }

    /// Every option the table knows that a command does not declare is refused by it.
    @Test(arguments: CommandTable.grammar.commands.map(\.name))
    func undeclaredOptionsAreRefused(command: String) throws {
        let command = try #require(CommandTable.grammar.command(named: command))
        for option in CommandTable.grammar.options where command.option(option.name) == nil {
            #expect(refusal([command.name, option.name]) == "option \(option.name) does not apply to '\(command.name)'")
        }
        #expect(refusal([command.name, "--version"]) == "unknown option '--version'")
        #expect(refusal([command.name, "-V"]) == "unknown option '-V'")
        #expect(refusal([command.name, "--zqxj"]) == "unknown option '--zqxj'")
        for option in command.options {
            if option.takesValue {
                #expect(refusal([command.name, option.name]) == "\(option.name) needs a value")
            } else {
                #expect(refusal([command.name, option.name + "=x"]) == "\(option.name) takes no value")
            }
        }
    }

    @Test func valuesLandInTheirFields() throws {
        let line = try read(
            "open", "twitter", "--app", "x_web", "--picker=fzf", "--title", "-t-", "--configure", "true", "--choose", "--no-remember",
            "--dry-run", "--json", "-v", "--offline")
        var open = OpenOptions()
        open.app = "x_web"
        open.picker = "fzf"
        open.title = "-t-"
        open.configure = "true"
        open.choose = true
        open.noRemember = true
        open.dryRun = true
        #expect(line.options.open == open)
        #expect(line.options.json && line.options.verbose && line.options.offline && !line.options.help)
        #expect(line.arguments == ["twitter"])
        #expect(try read("reset", "--all").options.all)
        #expect(try read("install", "--default-handler").options.defaultHandler)
        #expect(try read("list", "--json").options.json)
    }

    @Test func beforeAndInsteadOfACommand() throws {
        let none = try read()
        #expect(none.command == nil && none.options == OptionValues())
        let verbose = try read("-v", "--offline")
        #expect(verbose.command == nil && verbose.options.verbose && verbose.options.offline)
        #expect(try read("--verbose", "list").options.verbose)
        #expect(try read("--help", "ignored").options.help)
        #expect(try read("-h").options.help)
        #expect(try read("--version").options.version)
        #expect(try read("-V").options.version)
        #expect(refusal(["--json", "list"]) == "'--json' must come after a command (see 'choosy help')")
        #expect(refusal(["--help=x"]) == "'--help=x' must come after a command (see 'choosy help')")
        #expect(refusal(["opne"]) == "unknown command 'opne' (did you mean 'open'?); see 'choosy help'")
        #expect(refusal(["__compete"]) == "unknown command '__compete'; see 'choosy help'")
    }

    /// Options anywhere after the command, `--` ends them, `-` is an argument.
    @Test func argumentsAndOptionsMix() throws {
        #expect(try read("open", "--choose", "browser", "browse", "--app", "firefox", "url=x").arguments == ["browser", "browse", "url=x"])
        #expect(try read("open", "browser", "--", "--choose").arguments == ["browser", "--choose"])
        #expect(try read("url", "twitter", "-", "x").arguments == ["twitter", "-", "x"])
        // A value may look like an option.
        #expect(try read("open", "browser", "--title", "--json").options.open.title == "--json")
    }

    /// Hidden commands get their words as they are, without the options around them.
    @Test func hiddenCommandsTakeTheirWords() throws {
        let line = try read("-v", "__complete", "open", "--nope", "")
        #expect(line.command?.name == "__complete" && line.command?.hidden == true)
        #expect(line.arguments == ["open", "--nope", ""])
        #expect(line.options == OptionValues())
        #expect(try read("__refresh", "browser").arguments == ["browser"])
    }

    @Test func argumentsThatDoNotFitTheCommand() {
        let cases: [([String], String)] = [
            (["open"], "open needs an app type, e.g. 'choosy open Browser browse url=https://example.org'"),
            (["url", "twitter"], "url needs an app type and an action, e.g. 'choosy url Twitter show_profile profile_screenname=x'"),
            (["reset"], "reset needs one app type, or --all"),
            (["reset", "a", "b"], "reset needs one app type, or --all"),
            (["reset", "a", "--all"], "reset takes an app type or --all, not both"),
            (["default"], "default needs an app type and optionally an app key"),
            (["default", "a", "b", "c"], "default needs an app type and optionally an app key"),
            (["list", "a", "b"], "list takes at most one app type"),
            (["describe"], "describe needs one app type"),
            (["handle", "a", "b"], "handle takes one URL or file"),
            (["route", "a", "b"], "route needs one URL"),
            (["install", "x"], "install takes no arguments besides --default-handler"),
            (["uninstall", "x"], "uninstall takes no arguments"),
            (["completions"], "completions needs one of: bash, zsh, fish"),
            (["completions", "tcsh"], "completions needs one of: bash, zsh, fish"),
            (["completions", "bash", "zsh"], "completions needs one of: bash, zsh, fish"),
            (["help", "a", "b"], "help takes at most one command"),
        ]
        for (words, message) in cases {
            #expect(refusal(words) == message, "\(words)")
            // Asking for help never checks them.
            #expect(refusal(words + ["--help"]) == nil, "\(words)")
        }
        for words in [
            ["open", "x"], ["url", "x", "y", "a=b"], ["reset", "--all"], ["update"], ["update", "a", "b"], ["default", "a", "b"],
            ["completions", "fish"], ["help"],
        ] {
            #expect(refusal(words) == nil, "\(words)")
        }
    }
}
