import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// Firefox's `profiles.ini` and Chromium's `Local State`, read as the browsers write them and
/// as crashes and hand edits leave them.
@Suite struct ProfileListTests {
    static let fixtures = Sandbox.packageRoot + "/Tests/Fixtures/browser-profiles/"

    func fixture(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: Self.fixtures + name)!)
    }

    func names(_ text: String) -> [String] {
        FirefoxProfileList.profiles(in: Array(text.utf8)).map(\.name)
    }

    @Test func firefoxProfilesAreTheProfileGroupsInFileOrder() {
        let profiles = FirefoxProfileList.profiles(in: fixture("profiles.ini"))
        #expect(profiles.map(\.name) == ["Work; rm -rf ~ $(touch pwned) \"quoted\"", "Work", "default-release", "--foo"])
        // Firefox's -P takes the name.
        #expect(profiles.allSatisfy { $0.selector == $0.name })
    }

    /// Where each profile's directory is, and which names a profile group's store.
    @Test func firefoxEntriesHaveTheirDirectoriesAndStores() {
        let entries = FirefoxProfileList.entries(in: fixture("profiles.ini"))
        #expect(
            entries.map { $0.directory(root: "/r") } == [
                "/srv/profiles/work-elsewhere", "/r/Profiles/k2l3m4n5.Work", "/r/Profiles/x9y8z7w6.default-release",
                "/r/Profiles/aaaa0000.--foo",
            ])
        let group = FirefoxProfileList.entries(
            in: Array(
                "[Profile0]\nName=A\nIsRelative=1\nPath=a\nStoreID=0a1b2c3d\n[Profile1]\nName=B\nStoreID=\nIsRelative=yes\nPath=b\n".utf8))
        #expect(
            group == [
                FirefoxProfileList.Entry(name: "A", path: "a", isRelative: true, storeID: "0a1b2c3d"),
                FirefoxProfileList.Entry(name: "B", path: "b", isRelative: false, storeID: nil),
            ])
        #expect(FirefoxProfileList.Entry(name: "C").directory(root: "/r") == nil)
    }

    /// A profile group store's rows as Firefox's `Profiles` table holds them, read leniently.
    @Test func profileGroupRowsAreItsProfilesByID() {
        let rows: [[String?]] = [
            ["1", "Profiles/a.Original", "Original profile"],
            ["2", "/elsewhere/b.Work", "Work"],
            ["3", nil, "No path"], ["4", "Profiles/d", nil], ["5", "Profiles/e", "Line\nbreak"],
            ["6", "Profiles/a.Original", "Same directory"], ["7", "Profiles/g", "Work"], ["8", "Profiles/h"],
            ["9", "Profiles/i.Shop", "Shopping"],
        ]
        let profiles = FirefoxProfileGroup.profiles(rows: rows, root: "/r")
        #expect(profiles.map(\.name) == ["Original profile", "Work", "Shopping"])
        #expect(profiles.map(\.directory) == ["/r/Profiles/a.Original", "/elsewhere/b.Work", "/r/Profiles/i.Shop"])
        let firefox = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", "{{profile}}"])
        #expect(profiles[1].arguments(firefox) == ["--profile", "/elsewhere/b.Work"])
        #expect(!BrowserProfile(name: "-x", selector: "-x", directory: "/d", inProfileGroup: true).looksLikeAnOption(firefox))
        #expect(FirefoxProfileGroup.storePath(root: "/r", storeID: "0a1b2c3d") == "/r/Profile Groups/0a1b2c3d.sqlite")
        for bad in ["", "../../etc/x", "a/b", "..", "a.b"] {
            #expect(FirefoxProfileGroup.storePath(root: "/r", storeID: bad) == nil, "\(bad)")
        }
    }

    /// A `Path` neither absolute nor `IsRelative=1` names no directory: Firefox skips such a
    /// profile, and a second profile of its name is the one `-P` opens.
    @Test func aRelativePathWithoutIsRelativeIsNoProfile() {
        let text = "[Profile0]\nName=A\nPath=rel\n[Profile1]\nName=B\nIsRelative=0\nPath=/abs\n[Profile2]\nName=A\nIsRelative=1\nPath=a\n"
        let entries = FirefoxProfileList.entries(in: Array(text.utf8))
        #expect(entries.map(\.name) == ["A", "B", "A"])
        #expect(entries.map(\.hasUsablePath) == [false, true, true])
        #expect(entries.map { $0.directory(root: "/r") } == [nil, "/abs", "/r/a"])
        #expect(names(text) == ["B", "A"])
    }

    /// The containers of `containers.json` as Firefox writes it today (`l10nId`) and as it did
    /// before its Fluent names (`l10nID`): the same English names, each once.
    @Test func containersAreNamedByEitherFormOfTheirLocalizationID() throws {
        let today = FirefoxContainers.names(in: fixture("containers.json"))
        let older = FirefoxContainers.names(in: fixture("containers-l10nID.json"))
        #expect(today == ["Personal", "Work", "Banking", "Shopping", "Side project & co"])
        #expect(older == today)
        let repeated =
            #"{"identities": [{"name": "A", "public": true}, {"l10nID": "userContextWork.label", "public": true}, {"l10nId": "user-context-work", "public": true}, {"name": "A", "public": true}, {"l10nID": "unknown.label", "public": true}]}"#
        #expect(FirefoxContainers.names(in: Array(repeated.utf8)) == ["A", "Work"])
    }

    @Test func firefoxListsSurviveWhatCrashesAndHandsLeave() {
        // [Install…] and [General] say nothing of names; a group without a Name is no profile.
        #expect(names("[Install1]\nName=no\n[General]\nName=no\n[Profile0]\nPath=x\n[Profile1]\r\nName = Spaced \r\n") == ["Spaced"])
        // A second profile of the same name would be opened as the first.
        #expect(names("[Profile0]\nName=A\n[Profile1]\nName=A\n[Profile2]\nName=B") == ["A", "B"])
        // Lines that are not Key=Value or hold NUL are skipped, and a broken group header ends
        // the group before it; the rest stands.
        #expect(names("junk\n[Profile0]\nName=\u{0}x\n[Profile1]\ngarbage\nName=Kept\n[Profile2\nName=Not a group\n") == ["Kept"])
        // Text after the `]`, or a bracket inside the name, breaks the header as for Firefox.
        #expect(names("[Profile0]x\nName=A\n[Profile]1]\nName=B\n[Profile2]\t\nName=C") == ["C"])
        #expect(
            FirefoxProfileList.profiles(in: Array("[Profile0]\nName=".utf8) + [0xFF] + Array("\n[Profile1]\nName=B".utf8)).map(\.name) == [
                "B"
            ])
        #expect(FirefoxProfileList.profiles(in: [0xFF, 0xFE, 0x00, 0x5B]).isEmpty)
        #expect(names("") == [] && names("[Profile0]\nName=\n") == [])
        // A lone CR ends a line (found by fuzzing: it was kept inside the name).
        #expect(names("[Profile0]\nName=\r-Evil=1\rName=Kept\r[Profile1]\rName=Mac") == ["Kept", "Mac"])
        // The last Name of a group counts, as for Firefox's own parser.
        #expect(names("[Profile0]\nName=Old\nName=New\n# Name=Comment\n; Name=Comment") == ["New"])
    }

    @Test func chromiumProfilesAreItsInfoCacheByDisplayName() throws {
        let profiles = try ChromiumLocalState.profiles(in: fixture("Local State"))
        #expect(
            profiles == [
                BrowserProfile(name: "Person 1", selector: "Default"),
                BrowserProfile(name: "Work", selector: "Profile 1"),
                BrowserProfile(name: "Side\nline $HOME `id`", selector: "Profile 2"),
            ])
    }

    /// Two profiles named "Person 1" are two choices, each shown with its directory (doc/profiles.md);
    /// a profile whose own name is what another is shown as is left out, keys being unique.
    @Test func chromiumProfilesWithEqualNamesAreShownWithTheirDirectories() throws {
        let equal =
            #"{"profile": {"info_cache": {"Default": {"name": "Person 1"}, "Profile 1": {"name": "Work"}, "Profile 2": {"name": "Person 1"}, "Profile 3": {"name": "Person 1 (Profile 2)"}}}}"#
        #expect(
            try ChromiumLocalState.profiles(in: Array(equal.utf8)) == [
                BrowserProfile(name: "Person 1 (Default)", selector: "Default"),
                BrowserProfile(name: "Work", selector: "Profile 1"),
                BrowserProfile(name: "Person 1 (Profile 2)", selector: "Profile 2"),
            ])
    }

    @Test func chromiumLocalStatesWithoutProfilesOrNotJSON() throws {
        #expect(try ChromiumLocalState.profiles(in: Array("{}".utf8)).isEmpty)
        #expect(try ChromiumLocalState.profiles(in: Array(#"{"profile": {"info_cache": []}}"#.utf8)).isEmpty)
        // No name: the directory is the name, which may then be another's.
        let odd =
            #"{"profile": {"info_cache": {"Default": {}, "Profile 1": {"name": "Default"}, "Profile 2": {"name": 3}, "": {"name": "x"}}}}"#
        #expect(
            try ChromiumLocalState.profiles(in: Array(odd.utf8)).map(\.name) == ["Default (Default)", "Default (Profile 1)", "Profile 2"])
        #expect(throws: JSONError.self) { try ChromiumLocalState.profiles(in: Array(#"{"profile": {"#.utf8)) }
    }

    @Test func argumentsKeepTheProfileInOneElement() {
        let firefox = AppProfiles(format: .firefox, paths: [:], arguments: ["-P", "{{profile}}"])
        let chromium = AppProfiles(format: .chromium, paths: [:], arguments: ["--profile-directory={{profile}}"])
        let odd = BrowserProfile(name: "a b;$(c)", selector: "-x y")
        #expect(odd.arguments(firefox) == ["-P", "-x y"] && odd.looksLikeAnOption(firefox))
        #expect(odd.arguments(chromium) == ["--profile-directory=-x y"] && !odd.looksLikeAnOption(chromium))
    }
}

/// Which file is read for which installed variant, and what happens when it cannot be.
@Suite struct BrowserProfileFinderTests {
    let fileSystem = FakeFileSystem()
    let diagnostics = RecordingDiagnostics(verbose: true)
    static let firefox = App(
        key: "firefox", name: "Firefox", urlScheme: "http:", desktopIDs: ["firefox.desktop", "org.mozilla.firefox.desktop"],
        profiles: AppProfiles(
            format: .firefox,
            paths: [
                "firefox.desktop": ["~/.mozilla/firefox/profiles.ini", "$XDG_CONFIG_HOME/mozilla/firefox/profiles.ini"],
                "org.mozilla.firefox.desktop": ["~/.var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini"],
            ], arguments: ["-P", "{{profile}}"])
    )
    static let chromium = App(
        key: "chromium", name: "Chromium", urlScheme: "http:", desktopIDs: ["chromium.desktop"],
        profiles: AppProfiles(
            format: .chromium, paths: ["chromium.desktop": ["$XDG_CONFIG_HOME/chromium/Local State"]],
            arguments: ["--profile-directory={{profile}}"])
    )

    func finder(_ variables: [String: String] = ["HOME": "/home/ada"]) -> BrowserProfileFinder {
        BrowserProfileFinder(
            environment: Environment(variables), fileSystem: fileSystem, diagnostics: diagnostics, stores: SQLiteLibraryReader())
    }

    func write(_ path: String, _ text: String) throws {
        try fileSystem.writeAtomically(Array(text.utf8), to: path, permissions: 0o600)
    }

    @Test func onlyTheInstalledVariantsListIsRead() throws {
        try write("/home/ada/.mozilla/firefox/profiles.ini", "[Profile0]\nName=Distro\n")
        try write("/home/ada/.var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini", "[Profile0]\nName=Flatpak\n[Profile1]\nName=-P\n")
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox.desktop").map(\.name) == ["Distro"])
        // A name Firefox would read as an option is not offered.
        #expect(finder().profiles(of: Self.firefox, desktopID: "org.mozilla.firefox.desktop").map(\.name) == ["Flatpak"])
        #expect(diagnostics.explanations.contains { $0.contains("profile '-P' starts with '-'") })
        // A variant with no path, and an app without profiles, read nothing.
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox_firefox.desktop").isEmpty)
        #expect(finder().profiles(of: App(key: "lynx", name: "Lynx", urlScheme: "http:"), desktopID: "firefox.desktop").isEmpty)
    }

    @Test func xdgConfigHomeIsTheBrowsersOwn() throws {
        try write("/home/ada/.config/chromium/Local State", #"{"profile": {"info_cache": {"Default": {"name": "Home"}}}}"#)
        try write("/xdg/chromium/Local State", #"{"profile": {"info_cache": {"Default": {"name": "XDG"}}}}"#)
        #expect(finder().profiles(of: Self.chromium, desktopID: "chromium.desktop").map(\.name) == ["Home"])
        #expect(
            finder(["HOME": "/home/ada", "XDG_CONFIG_HOME": "/xdg"]).profiles(of: Self.chromium, desktopID: "chromium.desktop").map(\.name)
                == ["XDG"])
        #expect(finder().expandedPath("relative/Local State") == nil)
        #expect(finder().expandedPath("~/x") == "/home/ada/x")
    }

    /// Firefox keeps an existing `~/.mozilla/firefox/` and puts a new user's profiles under
    /// `$XDG_CONFIG_HOME/mozilla/firefox/` (what the real firefox-esr does is checked in
    /// `FirefoxDirectoryTests`); `MOZ_LEGACY_HOME=1` keeps it on `~/.mozilla`.
    @Test func firefoxReadsTheFirstPlaceWhoseDirectoryExistsElseTheLast() throws {
        try write("/home/ada/.config/mozilla/firefox/profiles.ini", "[Profile0]\nName=XDG\n")
        try write("/xdg/mozilla/firefox/profiles.ini", "[Profile0]\nName=Own XDG\n")
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox.desktop").map(\.name) == ["XDG"])
        #expect(
            finder(["HOME": "/home/ada", "XDG_CONFIG_HOME": "/xdg"]).profiles(of: Self.firefox, desktopID: "firefox.desktop").map(\.name)
                == ["Own XDG"])
        // An existing ~/.mozilla/firefox/ stays in use, even before it has a profiles.ini.
        try fileSystem.createDirectory("/home/ada/.mozilla", permissions: 0o700)
        try fileSystem.createDirectory("/home/ada/.mozilla/firefox", permissions: 0o700)
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox.desktop").isEmpty)
        try write("/home/ada/.mozilla/firefox/profiles.ini", "[Profile0]\nName=Legacy\n")
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox.desktop").map(\.name) == ["Legacy"])
        #expect(finder().profileListPath(["~/a/list", "~/b/list"], format: .firefox) == "/home/ada/b/list")
        #expect(
            finder(["HOME": "/home/ada", "MOZ_LEGACY_HOME": "1"]).profileListPath(["~/a/list", "~/b/list"], format: .firefox)
                == "/home/ada/a/list")
        #expect(
            finder(["HOME": "/home/ada", "MOZ_LEGACY_HOME": "1"]).profileListPath(["~/a/list", "~/b/list"], format: .chromium)
                == "/home/ada/b/list")
        #expect(finder().profileListPath(["~/a/list", "relative/list"], format: .firefox) == nil)
    }

    @Test func aListThatCannotBeReadIsSkippedWithOneLine() throws {
        #expect(finder().profiles(of: Self.chromium, desktopID: "chromium.desktop").isEmpty)
        try write("/home/ada/.config/chromium/Local State", "{not json")
        #expect(finder().profiles(of: Self.chromium, desktopID: "chromium.desktop").isEmpty)
        #expect(
            diagnostics.explanations.filter { $0.contains("skipping the profile list /home/ada/.config/chromium/Local State") }.count == 1)
        try fileSystem.createDirectory("/home/ada/.mozilla/firefox/profiles.ini", permissions: 0o700)
        #expect(finder().profiles(of: Self.firefox, desktopID: "firefox.desktop").isEmpty)
        #expect(diagnostics.warnings.isEmpty, "never more than -v says")
    }
}

@Suite struct ChoiceKeyTests {
    @Test func aKeyReadsBackAsItsAppAndProfile() {
        #expect(ChoiceKey.split("firefox") == ("firefox", nil))
        #expect(ChoiceKey.split("firefox@Work @ Home") == ("firefox", "Work @ Home"))
        #expect(ChoiceKey.split("firefox@") == ("firefox", ""))
        // A name starting with a combining mark joins the `@` into one Character (found by fuzzing).
        let name = "\u{059A}=0"
        #expect(ChoiceKey.split(ChoiceKey.make(app: "firefox", profile: name)) == ("firefox", name))
    }

    /// A name a `/` would make a container's key is escaped, and so is one that holds what an
    /// escaped name holds; every other name is its key as it is (doc/profiles.md, "Keys").
    @Test func aProfilesKeyNeverReadsAsAContainerOrAnotherProfile() {
        let cases = [
            ("Work", "Work"), ("Work/Banking", "Work%2FBanking"), ("100%", "100%"), ("50% off/on", "50%25 off%2Fon"),
            ("Work%2FBanking", "Work%252FBanking"), ("a%25", "a%2525"), ("%2f", "%2f"), ("/", "%2F"),
        ]
        for (name, key) in cases {
            #expect(ChoiceKey.profilePart(name) == key, "\(name)")
        }
        #expect(Set(cases.map { ChoiceKey.profilePart($0.0) }).count == cases.count)
        let profile = BrowserProfile(name: "Work/Banking", selector: "Work/Banking")
        #expect(profile.choiceName == "Work%2FBanking")
        #expect(BrowserProfile(name: "Work", selector: "Work").inContainer("Banking").choiceName == "Work/Banking")
        #expect(profile.inContainer("A/B").choiceName == "Work%2FBanking/A/B")
    }
}
