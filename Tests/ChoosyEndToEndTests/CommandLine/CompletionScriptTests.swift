import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// The scripts of `choosy completions`, run by the real shells against the built binary.
@Suite struct CompletionScriptTests {
    let sandbox = Sandbox()

    init() {
        sandbox.putChoosyOnPath()
    }

    @Test func thereIsAScriptForEveryShellTheGrammarNames() {
        for shell in CompletionScript.shells {
            #expect(CompletionScript.text(for: shell)?.contains("choosy __complete") == true, "\(shell)")
        }
        #expect(CompletionScript.text(for: "tcsh") == nil)
    }

    /// Sources the bash script and runs `_choosy` the way bash does on Tab, once per line of
    /// `calls` (`COMP_WORDS` as shell words); each answer is COMPREPLY, one per line, then `--`.
    private func bash(_ calls: [String]) -> String {
        let script = """
            source <(choosy completions bash)
            tab() {
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
                _choosy
                printf '%s\\n' "${COMPREPLY[@]}" --
            }
            # What bash hands over for a real line: split at '=' and ':', and COMP_LINE.
            tab_line() {
                COMP_LINE=$1 COMP_POINT=${#1}
                shift
                tab "$@"
                unset COMP_LINE COMP_POINT
            }

            """ + calls.joined(separator: "\n")
        let output = sandbox.run(["/bin/bash", "-c", script])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr == "")
        return output.stdout
    }

    @Test func bashCompletesTypesActionsAndParameterKeys() {
        #expect(
            bash([
                "complete -p choosy",
                "tab choosy open Tw",
                "tab choosy open Twitter ''",
                "tab choosy open Twitter show_profile pro",
                "tab choosy open Vid",
                "tab choosy '' ",
            ]) == """
                complete -F _choosy choosy
                Twitter
                --
                show_profile
                post
                status
                search
                retweet
                favorite
                follow
                --
                profile_screenname=
                --
                Video\\ Calls
                Video\\ Players
                --
                \(CommandTable.grammar.commands.map { $0.name + "\n" }.joined())--

                """)
    }

    @Test func bashGluesWhatItSplitAtEqualsSigns() {
        #expect(
            bash([
                // `--app=x` reaches the function as `--app`, `=`, `x`: the candidate loses `--app=`.
                "tab_line 'choosy open Twitter show_profile --app=x' choosy open Twitter show_profile --app = x",
                "tab_line 'choosy open Twitter show_profile --app=' choosy open Twitter show_profile --app =",
                // A parameter already given is one word, not three positionals.
                "tab_line 'choosy open twitter show_profile user_id=1 ' choosy open twitter show_profile user_id = 1 ''",
                "tab_line 'choosy open twitter show_profile user_id=' choosy open twitter show_profile user_id =",
                // Quoted words are dequoted before choosy sees them.
                #"tab_line 'choosy open "Video Calls" ' choosy open '"Video Calls"' ''"#,
            ]) == """
                x_web
                --
                x_web
                --
                profile_screenname=
                --
                --
                join_meeting
                join_meeting_id
                --

                """)
    }

    /// bash splits `firefox@Work` at the `@` too: a browser's profiles complete after it.
    @Test func bashCompletesABrowsersProfilesAfterTheAt() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.write(sandbox.home + "/.mozilla/firefox/profiles.ini", "[Profile0]\nName=Work Stuff\n\n[Profile1]\nName=Home\n")
        #expect(
            bash([
                "tab_line 'choosy open browser browse --app firefox@' choosy open browser browse --app firefox @",
                "tab_line 'choosy default browser firefox@W' choosy default browser firefox @ W",
            ]) == """
                Work\\ Stuff
                Home
                --
                Work\\ Stuff
                --

                """)
    }

    /// Through the real scripts, each command offers the options the grammar declares for it.
    @Test func bashAndFishOfferTheGrammarsOptions() {
        let commands = CommandTable.grammar.commands
        #expect(
            bash(commands.map { "tab choosy \($0.name) -" })
                == commands.map { command in
                    command.options.map { $0.name + "\n" }.joined() + "--\n"
                }.joined())
        let path = sandbox.write("choosy.fish", sandbox.choosy("completions", "fish").stdout)
        let fish = sandbox.run([
            "/usr/bin/fish", "--no-config", "-c",
            "source \(path)\n" + commands.map { "complete -C 'choosy \($0.name) -'; echo ==" }.joined(separator: "\n"),
        ])
        let answers = fish.stdout.components(separatedBy: "==\n").dropLast()
        #expect(
            answers.map { Set($0.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }) }
                == commands.map { Set($0.options.map(\.name)) })
    }

    @Test func zshScriptIsValidAndAutoloadable() {
        let path = sandbox.write("_choosy", sandbox.choosy("completions", "zsh").stdout)
        let check = sandbox.run(["/usr/bin/zsh", "-n", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(sandbox.read("_choosy")?.hasPrefix("#compdef choosy\n") == true)
    }

    /// zsh completes only inside its line editor, so this one types in a real terminal (tmux).
    @Test func zshCompletesInATerminalAliasesToo() {
        sandbox.write(
            "zdotdir/.zshrc",
            """
            PS1='%% '
            autoload -Uz compinit && compinit -u -d "\(sandbox.root)/zcompdump"
            source <(choosy completions zsh)
            alias tw='choosy open Twitter show_profile'

            """)
        let socket = sandbox.root + "/tmux.sock"
        @discardableResult
        func tmux(_ arguments: String...) -> Sandbox.Output {
            sandbox.run(["/usr/bin/tmux", "-S", socket] + arguments, environment: ["ZDOTDIR": sandbox.root + "/zdotdir"])
        }
        defer { tmux("kill-server") }
        tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "20", "/usr/bin/zsh -i")
        func screen(showing text: String) -> String {
            let deadline = Date().addingTimeInterval(20)
            var shown = ""
            repeat {
                shown = tmux("capture-pane", "-p").stdout
                if shown.contains(text) { break }
                usleep(50_000)
            } while Date() < deadline
            return shown
        }
        // (capture-pane drops trailing blanks.)
        #expect(screen(showing: "%").contains("%"))
        tmux("send-keys", "choosy open Tw", "Tab")
        #expect(screen(showing: "choosy open Twitter").contains("% choosy open Twitter"))
        tmux("send-keys", "show_pro", "Tab", "pro", "Tab")
        #expect(screen(showing: "profile_screenname=").contains("% choosy open Twitter show_profile profile_screenname="))
        tmux("send-keys", "C-u", "tw ", "Tab")
        let listed = screen(showing: "user_id=")
        #expect(listed.contains("profile_screenname=  -- Profile Username"), "\(listed)")
        #expect(listed.contains("user_id=             -- User Id"), "\(listed)")
    }

    @Test func fishScriptIsValidAndCompletesAliasesToo() {
        let path = sandbox.write("choosy.fish", sandbox.choosy("completions", "fish").stdout)
        let check = sandbox.run(["/usr/bin/fish", "--no-config", "-n", path])
        #expect(check.status == 0, "\(check.stderr)")
        let output = sandbox.run([
            "/usr/bin/fish", "--no-config", "-c",
            """
            source \(path)
            complete -C 'choosy open Tw'
            complete -C 'choosy open Twitter show_profile pro'
            alias tw='choosy open Twitter show_profile'
            complete -C 'tw '
            """,
        ])
        #expect(
            output.stdout == """
                Twitter\ttwitter
                profile_screenname=\tProfile Username
                profile_screenname=\tProfile Username
                user_id=\tUser Id

                """, "\(output.stderr)")
    }

    @Test func unknownShellIsAUsageError() {
        let output = sandbox.choosy("completions", "tcsh")
        #expect(output.status == 2)
        #expect(output.stderr == "choosy: completions needs one of: bash, zsh, fish\n")
    }
}
