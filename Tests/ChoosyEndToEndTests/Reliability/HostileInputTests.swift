import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Hostile input, end to end, through real desktop entries and recorder executables: whatever
/// a caller, a catalog or a hook puts into a parameter reaches the app as exactly one
/// argument holding exactly that value, or is refused with exit 2 before anything runs.
@Suite struct HostileInputTests {
    let sandbox = Sandbox()

    init() {
        // Email has web apps too (a browser is installed), so email commands name the app.
        for name in ["thunderbird", "firefox", "callbacks"] {
            sandbox.recorder(name)
        }
        sandbox.desktopEntry("thunderbird.desktop", sandbox.application(name: "Thunderbird", exec: "\(sandbox.bin)/thunderbird %u"))
        sandbox.desktopEntry("firefox.desktop", sandbox.application(name: "Firefox", exec: "\(sandbox.bin)/firefox %u"))
        // Handles every scheme a forged callback could name, so that opening one would show.
        let schemes = ["notes", "file", "javascript", "data", "vbscript"].map { "x-scheme-handler/\($0);" }.joined()
        sandbox.desktopEntry(
            "callbacks.desktop", sandbox.application(name: "Callbacks", exec: "\(sandbox.bin)/callbacks %u", "MimeType=\(schemes)\n"))
    }

    /// Runs of recorder `name`, once whatever choosy started has had time to run.
    func settledRuns(_ name: String) async -> [[String]] {
        await offPool {
            usleep(500_000)
            return self.sandbox.recordedRuns(name)
        }
    }

    /// The decoded value of query item `name` in `url`.
    func queryValue(_ name: String, in url: String) -> String? {
        URLParts(url)?.queryItems.first { $0.name == Substring(name) }.flatMap { $0.value.flatMap(PercentEncoding.decode) }
    }

    static let values = [
        "; rm -rf ~ #", "$(touch pwned)", "`touch pwned`", "a | b && c > d", "'\"\\", "line one\nline two", "tab\there",
        "\r\n", "{{to}}", "{{url}}", "%s %u %c %% %F", "--help", "-x", "ünïcödé ☃ 👩‍👩‍👧", "\u{7F}\u{1B}[31m", "a=b&c=d#e?f",
    ]

    @Test(arguments: values)
    func aValueReachesTheAppEncodedInOneArgument(value: String) async throws {
        let output = await sandbox.run(
            "open", "email", "compose", "--app", "thunderbird", "to=ada@example.org", "subject=\(value)", "body=\(value)")
        #expect(output.status == 0, "\(output.stderr)")
        let runs = sandbox.waitForRuns("thunderbird")
        let argv = try #require(runs.first)
        #expect(runs.count == 1 && argv.count == 2, "\(runs)")
        #expect(argv.last?.hasPrefix("mailto:ada@example.org?") == true, "\(argv)")
        #expect(queryValue("subject", in: argv[1]) == value)
        #expect(queryValue("body", in: argv[1]) == value)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/pwned"))
    }

    /// `{{url}}` at the start of a template passes the value through as it is, unless it holds
    /// control characters, which no URL does.
    @Test(arguments: values)
    func aWholeURLReachesTheBrowserVerbatimInOneArgumentOrIsRefused(value: String) async throws {
        let url = "https://example.org/?q=" + value
        let output = await sandbox.run("open", "browser", "browse", "url=\(url)")
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            #expect(output.status == 2, "\(output.stderr)")
            #expect(output.stderrLines.count == 1 && output.stderr.contains("control character"), "\(output.stderr)")
            #expect(await settledRuns("firefox").isEmpty)
        } else {
            #expect(output.status == 0, "\(output.stderr)")
            #expect(sandbox.waitForRuns("firefox").map { Array($0.dropFirst()) } == [[url]])
        }
    }

    /// Near the kernel's limit for one argument (128 KiB), from the command line and from an
    /// x-callback-url; the command lines carrying them are themselves just under it.
    @Test func aValueOfAHundredKilobytesGetsThrough() async throws {
        let value = String(repeating: "a", count: 100_000)
        #expect(await sandbox.run("open", "email", "compose", "--app", "thunderbird", "subject=\(value)").status == 0)
        #expect(
            await sandbox.run("route", "choosy://x-callback-url/open?type=browser&action=browse&url=https://example.org/\(value)").status
                == 0)
        #expect(sandbox.waitForRuns("thunderbird").map { queryValue("subject", in: $0[1]) } == [value])
        #expect(sandbox.waitForRuns("firefox").map { $0[1] } == ["https://example.org/" + value])
    }

    /// A link holding bytes that are not UTF-8 reaches the browser as given, not with U+FFFD in
    /// their place (doc/security.md, "Links byte for byte"), whether it is clicked (`handle`) or
    /// an `open` parameter. The last argument is made by a shell, as no Swift string holds it.
    @Test(arguments: [(["handle"], ""), (["open", "browser", "browse"], "url=")])
    func aLinkThatIsNotUTF8ReachesTheBrowserByteForByte(command: [String], prefix: String) async throws {
        let giving = sandbox.write(
            sandbox.bin + "/giving-invalid-utf8",
            """
            #!/bin/sh
            exec "$@" "$(printf '\(prefix)https://example.org/\\377\\376?q=\\303')"

            """, mode: 0o755)
        let output = await offPool { self.sandbox.choosy(command, wrapper: [giving]) }
        #expect(output.status == 0, "\(output.stderr)")
        _ = sandbox.waitForRuns("firefox")
        let expected = Array("https://example.org/".utf8) + [0xFF, 0xFE] + Array("?q=".utf8) + [0xC3]
        #expect(sandbox.recordedArgumentBytes("firefox").map { Array($0.dropFirst()) } == [[expected]])
    }

    /// Half a megabyte: within what choosy reads of a hook (1 MiB), far past one argument.
    @Test func halfAMegabyteFromAPrepareHookIsRefusedWithStatus2() async throws {
        sandbox.write(
            sandbox.configHome + "/choosy/hooks/prepareForEmailCompose",
            """
            #!/bin/sh
            printf 'body='; head -c 524288 /dev/zero | tr '\\0' b; echo

            """, mode: 0o755)
        let output = await sandbox.run("open", "email", "compose", "--app", "thunderbird", "to=ada@example.org")
        #expect(output.status == 2, "\(output.stderr.prefix(300))")
        #expect(output.stderrLines.count == 1 && output.stderr.contains("one argument holds at most"), "\(output.stderr.prefix(300))")
        #expect(output.stderr.utf8.count < 1000, "the message does not repeat the value")
        #expect(await settledRuns("thunderbird").isEmpty)
    }

    @Test func aNULFromAnXCallbackURLIsEncodedOrRefused() async throws {
        let encoded = await sandbox.run(
            "route", "choosy://x-callback-url/open?type=email&action=compose&app=thunderbird&to=ada%40example.org&subject=a%00b")
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(sandbox.waitForRuns("thunderbird").map { queryValue("subject", in: $0[1]) } == ["a\u{0}b"])

        let verbatim = await sandbox.run(
            "route", "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org%2F%00--x&x-error=notes://failed"
        )
        #expect(verbatim.status == 2, "\(verbatim.stderr)")
        #expect(verbatim.stderr.contains("NUL"), "\(verbatim.stderr)")
        #expect(await settledRuns("firefox").isEmpty)
        let callback = try #require(sandbox.waitForRuns("callbacks").first?.last)
        #expect(callback.hasPrefix("notes://failed?errorCode=2&errorMessage="), "\(callback)")
    }

    @Test func aNULFromAPrepareHookIsEncodedOrRefused() async throws {
        sandbox.write(sandbox.configHome + "/choosy/hooks/prepareForEmailCompose", "#!/bin/sh\nprintf 'subject=a\\000b\\n'\n", mode: 0o755)
        #expect(await sandbox.run("open", "email", "compose", "--app", "thunderbird", "to=ada@example.org").status == 0)
        #expect(sandbox.waitForRuns("thunderbird").map { queryValue("subject", in: $0[1]) } == ["a\u{0}b"])

        sandbox.write(
            sandbox.configHome + "/choosy/hooks/prepareForBrowserBrowseToAURL", "#!/bin/sh\nprintf 'url=https://example.org/\\000--x\\n'\n",
            mode: 0o755)
        let output = await sandbox.run("open", "browser", "browse", "url=https://example.org/")
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        #expect(await settledRuns("firefox").isEmpty)
    }

    @Test(arguments: ["subject=%FF", "subject=%C3", "subject=%zz", "%FF=x"])
    func invalidEncodingInAnXCallbackURLIsRefused(parameter: String) async throws {
        let output = await sandbox.run(
            "route", "choosy://x-callback-url/open?type=email&action=compose&app=thunderbird&\(parameter)&x-error=notes://failed")
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderrLines.count == 1)
        #expect(await settledRuns("thunderbird").isEmpty)
        #expect(sandbox.waitForRuns("callbacks").first?.last?.hasPrefix("notes://failed?errorCode=400&") == true)
    }

    /// A value standing for a whole URL must be one: an option, a script, a relative path is
    /// not, whichever way it comes in.
    @Test(arguments: [
        "--gpu-launcher=/bin/sh", "-x", "relative/path", "javascript:alert(1)", "JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "{{url}}", " https://example.org",
    ])
    func aWholeURLThatIsNotOneIsRefusedWithStatus2(value: String) async throws {
        let open = await sandbox.run("open", "browser", "browse", "url=\(value)")
        #expect(open.status == 2, "\(value): \(open.stderr)")
        #expect(open.stderrLines.count == 1, "\(open.stderr)")
        let route = await sandbox.run(
            "route", "choosy://x-callback-url/open?type=browser&action=browse&url=\(PercentEncoding.encode(value))")
        #expect(route.status == 2, "\(value): \(route.stderr)")
        #expect(await settledRuns("firefox").isEmpty)
    }

    /// `choosy handle` gives a link of another scheme to the catalog's apps for it unchanged,
    /// under the same rules.
    @Test func aLinkGoesToItsAppVerbatimOrIsRefused() async throws {
        sandbox.recorder("transmission")
        sandbox.desktopEntry("transmission-gtk.desktop", sandbox.application(name: "Transmission", exec: "\(sandbox.bin)/transmission %U"))
        let link = "magnet:?xt=urn:btih:abc&dn=a;b$(touch pwned)'`x`"
        #expect(await sandbox.run("handle", link).status == 0)
        #expect(sandbox.waitForRuns("transmission").map { Array($0.dropFirst()) } == [[link]])
        let refused = await sandbox.run("handle", "magnet:?xt=urn:btih:abc\u{1B}]0;pwned\u{7}")
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(await settledRuns("transmission").count == 1)
    }

    @Test func anAbsolutePathIsAWholeURL() async throws {
        #expect(await sandbox.run("open", "browser", "browse", "url=/home/ada/page.html").status == 0)
        #expect(sandbox.waitForRuns("firefox").map { $0[1] } == ["/home/ada/page.html"])
    }

    /// The user's catalog (and a server's: both are decoded alike) may describe web apps, but
    /// only http(s) URLs are ever handed to the browser, and no app gets a script URL or an option.
    @Test(arguments: [
        "file:///etc/passwd", "FILE:/etc/passwd", "javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>",
        "{{target}}",
    ])
    func aCatalogTemplateWithAScriptOrLocalSchemeIsRefused(template: String) async throws {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/evil.json",
            """
            [{"key":"evil","name":"Evil","parameters":[{"key":"target","name":"Target"}],"actions":[{"key":"show","name":"Show"}],
              "apps":[{"key":"evil_web","name":"Evil Web","app_url_scheme":"https://evil.example","actions":[{"key":"show","url_format":"\(template)"}]}]}]
            """)
        let output = await sandbox.run("open", "evil", "show", "target=file:///etc/shadow")
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        #expect(await settledRuns("firefox").isEmpty)
    }

    @Test(arguments: ["javascript:alert(1)", "--gpu-launcher=/bin/sh"])
    func aCatalogCannotHandAnInstalledAppAScriptOrAnOption(scheme: String) async throws {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/evil.json",
            """
            [{"key":"evil","name":"Evil","actions":[{"key":"show","name":"Show"}],
              "apps":[{"key":"evil_native","name":"Evil","app_url_scheme":"\(scheme)","desktop_ids":["firefox.desktop"],
                       "actions":[{"key":"show","url_format":"\(scheme)"}]}]}]
            """)
        let withAction = await sandbox.run("open", "evil", "show")
        #expect(withAction.status == 2, "\(withAction.stderr)")
        #expect(await settledRuns("firefox").isEmpty)
        // Without an action the app just starts: its scheme is never handed to it.
        let withoutAction = await sandbox.run("open", "evil")
        #expect(withoutAction.status == 0, "\(withoutAction.stderr)")
        #expect(sandbox.waitForRuns("firefox").map { Array($0.dropFirst()) } == [[]])
    }

    @Test(arguments: [
        "file:///etc/passwd", "javascript:alert(1)", "JAVASCRIPT%3Aalert(1)", "%20javascript:alert(1)",
        "java%09script:alert(1)", "data:text/html,x", "vbscript:x", "notes://ok%0A--x",
    ])
    func aCallbackToAnUnsafeURLIsRefusedAndTheActionDoesNotRun(callback: String) async throws {
        for name in ["x-success", "x-error", "x-cancel"] {
            let output = await sandbox.run(
                "route", "choosy://x-callback-url/open?type=email&action=compose&app=thunderbird&subject=x&\(name)=\(callback)")
            #expect(output.status == 2, "\(name)=\(callback): \(output.stderr)")
            #expect(output.stderrLines.count == 1, "\(output.stderr)")
        }
        #expect(await settledRuns("thunderbird").isEmpty)
        #expect(sandbox.recordedRuns("callbacks").isEmpty)
    }

    @Test func aSafeCallbackIsOpenedWithTheResult() async throws {
        let output = await sandbox.run(
            "route",
            "choosy://x-callback-url/open?type=email&action=compose&app=thunderbird&subject=x&x-success=notes://done%3Fkeep%3Da%252Bb")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.waitForRuns("callbacks").map { $0[1] } == ["notes://done?keep=a%2Bb&app=thunderbird"])
        #expect(sandbox.waitForRuns("thunderbird").count == 1)
    }

    /// A catalog's names and a desktop entry's are printed, never interpreted by the terminal.
    @Test func escapeSequencesFromACatalogAreShownNotSentToTheTerminal() async throws {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/evil.json",
            #"""
            [{"key":"evil","name":"Evil\u001b]0;pwned\u0007","parameters":[{"key":"p","name":"P\u001b[2J","description":"\u009b31m"}],
              "actions":[{"key":"show","name":"Show\nchoosy: forged"}],
              "apps":[{"key":"evil\u001b[8m","name":"E\u0085vil","app_url_scheme":"evil\u001b:","desktop_ids":["firefox.desktop"],
                       "actions":[{"key":"show","url_format":"evil:x"}]}]}]
            """#)
        for command in [["describe", "evil"], ["list", "evil"], ["list"], ["describe", "evil", "--json"], ["list", "evil", "--json"]] {
            let output = await sandbox.run(command)
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(
                !output.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || (0x80...0x9F).contains($0.value) },
                "\(command): \(output.stdout.debugDescription)")
            #expect(!output.stdout.contains("\nchoosy: forged"), "\(command)")
        }
        #expect(await sandbox.run("describe", "evil").stdout.contains("Evil\\u{1B}]0;pwned\\u{7}"))
    }

    @Test func anErrorIsOneLineWhateverItQuotes() async {
        let describe = await sandbox.run("describe", "x\nchoosy: forged line")
        #expect(describe.status == 3)
        #expect(describe.stderrLines.count == 1, "\(describe.stderr)")
        let route = await sandbox.run("route", "choosy://x-callback-url/a%0Achoosy:%20forged%0D")
        #expect(route.status == 2)
        #expect(route.stderrLines.count == 1 && !route.stderr.contains("\r"), "\(route.stderr)")
    }

    /// One escaping rule for every quoted character: TAB then `b` is not the C1 code 0x9B,
    /// and CR is not LF.
    @Test func aQuotedControlCharacterIsShownUnambiguously() async {
        let tab = await sandbox.run("describe", "x\tb")
        #expect(tab.status == 3)
        #expect(tab.stderr.contains("'x\\u{9}b'") && !tab.stderr.contains("\\x9b"), "\(tab.stderr)")
        let returns = await sandbox.run("describe", "x\ry\nz\u{9B}")
        #expect(returns.stderr.contains("'x\\u{D}y\\u{A}z\\u{9B}'"), "\(returns.stderr)")
        #expect(singleLine(singleLine("a\tb")) == "a\\u{9}b", "applied twice, the rule changes nothing more")
    }

    /// A relative program would run whatever is at that path below choosy's working directory;
    /// an unknown field code means the entry is not written for the spec it claims.
    @Test(arguments: [
        "bin/thunderbird %u", "./thunderbird %u", "thunderbird %z %u", "thunderbird %u %", "%u",
        "thunderbird \"--to=%u\"", "thunderbird 'unterminated %u",
    ])
    func anEntryWithARelativeProgramOrAnInvalidFieldCodeIsNotUsable(exec: String) async throws {
        sandbox.desktopEntry("thunderbird.desktop", sandbox.application(name: "Thunderbird", exec: exec))
        let output = await sandbox.run("open", "email", "compose", "--app", "thunderbird", "to=ada@example.org")
        #expect(output.status == 4, "\(exec): \(output.stderr)")
        let list = await sandbox.run("list", "email", "--json")
        let types = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        let thunderbird = (types?.first?["apps"] as? [[String: Any]])?.first { $0["key"] as? String == "thunderbird" }
        #expect(thunderbird?["installed"] as? Bool == false, "\(exec): \(list.stdout)")
        #expect(await settledRuns("thunderbird").isEmpty)
    }
}
