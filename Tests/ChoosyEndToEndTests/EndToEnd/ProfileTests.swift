import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Profiles and private windows, end to end: the real binary, browsers installed the way
/// Debian, Flatpak and Snap install them (`Tests/Fixtures/debian-desktop-entries`,
/// `Tests/Fixtures/browser-profiles`) with each program replaced by a recorder at the same
/// place in the same `Exec`, and Firefox's `profiles.ini` and Chromium's `Local State` where
/// each variant keeps them under the sandbox's home.
@Suite struct ProfileTests {
    let sandbox = Sandbox()
    static let fixtures = Sandbox.packageRoot + "/Tests/Fixtures"
    static let url = "https://example.org/a?b=c"

    /// One way a browser is installed.
    struct Variant: CustomTestStringConvertible, Sendable {
        var app: String
        var id: String
        /// The fixture, below `Tests/Fixtures`.
        var fixture: String
        /// Where the entry goes, below the sandbox's root.
        var directory: String
        /// The entry's program → the recorder that stands in for it.
        var programs: [String: String]
        /// The recorder the launch reaches.
        var recorder: String
        /// The profile list, below the sandbox's home, and the fixture it is.
        var profileList: String
        /// The profile called Work, as its arguments give it.
        var workArguments: [String]
        var privateArguments: [String]
        /// The recorded argv (argv[0] left out) around the inserted arguments.
        var before: [String]
        var after: [String]

        var testDescription: String { id }

        static let flatpakExports = "home/.local/share/flatpak/exports/share/applications"
        static let snapDesktop = "var/lib/snapd/desktop/applications"

        static func flatpakRun(_ command: String, _ id: String) -> [String] {
            ["run", "--branch=stable", "--arch=x86_64", "--command=\(command)", "--file-forwarding", id]
        }
    }

    static let variants: [Variant] = [
        Variant(
            app: "firefox", id: "firefox-esr.desktop", fixture: "debian-desktop-entries/firefox-esr/firefox-esr.desktop",
            directory: "usr/share/applications", programs: ["/usr/lib/firefox-esr/firefox-esr": "firefox-esr"], recorder: "firefox-esr",
            profileList: ".mozilla/firefox/profiles.ini", workArguments: ["-P", "Work"], privateArguments: ["--private-window"],
            before: [], after: [url]
        ),
        Variant(
            app: "firefox", id: "org.mozilla.firefox.desktop", fixture: "browser-profiles/org.mozilla.firefox.desktop",
            directory: Variant.flatpakExports, programs: ["/usr/bin/flatpak": "flatpak"], recorder: "flatpak",
            profileList: ".var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini", workArguments: ["-P", "Work"],
            privateArguments: ["--private-window"],
            before: Variant.flatpakRun("firefox", "org.mozilla.firefox"), after: ["@@u", url, "@@"]
        ),
        Variant(
            app: "firefox", id: "firefox_firefox.desktop", fixture: "browser-profiles/firefox_firefox.desktop",
            directory: Variant.snapDesktop, programs: ["/snap/bin/firefox": "snap-firefox"], recorder: "snap-firefox",
            profileList: "snap/firefox/common/.mozilla/firefox/profiles.ini", workArguments: ["-P", "Work"],
            privateArguments: ["--private-window"], before: [], after: [url]
        ),
        Variant(
            app: "chromium", id: "chromium.desktop", fixture: "debian-desktop-entries/chromium/chromium.desktop",
            directory: "usr/share/applications", programs: ["/usr/bin/chromium": "chromium"], recorder: "chromium",
            profileList: ".config/chromium/Local State", workArguments: ["--profile-directory=Profile 1"],
            privateArguments: ["--incognito"], before: [], after: [url]
        ),
        Variant(
            app: "chromium", id: "org.chromium.Chromium.desktop", fixture: "browser-profiles/org.chromium.Chromium.desktop",
            directory: Variant.flatpakExports, programs: ["/usr/bin/flatpak": "flatpak"], recorder: "flatpak",
            profileList: ".var/app/org.chromium.Chromium/config/chromium/Local State", workArguments: ["--profile-directory=Profile 1"],
            privateArguments: ["--incognito"],
            before: Variant.flatpakRun("chromium", "org.chromium.Chromium"), after: ["@@u", url, "@@"]
        ),
        Variant(
            app: "chromium", id: "chromium_chromium.desktop", fixture: "browser-profiles/chromium_chromium.desktop",
            directory: Variant.snapDesktop, programs: ["/snap/bin/chromium": "snap-chromium"], recorder: "snap-chromium",
            profileList: "snap/chromium/common/chromium/Local State", workArguments: ["--profile-directory=Profile 1"],
            privateArguments: ["--incognito"], before: [], after: [url]
        ),
    ]

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.overrides["XDG_DATA_DIRS"] = [Variant.flatpakExports, "usr/share", "var/lib/snapd/desktop"]
            .map { dir in sandbox.root + "/" + dir.replacingOccurrences(of: "/applications", with: "") }
            .joined(separator: ":")
    }

    /// Installs a variant as its package does, and its profile list with the fixture's profiles.
    func install(_ variant: Variant) {
        var entry = String(decoding: FileManager.default.contents(atPath: Self.fixtures + "/" + variant.fixture)!, as: UTF8.self)
        for (program, recorder) in variant.programs {
            entry = entry.replacingOccurrences(of: program, with: sandbox.recorder(recorder))
        }
        sandbox.desktopEntry(variant.id, entry, directory: sandbox.root + "/" + variant.directory)
        let list = variant.profileList.hasSuffix("profiles.ini") ? "profiles.ini" : "Local State"
        sandbox.write(sandbox.home + "/" + variant.profileList, fixture("browser-profiles/" + list))
    }

    func fixture(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: Self.fixtures + "/" + path)!, as: UTF8.self)
    }

    func open(_ arguments: [String], environment: [String: String] = [:]) -> Sandbox.Output {
        sandbox.choosy(["open", "browser", "browse", "url=\(Self.url)"] + arguments, environment: environment)
    }

    func open(_ arguments: String..., environment: [String: String] = [:]) -> Sandbox.Output {
        open(arguments, environment: environment)
    }

    // MARK: The arguments, for every variant, profile and private window

    @Test(arguments: variants)
    func profileAndPrivateArgumentsReachTheBrowserThroughItsWrapper(_ variant: Variant) throws {
        install(variant)
        let combinations: [(key: String, privately: Bool, inserted: [String])] = [
            (variant.app, false, []),
            (variant.app + "@Work", false, variant.workArguments),
            (variant.app, true, variant.privateArguments),
            (variant.app + "@Work", true, variant.workArguments + variant.privateArguments),
        ]
        for (run, combination) in combinations.enumerated() {
            let output = open(["--app", combination.key] + (combination.privately ? ["--private"] : []))
            #expect(output.status == 0, "\(combination.key): \(output.stderr)")
            let runs = sandbox.launched(variant.recorder, count: run + 1)
            #expect(runs.last == variant.before + combination.inserted + variant.after, "\(combination)")
        }
    }

    /// A site rule's profile and private window reach the browser as `--app KEY@NAME --private`
    /// would (doc/links-and-rules.md, "Site rules").
    @Test func aSiteRuleOpensItsSiteInItsProfileAndPrivately() throws {
        let variant = Self.variants[0]
        install(variant)
        let added = sandbox.choosy("rule", "add", "example.org", "--app", variant.app, "--profile", "Work", "--private")
        #expect(added.status == 0 && added.stderr == "", "\(added.stderr)")
        #expect(sandbox.choosy("handle", Self.url).status == 0)
        #expect(sandbox.launched(variant.recorder) == [variant.before + variant.workArguments + variant.privateArguments + variant.after])
        let tested = sandbox.choosy("rule", "test", Self.url)
        #expect(
            tested.stdout.hasPrefix("rule: example.org (firefox, profile Work, private window)\napp: firefox@Work\nargv: "),
            "\(tested.stdout)")
    }

    /// An app that the catalog gives no private arguments opens a private window through its
    /// entry's own action; an action without a URL field code gets the URL last.
    @Test func withoutCatalogArgumentsThePrivateWindowIsTheEntrysAction() throws {
        install(Self.variants[1])
        install(Self.variants[5])
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/browser.json",
            """
            [{"key": "browser", "apps": [
              {"key": "flatfox", "name": "Flatfox", "app_url_scheme": "http:", "desktop_ids": ["org.mozilla.firefox.desktop"],
               "actions": [{"key": "browse", "url_format": "{{url}}"}],
               "profiles": {"format": "firefox", "args": ["-P", "{{profile}}"],
                            "paths": {"org.mozilla.firefox.desktop": "~/.var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini"}}},
              {"key": "snapium", "name": "Snapium", "app_url_scheme": "http:", "desktop_ids": ["chromium_chromium.desktop"],
               "actions": [{"key": "browse", "url_format": "{{url}}"}],
               "profiles": {"format": "chromium", "args": ["--profile-directory={{profile}}"],
                            "paths": {"chromium_chromium.desktop": "~/snap/chromium/common/chromium/Local State"}}}
            ]}]
            """)
        #expect(open("--app", "flatfox@Work", "--private").status == 0)
        #expect(
            sandbox.launched("flatpak") == [
                Variant.flatpakRun("firefox", "org.mozilla.firefox") + ["--private-window", "-P", "Work", "@@u", Self.url, "@@"]
            ])
        #expect(open("--app", "snapium@Work", "--private").status == 0)
        #expect(sandbox.launched("snap-chromium") == [["--incognito", "--profile-directory=Profile 1", Self.url]])
        let described = sandbox.choosy("describe", "browser")
        #expect(described.stdout.contains("firefox_firefox.desktop") == false)
        #expect(
            described.stdout.contains(
                "chromium_chromium.desktop actions: NewWindow (Open a New Window), Incognito (Open a New Window in incognito mode) [private window], TempProfile"
            ), "\(described.stdout)")
    }

    @Test func anAppWithoutAPrivateFormIsRefusedNamingThoseThatCan() throws {
        install(Self.variants[0])
        sandbox.installApp("org.gnome.Epiphany.desktop", name: "Web", program: "epiphany", mimeTypes: ["x-scheme-handler/https"])
        let output = open("--app", "gnome_web", "--private")
        #expect(output.status == 3)
        #expect(output.stderr == "choosy: GNOME Web cannot open a private window (apps that can: Firefox)\n")
        #expect(sandbox.recordedRuns("epiphany").isEmpty)
        // The picker offers only the apps that can.
        #expect(open("--private", environment: ["PICK": "Firefox — Work"]).status == 0)
        #expect(sandbox.pickerInvocations.last?.lines.contains("GNOME Web") == false)
        #expect(sandbox.launched("firefox-esr") == [["-P", "Work", "--private-window", Self.url]])
        // handle takes --private too.
        #expect(sandbox.choosy("handle", Self.url, "--app", "firefox", "--private").status == 0)
        #expect(sandbox.launched("firefox-esr", count: 2).last == ["--private-window", Self.url])
    }

    /// A default that cannot open a private window is refused for `--private`, never passed
    /// over; with no picker, `handle --private` falls back only to an app that can open one,
    /// never to the system's handler as it is; no app that can is exit 3.
    @Test func privateIsNeverDroppedAndADefaultThatCannotIsRefused() throws {
        install(Self.variants[0])
        sandbox.installApp("org.gnome.Epiphany.desktop", name: "Web", program: "epiphany", mimeTypes: ["x-scheme-handler/https"])
        #expect(sandbox.choosy("default", "browser", "gnome_web").status == 0)
        let refused = open("--private", "--dry-run")
        #expect(
            refused.status == 3 && refused.stderr == "choosy: GNOME Web cannot open a private window (apps that can: Firefox)\n",
            "\(refused.stderr)")
        #expect(sandbox.choosy("reset", "browser").status == 0)
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=org.gnome.Epiphany.desktop;\n")
        let noPicker = sandbox.choosy(["handle", Self.url, "--private", "--dry-run"], environment: sandbox.withoutPickers())
        #expect(noPicker.status == 0, "\(noPicker.stderr)")
        #expect(
            noPicker.stdout.hasSuffix(" --private-window '\(Self.url)'\n") && noPicker.stdout.contains("firefox-esr"), "\(noPicker.stdout)")
        #expect(!noPicker.stdout.contains("epiphany"))

        try FileManager.default.removeItem(atPath: sandbox.root + "/" + Self.variants[0].directory + "/" + Self.variants[0].id)
        let none = sandbox.choosy("handle", Self.url, "--private", "--dry-run")
        #expect(
            none.status == 3 && none.stderr == "choosy: GNOME Web cannot open a private window (no installed app of Browser can)\n",
            "\(none.stderr)")
    }

    /// With no picker, `handle` opens the link in the user's own default as it was chosen
    /// (SPEC §6): its profile, and with `--private` its private window, though a new browser
    /// appeared since and the system's handler is another one (doc/desktop.md).
    @Test func withNoPickerHandleOpensTheDefaultInItsProfileAndPrivately() throws {
        let variant = Self.variants[0]
        install(variant)
        #expect(sandbox.choosy("default", "browser", "firefox@Work").status == 0)
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/https"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        let output = sandbox.choosy(["handle", Self.url], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched(variant.recorder) == [variant.workArguments + [Self.url]])
        #expect(
            output.stderrLines == [
                "choosy: warning: no picker available, so the link opened with Firefox — Work, your default for Browser, just once (no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset)"
            ], "\(output.stderr)")
        let privately = sandbox.choosy(["handle", Self.url, "--private"], environment: sandbox.withoutPickers())
        #expect(privately.status == 0, "\(privately.stderr)")
        #expect(sandbox.launched(variant.recorder, count: 2).last == variant.workArguments + variant.privateArguments + [Self.url])
        #expect(
            privately.stderr.contains("the link opened in a private window with Firefox — Work, your default"), "\(privately.stderr)")

        // Nothing was remembered: with a picker, the new browser is offered.
        let picked = sandbox.choosy(["handle", Self.url], environment: ["PICK": "Firefox — Work"])
        #expect(picked.status == 0, "\(picked.stderr) \(sandbox.pickerInvocations)")
        #expect(sandbox.pickerInvocations.count == 1)

        // No default: the system's handler, in a private window, as it is one of the apps that can.
        #expect(sandbox.choosy("reset", "browser").status == 0)
        let system = sandbox.choosy(["handle", Self.url, "--private"], environment: sandbox.withoutPickers())
        #expect(system.status == 0, "\(system.stderr)")
        #expect(sandbox.launched("chromium", count: 1) == [["--incognito", Self.url]])
        #expect(system.stderr.contains("with Chromium, the system's handler for https: links"), "\(system.stderr)")
        #expect(sandbox.recordedRuns(variant.recorder).count == 3)
    }

    /// `rule add` checks what it can of an installed app (its profile, its private window), and
    /// takes `--app KEY@PROFILE`; a rule whose profile is gone later is kept and warned about.
    @Test func ruleProfilesAndPrivateWindowsAreChecked() throws {
        install(Self.variants[0])
        sandbox.installApp("org.gnome.Epiphany.desktop", name: "Web", program: "epiphany", mimeTypes: ["x-scheme-handler/https"])
        #expect(sandbox.choosy("rule", "add", "example.org", "--app", "firefox", "--profile", "Nope").status == 3)
        let privately = sandbox.choosy("rule", "add", "example.org", "--app", "gnome_web", "--private")
        #expect(privately.status == 3 && privately.stderr.contains("cannot open a private window"), "\(privately.stderr)")
        let added = sandbox.choosy("rule", "add", "example.org", "--app", "firefox@Work")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(sandbox.choosy("rule", "list").stdout.contains("firefox"))
        #expect(sandbox.choosy("rule", "test", Self.url).stdout.contains("app: firefox@Work"))

        let profiles = sandbox.home + "/" + Self.variants[0].profileList
        sandbox.write(profiles, sandbox.read(profiles)!.replacingOccurrences(of: "Name=Work\n", with: "Name=Office\n"))
        #expect(sandbox.choosy("default", "browser", "gnome_web").status == 0)
        let handled = sandbox.dryRunBesideWhy(["handle", Self.url, "--dry-run"])
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(
            handled.stderr
                == "choosy: warning: the site rule 'example.org' names the profile 'Work' of firefox, which is gone; deciding as usual\n")
        #expect(handled.stdout.contains("epiphany"), "\(handled.stdout)")
    }

    // MARK: Profiles as choices

    @Test func eachProfileIsAChoiceThatCanBeTheDefault() throws {
        install(Self.variants[0])
        install(Self.variants[3])
        let output = open(environment: ["PICK": "Chromium — Work (always)"])
        #expect(output.status == 0, "\(output.stderr)")
        let metacharacters = "Work; rm -rf ~ $(touch pwned) \"quoted\""
        // The newline of a Chromium display name is shown escaped (doc/security.md, "What choosy prints").
        #expect(
            sandbox.pickerInvocations.last?.lines
                == Sandbox.choiceLines(
                    "Firefox — \(metacharacters)", "Firefox — Work", "Firefox — default-release",
                    "Chromium — Person 1", "Chromium — Work", "Chromium — Side\\u{A}line $HOME `id`", site: "example.org"
                ))
        #expect(sandbox.launched("chromium") == [["--profile-directory=Profile 1", Self.url]])
        #expect(sandbox.choosy("default", "browser").stdout == "chromium@Work\n")
        // The default opens without asking.
        #expect(open().status == 0)
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched("chromium", count: 2).last == ["--profile-directory=Profile 1", Self.url])

        // Names are single argv elements whatever they hold; the default can be any choice.
        #expect(sandbox.choosy("default", "browser", "firefox@" + metacharacters).status == 0)
        #expect(open().status == 0)
        #expect(sandbox.launched("firefox-esr") == [["-P", metacharacters, Self.url]])
        #expect(!sandbox.exists("pwned"))
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        #expect(open().status == 0)
        #expect(sandbox.launched("firefox-esr", count: 2).last == [Self.url])
        #expect(sandbox.pickerInvocations.count == 1)
    }

    /// The picker's lines for the fixture's profiles with the containers of `containers.json` in Work.
    static let workContainerChoiceLines = Sandbox.choiceLines(
        "Firefox — Work; rm -rf ~ $(touch pwned) \"quoted\"", "Firefox — Work", "Firefox — Work — Personal", "Firefox — Work — Work",
        "Firefox — Work — Banking", "Firefox — Work — Shopping", "Firefox — Work — Side project & co", "Firefox — default-release",
        site: "example.org")

    /// With the container extension active in a profile, each public container of its
    /// `containers.json` is a choice, opened in that profile through the extension's link;
    /// a profile without the extension, or with it disabled, offers none.
    @Test func containersOfAProfileWithTheExtensionAreChoices() throws {
        let firefox = Self.variants[0]
        install(firefox)
        let work = sandbox.home + "/.mozilla/firefox/Profiles/k2l3m4n5.Work"
        sandbox.write(work + "/containers.json", fixture("browser-profiles/containers.json"))
        sandbox.write(work + "/extensions.json", fixture("browser-profiles/extensions.json"))
        // The default profile has containers but not the extension.
        sandbox.write(
            sandbox.home + "/.mozilla/firefox/Profiles/x9y8z7w6.default-release/containers.json",
            fixture("browser-profiles/containers.json"))

        #expect(open(environment: ["PICK": "Firefox — Work — Banking"]).status == 0)
        #expect(
            sandbox.pickerInvocations.last?.lines == Self.workContainerChoiceLines)
        let link = "ext+container:name=Banking&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc"
        #expect(sandbox.launched("firefox-esr") == [["-P", "Work", link]])

        // The key is the profile, `/` and the container: for --app, defaults, rules, list and completion.
        #expect(open("--app", "firefox@Work/Side project & co").status == 0)
        #expect(
            sandbox.launched("firefox-esr", count: 2).last == [
                "-P", "Work", "ext+container:name=Side%20project%20%26%20co&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc",
            ])
        #expect(sandbox.choosy("default", "browser", "firefox@Work/Shopping").status == 0)
        #expect(open().status == 0)
        #expect(
            sandbox.launched("firefox-esr", count: 3).last?.last == "ext+container:name=Shopping&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc")
        #expect(sandbox.choosy("rule", "add", "bank.example", "--app", "firefox", "--profile", "Work/Banking").status == 0)
        #expect(sandbox.choosy("handle", "https://bank.example/login").status == 0)
        #expect(
            sandbox.launched("firefox-esr", count: 4).last == [
                "-P", "Work", "ext+container:name=Banking&url=https%3A%2F%2Fbank.example%2Flogin",
            ])
        let listed = sandbox.choosy("list", "browser", "--json").stdout
        #expect(listed.contains("\"Work/Personal\""), "\(listed)")
        let completed = sandbox.choosy("__complete", "open", "browser", "browse", "--app", "firefox@Work/B").stdout
        #expect(completed.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == ["firefox@Work/Banking"])

        // A container that is removed is forgotten like a removed profile.
        sandbox.write(
            work + "/containers.json", #"{"version":5,"identities":[{"l10nId":"user-context-personal","public":true,"userContextId":1}]}"#)
        #expect(open(environment: ["PICK": "Firefox — Work — Personal"]).status == 0)
        #expect(
            sandbox.launched("firefox-esr", count: 5).last?.last == "ext+container:name=Personal&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc")
        #expect(sandbox.choosy("default", "browser").stdout == "", "the default's container is gone, so is the default")

        // Disabled, the extension offers nothing.
        sandbox.write(
            work + "/extensions.json",
            fixture("browser-profiles/extensions.json").replacingOccurrences(of: "\"active\":true", with: "\"active\":false"))
        #expect(open("--app", "firefox@Work/Personal").status == 3)
        #expect(open(environment: ["PICK": "Firefox — Work"]).status == 0)
        #expect(!(sandbox.pickerInvocations.last?.lines ?? []).contains { $0.contains("Personal") })
    }

    /// A profile made before Firefox's Fluent names keeps its built-in containers by the older
    /// `l10nID` (`userContextPersonal.label`): they are offered by their English names too.
    @Test func containersNamedByTheOlderL10nIDAreChoices() throws {
        install(Self.variants[0])
        let work = sandbox.home + "/.mozilla/firefox/Profiles/k2l3m4n5.Work"
        sandbox.write(work + "/containers.json", fixture("browser-profiles/containers-l10nID.json"))
        sandbox.write(work + "/extensions.json", fixture("browser-profiles/extensions.json"))
        #expect(open(environment: ["PICK": "Firefox — Work — Shopping"]).status == 0)
        #expect(
            sandbox.pickerInvocations.last?.lines == Self.workContainerChoiceLines)
        #expect(
            sandbox.launched("firefox-esr") == [["-P", "Work", "ext+container:name=Shopping&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc"]])
    }

    /// A profile named `Work/Banking` and the Banking container of Work are two choices with two
    /// keys: `firefox@Work/Banking` is the container (doc/profiles.md, "Keys"), the profile's
    /// `/` is written `%2F`; each opens, by key, default and picker alike.
    @Test func aProfileWithASlashAndAContainerNeverShareAKey() throws {
        install(Self.variants[0])
        let root = sandbox.home + "/.mozilla/firefox"
        sandbox.write(
            root + "/profiles.ini",
            """
            [Profile0]
            Name=Work
            IsRelative=1
            Path=Profiles/w.Work

            [Profile1]
            Name=Work/Banking
            IsRelative=1
            Path=Profiles/b.Banking

            [Profile2]
            Name=100%2F
            IsRelative=1
            Path=Profiles/p.Percent

            """)
        sandbox.write(root + "/Profiles/w.Work/containers.json", fixture("browser-profiles/containers.json"))
        sandbox.write(root + "/Profiles/w.Work/extensions.json", fixture("browser-profiles/extensions.json"))
        let container = ["-P", "Work", "ext+container:name=Banking&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc"]

        #expect(open(environment: ["PICK": "Firefox — Work/Banking (always)"]).status == 0)
        let lines = sandbox.pickerInvocations.last?.lines ?? []
        #expect(lines.contains("Firefox — Work/Banking") && lines.contains("Firefox — Work — Banking"), "\(lines)")
        #expect(sandbox.launched("firefox-esr") == [["-P", "Work/Banking", Self.url]])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox@Work%2FBanking\n")
        #expect(open().status == 0)
        #expect(sandbox.launched("firefox-esr", count: 2).last == ["-P", "Work/Banking", Self.url])

        #expect(open("--app", "firefox@Work/Banking").status == 0)
        #expect(sandbox.launched("firefox-esr", count: 3).last == container)
        #expect(sandbox.choosy("rule", "add", "example.org", "--app", "firefox", "--profile", "Work/Banking").status == 0)
        #expect(sandbox.choosy("handle", Self.url).status == 0)
        #expect(sandbox.launched("firefox-esr", count: 4).last == container)
        // A name holding what an escaped one holds is escaped too, so it cannot be taken for another's.
        #expect(open("--app", "firefox@100%252F").status == 0)
        #expect(sandbox.launched("firefox-esr", count: 5).last == ["-P", "100%2F", Self.url])

        let completed = sandbox.choosy("__complete", "open", "browser", "browse", "--app", "firefox@Work").stdout
        let keys = completed.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(keys.contains("firefox@Work%2FBanking") && keys.contains("firefox@Work/Banking"), "\(keys)")
        #expect(Set(keys).count == keys.count)
    }

    /// A `Path` neither absolute nor marked `IsRelative=1` would be read below whatever
    /// directory choosy runs in: Firefox skips such a profile, and so does choosy, with one
    /// line under `-v`; its would-be containers in the working directory are never read.
    @Test func aRelativePathWithoutIsRelativeIsRefused() throws {
        install(Self.variants[0])
        let list = sandbox.home + "/" + Self.variants[0].profileList
        sandbox.write(list, fixture("browser-profiles/profiles.ini") + "\n[Profile4]\nName=Elsewhere\nPath=Profiles/cwd.Elsewhere\n")
        // choosy runs in the sandbox's root: the directory the path would name there.
        sandbox.write(sandbox.root + "/Profiles/cwd.Elsewhere/containers.json", fixture("browser-profiles/containers.json"))
        sandbox.write(sandbox.root + "/Profiles/cwd.Elsewhere/extensions.json", fixture("browser-profiles/extensions.json"))
        let output = sandbox.choosy(["-v", "open", "browser", "browse", "url=\(Self.url)"], environment: ["PICK": "Firefox — Work"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!(sandbox.pickerInvocations.last?.lines ?? []).contains { $0.contains("Elsewhere") })
        #expect(
            output.stderrLines.filter { $0.contains("'Elsewhere'") && $0.contains("without IsRelative=1") }.count == 1, "\(output.stderr)")
        #expect(open("--app", "firefox@Elsewhere").status == 3)
    }

    /// A private window has no containers (doc/profiles.md): `--private` with a container's key
    /// is refused in one line with status 2, and nothing starts; its profile opens private.
    @Test func aContainerInAPrivateWindowIsRefused() throws {
        install(Self.variants[0])
        let work = sandbox.home + "/.mozilla/firefox/Profiles/k2l3m4n5.Work"
        sandbox.write(work + "/containers.json", fixture("browser-profiles/containers.json"))
        sandbox.write(work + "/extensions.json", fixture("browser-profiles/extensions.json"))

        for refused in [
            open("--app", "firefox@Work/Banking", "--private"),
            sandbox.choosy("rule", "add", "bank.example", "--app", "firefox@Work/Banking", "--private"),
        ] {
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(
                refused.stderrLines.count == 1 && refused.stderr.contains("containers do not apply to private windows"), "\(refused.stderr)"
            )
        }
        #expect(sandbox.choosy("rule", "list").stdout.isEmpty)
        #expect(open("--app", "firefox@Work", "--private").status == 0)
        #expect(sandbox.launched("firefox-esr") == [["-P", "Work", "--private-window", Self.url]])
    }

    /// Two Chromium profiles named "Person 1" are two choices, each shown with its directory.
    @Test func chromiumProfilesWithEqualNamesAreTwoChoices() throws {
        let chromium = Self.variants[3]
        install(chromium)
        sandbox.write(
            sandbox.home + "/" + chromium.profileList,
            """
            {"profile": {"info_cache": {"Default": {"name": "Person 1"}, "Profile 2": {"name": "Person 1"}}}}
            """)
        #expect(open(environment: ["PICK": "Chromium — Person 1 (Profile 2)"]).status == 0)
        #expect(
            sandbox.pickerInvocations.last?.lines
                == Sandbox.choiceLines("Chromium — Person 1 (Default)", "Chromium — Person 1 (Profile 2)", site: "example.org"))
        #expect(sandbox.launched("chromium") == [["--profile-directory=Profile 2", Self.url]])
        #expect(open("--app", "chromium@Person 1 (Default)").status == 0)
        #expect(sandbox.launched("chromium", count: 2).last == ["--profile-directory=Default", Self.url])
    }

    @Test func aNewProfileAsksAgainAndADeletedOneIsForgotten() throws {
        let firefox = Self.variants[0]
        install(firefox)
        #expect(sandbox.choosy("default", "browser", "firefox@Work").status == 0)
        #expect(open().status == 0)
        #expect(sandbox.pickerInvocations.isEmpty)

        let list = sandbox.home + "/" + firefox.profileList
        sandbox.write(list, fixture("browser-profiles/profiles.ini") + "\n[Profile4]\nName=Travel\nIsRelative=1\nPath=Profiles/t.Travel\n")
        #expect(open(environment: ["PICK": "Firefox — Work"]).status == 0)
        // The default first.
        #expect(
            sandbox.pickerInvocations.last?.lines.prefix(4) == [
                "Firefox — Work", "Firefox — Work (always)", "Firefox — Work (always for example.org)",
                "Firefox — Work; rm -rf ~ $(touch pwned) \"quoted\"",
            ])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox@Work\n")
        #expect(open().status == 0)
        #expect(sandbox.pickerInvocations.count == 1, "the new profile was seen")

        sandbox.write(list, "[Profile0]\nName=default-release\nIsRelative=1\nPath=a\n\n[Profile1]\nName=Travel\nIsRelative=1\nPath=b\n")
        #expect(open(environment: ["PICK": "Firefox — Travel"]).status == 0)
        #expect(sandbox.pickerInvocations.count == 2)
        #expect(sandbox.choosy("default", "browser").stdout == "", "the default's profile is gone, so is the default")
        #expect(sandbox.launched("firefox-esr", count: 4).last == ["-P", "Travel", Self.url])
    }

    @Test func profileKeysAreCheckedAndAnOptionIsNeverAName() throws {
        install(Self.variants[0])
        sandbox.installApp("org.gnome.Epiphany.desktop", name: "Web", program: "epiphany", mimeTypes: ["x-scheme-handler/https"])
        let option = open("--app", "firefox@--foo")
        #expect(option.status == 2)
        #expect(option.stderr == "choosy: profile name '--foo' starts with '-': Firefox would read it as an option\n")
        let missing = sandbox.choosy("default", "browser", "firefox@Wrk")
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("unknown profile 'Wrk' of Firefox (its profiles: "), "\(missing.stderr)")
        #expect(missing.stderr.contains("(did you mean 'Work'?)"))
        #expect(sandbox.choosy("default", "browser", "gnome_web@Work").status == 3)
        #expect(sandbox.choosy("default", "browser", "chromium@Work").status == 4)
        // The profile a browser would misread is not offered.
        #expect(open(environment: ["PICK": ""]).status == 5)
        #expect(sandbox.pickerInvocations.last?.lines.contains { $0.contains("--foo") } == false)
    }

    @Test func listShowsProfilesAndPrivateWindows() throws {
        install(Self.variants[1])
        sandbox.installApp("org.gnome.Epiphany.desktop", name: "Web", program: "epiphany", mimeTypes: ["x-scheme-handler/https"])
        let output = sandbox.choosy("list", "browser", "--json")
        let types = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let apps = try #require(types.first?["apps"] as? [[String: Any]])
        let firefox = try #require(apps.first { $0["key"] as? String == "firefox" })
        #expect(firefox["profiles"] as? [String] == ["Work; rm -rf ~ $(touch pwned) \"quoted\"", "Work", "default-release"])
        #expect(firefox["private"] as? Bool == true)
        let web = try #require(apps.first { $0["key"] as? String == "gnome_web" })
        #expect(web["profiles"] as? [String] == [] && web["private"] as? Bool == false)
        let chromium = try #require(apps.first { $0["key"] as? String == "chromium" })
        #expect(chromium["installed"] as? Bool == false && chromium["private"] as? Bool == true)

        let text = sandbox.choosy("list", "browser").stdout
        #expect(text.contains("firefox@Work  "), "\(text)")
        #expect(text.contains("Firefox — default-release"))
        // Completion offers the profiles after `app@`.
        let completed = sandbox.choosy("__complete", "open", "browser", "browse", "--app", "firefox@W").stdout
        #expect(
            completed.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == [
                "firefox@Work; rm -rf ~ $(touch pwned) \"quoted\"", "firefox@Work",
            ])
    }

    // MARK: Bad profile lists, and what is read when

    @Test func unreadableProfileListsAreSkippedWithOneLineUnderVerbose() throws {
        install(Self.variants[0])
        install(Self.variants[3])
        sandbox.writeBytes(sandbox.home + "/" + Self.variants[0].profileList, [0xFF, 0x00, 0x5B] + Array("Profile0]\nName\n=\n[[[".utf8))
        sandbox.write(sandbox.home + "/" + Self.variants[3].profileList, "{\"profile\": {\"info_cache\": {\"Default\": ")
        let output = sandbox.choosy(["-v", "open", "browser", "browse", "url=\(Self.url)"], environment: ["PICK": "Chromium"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox", "Chromium", site: "example.org"))
        let skipped = output.stderrLines.filter { $0.contains("skipping the profile list") }
        #expect(skipped.count == 1 && skipped[0].contains("Local State"), "\(output.stderr)")
        #expect(!output.stderr.contains("warning"))
    }

    @Test func aLocalStateOfSeveralMegabytesIsRead() throws {
        install(Self.variants[3])
        // Real files are mostly other state: here 5 MB of it around the profiles.
        let filler = "[" + Array(repeating: "{\"k\":\"\(String(repeating: "x", count: 90))\"}", count: 50_000).joined(separator: ",") + "]"
        sandbox.write(
            sandbox.home + "/" + Self.variants[3].profileList,
            """
            {"extensions": \(filler), "profile": {"info_cache": {"Profile 3": {"name": "Big"}, "Default": {"name": "Person 1"}}}}
            """)
        #expect(open("--app", "chromium@Big").status == 0)
        #expect(sandbox.launched("chromium") == [["--profile-directory=Profile 3", Self.url]])
    }

    @Test func profileListsAreReadOnlyWhenAChoiceNeedsThem() throws {
        install(Self.variants[0])
        let read = "profile(s) in"
        #expect(!sandbox.choosy(["-v", "url", "email", "compose", "to=ada@example.org"]).stderr.contains(read))
        #expect(
            !sandbox.choosy(["-v", "open", "browser", "browse", "url=\(Self.url)", "--app", "firefox", "--dry-run"]).stderr.contains(read))
        #expect(!sandbox.choosy(["-v", "list"]).stderr.contains(read))
        #expect(sandbox.choosy(["-v", "url", "browser", "browse", "url=\(Self.url)", "--picker", "false"]).stderr.contains(read))
        // A catalog link whose type's default decides: the browsers its picker would offer
        // beside the app ("Firefox — Work (web page)") are not looked at.
        sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")
        #expect(sandbox.choosy("default", "chat", "telegram_desktop").status == 0)
        let decided = sandbox.choosy(["-v", "handle", "https://t.me/durov", "--dry-run"])
        #expect(decided.status == 0 && decided.stdout.contains("tg://resolve?domain=durov"), "\(decided.stdout)\(decided.stderr)")
        #expect(!decided.stderr.contains(read), "\(decided.stderr)")
    }
}
