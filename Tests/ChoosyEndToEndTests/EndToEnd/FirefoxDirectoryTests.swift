import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Where Firefox keeps its profiles (doc/profiles.md): the directory the browser itself uses, a new
/// user's `$XDG_CONFIG_HOME/mozilla/firefox/` or an existing `~/.mozilla/firefox/`, checked
/// with the profile list the real firefox-esr wrote (`Tests/Fixtures/firefox-esr`) and, where
/// it is installed, with the real browser creating profiles in the sandbox.
extension ProfileTests {
    static let firefoxESR = "/usr/bin/firefox-esr"

    /// Runs the real `firefox-esr --headless -CreateProfile NAME` with the sandbox's
    /// environment (its HOME and XDG directories), as a new user would. A NAME with a space
    /// would be read as "NAME PATH".
    func createProfileWithTheRealFirefox(_ name: String, environment extra: [String: String] = [:]) throws {
        var variables = sandbox.environment
        for (variable, value) in extra { variables[variable] = value.isEmpty ? nil : value }
        // Nothing captured: the crash helper it starts would hold a pipe open after it exits.
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: [Self.firefoxESR, "--headless", "-CreateProfile", name], environment: variables,
                workingDirectory: sandbox.home, stdout: .discard, stderr: .discard, timeout: 60
            ))
        try #require(result.status == 0, "firefox-esr -CreateProfile \(name): exit \(result.status)")
    }

    @Test func aNewUsersProfilesAreReadFromTheXDGConfigDirectory() throws {
        let firefox = Self.variants[0]
        install(firefox)
        try FileManager.default.removeItem(atPath: sandbox.home + "/.mozilla")
        sandbox.write(sandbox.configHome + "/mozilla/firefox/profiles.ini", fixture("firefox-esr/profiles.ini"))
        let output = open(environment: ["PICK": "Firefox — Work"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox — Personal", "Firefox — Work", site: "example.org"))
        #expect(sandbox.launched(firefox.recorder) == [["-P", "Work", Self.url]])
        // An existing ~/.mozilla/firefox/ stays in use, as Firefox keeps it.
        sandbox.write(
            sandbox.home + "/.mozilla/firefox/profiles.ini",
            "[Profile0]\nName=Old\nIsRelative=1\nPath=o\n[Profile1]\nName=Older\nIsRelative=1\nPath=p\n")
        let listed = sandbox.choosy("list", "browser").stdout
        #expect(listed.contains("firefox@Old ") && !listed.contains("firefox@Work"), "\(listed)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: firefoxESR), "needs Debian's firefox-esr (apt-get install -y firefox-esr)"))
    func profilesTheRealFirefoxCreatesAreFoundPickedAndLaunched() throws {
        let firefox = Self.variants[0]
        install(firefox)
        // A new user: no ~/.mozilla at all.
        try FileManager.default.removeItem(atPath: sandbox.home + "/.mozilla")
        try createProfileWithTheRealFirefox("Work")
        try createProfileWithTheRealFirefox("Personal")
        #expect(sandbox.exists(sandbox.configHome + "/mozilla/firefox/profiles.ini"))
        #expect(open("--app", "firefox@Work").status == 0)
        #expect(sandbox.launched(firefox.recorder) == [["-P", "Work", Self.url]])
        #expect(open(environment: ["PICK": "Firefox — Personal (always)"]).status == 0)
        #expect(sandbox.launched(firefox.recorder, count: 2).last == ["-P", "Personal", Self.url])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox@Personal\n")

        // Its own XDG_CONFIG_HOME, and an existing ~/.mozilla/firefox/, as the browser decides.
        let own = sandbox.root + "/own-config"
        try createProfileWithTheRealFirefox("Elsewhere", environment: ["XDG_CONFIG_HOME": own])
        #expect(
            sandbox.dryRunBesideWhy(
                ["open", "browser", "browse", "url=\(Self.url)", "--app", "firefox@Elsewhere", "--dry-run"],
                environment: ["XDG_CONFIG_HOME": own]
            ).status == 0)
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.mozilla/firefox", withIntermediateDirectories: true)
        try createProfileWithTheRealFirefox("Legacy")
        try createProfileWithTheRealFirefox("Archive")
        #expect(sandbox.exists(sandbox.home + "/.mozilla/firefox/profiles.ini"))
        let listed = sandbox.choosy("list", "browser").stdout
        #expect(listed.contains("firefox@Legacy ") && !listed.contains("firefox@Work"), "\(listed)")
    }

    /// `--choose` offers a plain-key default (the browser's own default profile) first, though
    /// it is no choice of its own beside the profiles.
    @Test func chooseOffersAPlainKeyDefaultFirst() throws {
        install(Self.variants[3])
        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        let output = open(["--choose"], environment: ["PICK": "Chromium"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines.prefix(3) == ["Chromium", "Chromium (always)", "Chromium (always for example.org)"])
        #expect(sandbox.pickerInvocations.last?.lines.contains("Chromium — Work") == true)
        #expect(sandbox.launched("chromium") == [[Self.url]])
        #expect(sandbox.choosy("default", "browser").stdout == "chromium\n")
    }

    /// A desktop ID is no app key, but says which app was meant; the keys of apps no catalog
    /// names, as `list` prints them, are taken by `--app` and completed.
    @Test func appKeysAsListPrintsThemAndDesktopIDsAsSuggestions() throws {
        install(Self.variants[0])
        sandbox.installApp("org.example.Surf.desktop", name: "Surf", program: "surf", mimeTypes: ["x-scheme-handler/https"])
        for typed in ["firefox-esr", "firefox_esr", "firefox-esr.desktop"] {
            let output = open("--app", typed)
            #expect(
                output.status == 3 && output.stderr == "choosy: unknown app '\(typed)' for Browser (did you mean 'firefox'?)\n",
                "\(output.stderr)")
        }
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(sandbox.choosy("list", "--json").stdout.utf8)) as? [[String: Any]])
        for type in listed {
            for app in type["apps"] as? [[String: Any]] ?? [] where app["installed"] as? Bool == true {
                let key = try #require(app["key"] as? String)
                // A web app goes round through the browser, whose profiles are asked for.
                let output = sandbox.choosy(
                    ["open", try #require(type["key"] as? String), "--app", key, "--dry-run"], environment: ["PICK": "Firefox — Work"])
                #expect(output.status == 0, "\(key): \(output.stderr)")
            }
        }
        #expect(sandbox.choosy("__complete", "open", "browser", "browse", "--app", "org_").stdout.hasPrefix("org_example_surf\t"))
    }
}
