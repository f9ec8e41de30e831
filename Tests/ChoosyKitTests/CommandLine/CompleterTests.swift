import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Words → candidates (`choosy __complete`), against the bundled catalog plus a user file.
@Suite struct CompleterTests {
    let sandbox = Sandbox()

    private func complete(_ words: String...) -> [String] {
        candidates(words).map(\.word)
    }

    private func candidates(_ words: [String]) -> [CompletionCandidate] {
        let choosy = Choosy(
            environment: sandbox.choosyEnvironment, settings: Choosy.Settings(executable: "/nonexistent/choosy"),
            diagnostics: RecordingDiagnostics()
        )
        return CompleteCommand(words: words).candidates(with: choosy)
    }

    @Test func commandsThenTheirOptions() {
        #expect(complete("") == CommandTable.grammar.commands.map(\.name))
        #expect(complete("d") == ["default", "describe"])
        #expect(complete("-v", "--offline", "li") == ["list"])
        #expect(complete("--") == ["--help", "--version", "--verbose", "--offline"])
        #expect(complete("nonsense", "") == [])
        #expect(complete("completions", "") == ["bash", "zsh", "fish"])
        #expect(complete("help", "u") == ["url", "update", "uninstall", "unhide"])
    }

    /// `rule remove` offers the sites that have a rule, read quietly; `--app` the browsers.
    @Test func ruleSubcommandsTheirSitesAndBrowsers() {
        #expect(complete("rule", "") == ["add", "list", "remove", "test"])
        #expect(complete("rule", "remove", "") == [])
        sandbox.write(
            sandbox.configHome + "/choosy/rules.json",
            #"{"version": 1, "rules": [{"site": "github.com", "app": "firefox"}, {"site": "=gist.github.com", "ask": true}]}"#)
        #expect(complete("rule", "remove", "") == ["github.com", "=gist.github.com"])
        #expect(complete("rule", "add", "") == [])
        #expect(complete("rule", "add", "example.org", "--app", "fi") == ["firefox"])
        #expect(complete("rule", "add", "example.org", "--a") == ["--app", "--ask"])
        sandbox.write(sandbox.configHome + "/choosy/rules.json", "{")
        #expect(complete("rule", "remove", "") == [])
        #expect(sandbox.exists(sandbox.configHome + "/choosy/rules.json"), "completion moves nothing aside")
    }

    @Test func typesByKeyOrByName() {
        #expect(complete("open", "Tw") == ["Twitter"])
        #expect(complete("open", "tw") == ["twitter"])
        #expect(complete("open", "TWI") == ["Twitter"])
        #expect(complete("open", "Vid") == ["Video Calls", "Video Players"])
        #expect(complete("list", "").contains("browser"))
        #expect(complete("describe", "ma") == ["maps", "matrix"])
        #expect(complete("update", "browser", "b") == [])
        #expect(complete("list", "browser", "") == [])
    }

    @Test func actionsOfTheType() {
        #expect(complete("open", "Twitter", "") == ["show_profile", "post", "status", "search", "retweet", "favorite", "follow"])
        #expect(complete("url", "maps", "s") == ["show_location", "search"])
        #expect(complete("open", "Twitter", "Show P") == ["Show Profile"])
        #expect(complete("open", "Twiter", "") == [])
    }

    @Test func parameterKeysOfTheAction() {
        #expect(complete("open", "Twitter", "show_profile", "pro") == ["profile_screenname="])
        // The keys the action's templates use, in the type's order; given keys are left out.
        #expect(complete("open", "twitter", "show_profile", "") == ["profile_screenname=", "user_id="])
        #expect(complete("open", "twitter", "show_profile", "user_id=1", "") == ["profile_screenname="])
        #expect(complete("open", "twitter", "Show Profile", "--app", "x_web", "") == ["profile_screenname=", "user_id="])
        // A value is anything.
        #expect(complete("open", "twitter", "show_profile", "profile_screenname=") == [])
        // Without an action, every parameter of the type.
        #expect(complete("open", "email", "to=a@example.org", "") == ["cc=", "bcc=", "subject=", "body=", "in_reply_to="])
    }

    @Test func appKeysForAppAndDefault() {
        #expect(complete("default", "browser", "f") == ["firefox", "floorp", "falkon"])
        #expect(complete("default", "Browser", "F") == ["firefox", "floorp", "falkon"])
        #expect(complete("open", "Twitter", "show_profile", "--app", "") == ["x_web"])
        #expect(complete("url", "maps", "search", "--app=o") == ["--app=openstreetmap_web"])
        #expect(complete("open", "--app", "") == [])
        #expect(
            complete("open", "browser", "--picker", "") == ["auto", "tty", "fzf", "rofi", "zenity", "fuzzel", "wofi", "bemenu", "tofi"])
        #expect(complete("open", "browser", "--title", "") == [])
    }

    @Test func optionsOfTheCommand() {
        #expect(complete("reset", "--") == ["--help", "--verbose", "--offline", "--all"])
        #expect(complete("open", "browser", "--d") == ["--dry-run"])
        #expect(complete("open", "browser", "--dry-run", "--d") == [])
        #expect(complete("install", "--d") == ["--default-handler"])
        // After `--` every word is a positional.
        #expect(complete("list", "--", "--") == [])
    }

    /// The options offered are the ones the grammar declares, command by command.
    @Test func optionsAreTheGrammars() {
        for command in CommandTable.grammar.commands {
            #expect(complete(command.name, "-") == command.options.map(\.name), "\(command.name)")
            #expect(candidates([command.name, "-"]).map(\.description) == command.options.map(\.summary), "\(command.name)")
        }
        #expect(complete("-") == (CommandGrammar.insteadOfCommand + CommandGrammar.beforeCommand).map(\.name))
        #expect(candidates([""]).map(\.description) == CommandTable.grammar.commands.map(\.summary))
    }

    @Test func userCatalogTypesComplete() {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/recipes.json",
            """
            [{"name": "Recipes", "key": "recipes", "parameters": [{"name": "Dish", "key": "dish", "description": ""}],
              "actions": [{"name": "Cook", "key": "cook"}],
              "apps": [{"name": "Cookbook", "key": "cookbook", "app_url_scheme": "cookbook:", "actions": [{"key": "cook", "url_format": "cookbook://{{dish}}"}]}]}]
            """)
        #expect(complete("open", "Rec") == ["Recipes"])
        #expect(complete("open", "recipes", "") == ["cook"])
        #expect(complete("open", "recipes", "cook", "") == ["dish="])
        #expect(complete("default", "recipes", "") == ["cookbook"])
    }

    @Test func linesCarryADescriptionAfterATab() {
        #expect(candidates(["open", "tw"]).map(\.line) == ["twitter\tTwitter"])
        #expect(candidates(["open", "browser", "--picker", "t"]).map(\.line) == ["tty", "tofi"])
        #expect(CompletionCandidate("a", "two\nlines\there").line == "a\ttwo lines here")
    }
}
