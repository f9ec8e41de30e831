import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct ExecCommandLineTests {
    /// Splits an `Exec` line exactly as written in a file: string escapes first, then quoting.
    private func argv(
        _ fileValue: String, url: String? = nil, icon: String? = nil, name: String? = "App", path: String? = "/apps/app.desktop"
    ) throws -> [String] {
        let entry = try #require(
            DesktopEntryParser.parse(Array("[Desktop Entry]\nExec=\(fileValue)\n".utf8), id: "app.desktop", path: "/apps/app.desktop"))
        let exec = try #require(entry.exec)
        return try ExecCommandLine(parsing: exec).expand(url: url, icon: icon, name: name, entryPath: path)
    }

    @Test func splitsOnSpacesAndHonoursDoubleQuotes() throws {
        #expect(try argv("app  --flag \"two words\" last") == ["app", "--flag", "two words", "last"])
        #expect(try argv("\"/opt/My App/bin/app\" x") == ["/opt/My App/bin/app", "x"])
        #expect(try argv("app \"\" x") == ["app", "", "x"])
        #expect(try argv("app a\"b c\"d") == ["app", "ab cd"])
    }

    @Test func undoesTheSpecsQuotingExamples() throws {
        // Four backslashes in the file are one literal backslash in a quoted argument.
        #expect(try argv(#"app "\\\\""#) == ["app", "\\"])
        // `\\$` in the file is a literal dollar sign.
        #expect(try argv(#"app "\\$HOME""#) == ["app", "$HOME"])
        #expect(try argv(#"app "say \\"hi\\"" "\\`cmd\\`""#) == ["app", "say \"hi\"", "`cmd`"])
        // A backslash before any other character stays.
        #expect(try argv(#"app "a\\xb""#) == ["app", "a\\xb"])
        // String escapes are undone before splitting: `\s` is a space that separates.
        #expect(try argv(#"app\sone"#) == ["app", "one"])
    }

    @Test func reservedCharactersArePlainOutsideAShell() throws {
        #expect(try argv("app a;b |c >d $HOME *") == ["app", "a;b", "|c", ">d", "$HOME", "*"])
        #expect(try argv("sh -c 'echo $HOME; exit'") == ["sh", "-c", "echo $HOME; exit"])
    }

    @Test func expandsFieldCodes() throws {
        let url = "https://example.com/a b"
        #expect(try argv("app %u", url: url) == ["app", url])
        #expect(try argv("app %U", url: url) == ["app", url])
        #expect(try argv("app --url=%u", url: url) == ["app", "--url=" + url])
        #expect(try argv("app 100%% %%u") == ["app", "100%", "%u"])
        #expect(try argv("app %i %u", url: url, icon: "my icon") == ["app", "--icon", "my icon", url])
        #expect(try argv("app %i %u", url: url, icon: nil) == ["app", url])
        #expect(try argv("app %i %u", url: url, icon: "") == ["app", url])
        #expect(try argv("app --title %c", name: "Mein Programm") == ["app", "--title", "Mein Programm"])
        #expect(try argv("app %k") == ["app", "/apps/app.desktop"])
        #expect(try argv("app \"%u\"", url: url) == ["app", url])
    }

    @Test func removesDeprecatedCodes() throws {
        #expect(try argv("app %d %D %n %N %v %m %u", url: "x:y") == ["app", "x:y"])
        #expect(try argv("app a%db") == ["app", "ab"])
    }

    @Test func givesNoURLWithoutAURLCode() throws {
        let commandLine = try ExecCommandLine(parsing: "app --new-window")
        #expect(!commandLine.takesURL)
        #expect(commandLine.expand(url: "https://x", icon: nil, name: nil, entryPath: nil) == ["app", "--new-window"])
        #expect(try ExecCommandLine(parsing: "app %F").takesURL)
        #expect(try argv("app --url=%u") == ["app", "--url="])
        #expect(try argv("app %u") == ["app"])
    }

    @Test func fileCodesTakeLocalPathsOnly() throws {
        #expect(try argv("app %f", url: "file:///home/me/My%20File.txt") == ["app", "/home/me/My File.txt"])
        #expect(try argv("app %F", url: "file://localhost/tmp/a%25b") == ["app", "/tmp/a%b"])
        #expect(try argv("app %f", url: "file:/tmp/x#frag") == ["app", "/tmp/x"])
        #expect(try argv("app %f", url: "https://example.com/file.txt") == ["app"])
        #expect(try argv("app %f", url: "file://otherhost/share/x") == ["app"])
        #expect(try argv("app %f", url: "file:///bad%00nul") == ["app"])
        // Bytes that are not UTF-8 are U+FFFD here; the launcher passes the file's own bytes.
        #expect(try argv("app %f", url: "file:///bad%FF") == ["app", "/bad\u{FFFD}"])
        #expect(try argv("app %u", url: "file:///tmp/a%20b") == ["app", "file:///tmp/a%20b"])
    }

    @Test func substitutionsStayOneArgument() throws {
        let hostile = "https://x.test/$(touch pwned);`id` \"q\" 'q'\nsecond line %u \\"
        #expect(try argv("app %u --end", url: hostile) == ["app", hostile, "--end"])
        #expect(try argv("app %c", name: "a \"b\" $(c)") == ["app", "a \"b\" $(c)"])
    }

    @Test(arguments: [
        ("app %x", "invalid field code '%x'"),
        ("app %", "Exec ends with a lone '%'"),
        ("app \"unterminated", "unterminated quote"),
        ("app 'unterminated", "unterminated quote"),
        ("bin/app %u", "program 'bin/app' is a relative path"),
        ("./app", "program './app' is a relative path"),
        ("", "empty Exec"),
        ("   ", "empty Exec"),
        ("%u", "the program is a field code"),
        ("FOO=1 app", "program name 'FOO=1' contains '='"),
        ("sh -c \"open %u\"", "field code inside a quoted argument with other text"),
        ("app \"--url=%u\"", "field code inside a quoted argument with other text"),
    ])
    func rejectsInvalidCommandLines(_ exec: String, _ reason: String) {
        let error = #expect(throws: ExecError.self) { try ExecCommandLine(parsing: exec) }
        #expect(error?.description == reason)
    }

    @Test func knowsItsProgram() throws {
        #expect(try ExecCommandLine(parsing: "\"/opt/a b/app\" %u").program == "/opt/a b/app")
        #expect(try ExecCommandLine(parsing: "firefox %u").program == "firefox")
    }
}

/// Where a profile's and a private window's arguments go (doc/profiles.md).
@Suite struct ExecArgumentPlacementTests {
    private func argv(_ exec: String, url: String? = "https://x.org/") throws -> [String] {
        try ExecCommandLine(parsing: exec).expand(url: url, icon: "icon", name: "App", entryPath: "/a.desktop", inserting: ["-P", "Work"])
    }

    @Test func beforeTheFirstArgumentHoldingAURLFieldCode() throws {
        #expect(try argv("/usr/lib/firefox-esr/firefox-esr %u") == ["/usr/lib/firefox-esr/firefox-esr", "-P", "Work", "https://x.org/"])
        #expect(try argv("chromium --flag %U --after") == ["chromium", "--flag", "-P", "Work", "https://x.org/", "--after"])
        #expect(try argv("app %i --open=%u") == ["app", "--icon", "icon", "-P", "Work", "--open=https://x.org/"])
        #expect(
            try argv("env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop /snap/bin/firefox %u")
                == [
                    "env", "BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop", "/snap/bin/firefox", "-P",
                    "Work", "https://x.org/",
                ])
        // Without a URL the place stays the same.
        #expect(try argv("app %u --after", url: nil) == ["app", "-P", "Work", "--after"])
    }

    @Test func beforeTheFlatpakGroupHoldingIt() throws {
        let run = [
            "/usr/bin/flatpak", "run", "--branch=stable", "--arch=x86_64", "--command=firefox", "--file-forwarding", "org.mozilla.firefox",
        ]
        #expect(try argv(run.joined(separator: " ") + " @@u %u @@") == run + ["-P", "Work", "@@u", "https://x.org/", "@@"])
        #expect(
            try argv("flatpak run org.x.App @@ %F @@", url: "/tmp/f") == [
                "flatpak", "run", "org.x.App", "-P", "Work", "@@", "/tmp/f", "@@",
            ])
        // A closed group before the URL does not count.
        #expect(
            try argv("flatpak run @@ a @@ org.x.App %u") == [
                "flatpak", "run", "@@", "a", "@@", "org.x.App", "-P", "Work", "https://x.org/",
            ])
    }

    @Test func atTheEndWithoutAURLFieldCode() throws {
        #expect(try argv("firefox --private-window") == ["firefox", "--private-window", "-P", "Work"])
        #expect(try ExecCommandLine(parsing: "app %u").expand(url: "u", icon: nil, name: nil, entryPath: nil) == ["app", "u"])
    }
}
