import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

@Suite struct MimeAppsListTests {
    private func list(_ sandbox: Sandbox, excluding executable: String? = nil) -> MimeAppsList {
        let environment = sandbox.choosyEnvironment
        return MimeAppsList(
            environment: environment,
            index: DesktopEntryIndex(
                environment: environment, excludingExecutable: executable, fileSystem: LocalFileSystem(), clock: SystemClock()),
            fileSystem: LocalFileSystem())
    }

    private func installBrowsers(_ sandbox: Sandbox, _ ids: [String]) {
        for id in ids {
            sandbox.desktopEntry(id, sandbox.application(name: id, exec: "browser %u", "MimeType=x-scheme-handler/https;\n"))
        }
    }

    @Test func looksInTheSpecOrder() {
        let sandbox = Sandbox()
        sandbox.overrides["XDG_CURRENT_DESKTOP"] = "ubuntu:GNOME"
        let list = list(sandbox)
        let config = sandbox.configHome
        let configDir = sandbox.root + "/etc/xdg"
        let data = sandbox.dataHome + "/applications"
        let dataDir = sandbox.dataDir + "/applications"
        #expect(
            list.locations.map(\.path) == [
                config + "/ubuntu-mimeapps.list", config + "/gnome-mimeapps.list", config + "/mimeapps.list",
                configDir + "/ubuntu-mimeapps.list", configDir + "/gnome-mimeapps.list", configDir + "/mimeapps.list",
                data + "/ubuntu-mimeapps.list", data + "/gnome-mimeapps.list", data + "/mimeapps.list",
                dataDir + "/ubuntu-mimeapps.list", dataDir + "/gnome-mimeapps.list", dataDir + "/mimeapps.list",
            ])
        #expect(list.locations.filter(\.isDesktopSpecific).count == 8)
    }

    private func associations(_ sandbox: Sandbox, _ scheme: String = "https", excluding executable: String? = nil) -> MimeAssociations {
        list(sandbox, excluding: executable).associations(forScheme: scheme)
    }

    /// A file's handlers: those of its type, then of each type it is a kind of, each once; the
    /// default is the nearest type's (its own association before a parent's named default).
    @Test func aFileTypeAndItsParentsGiveItsHandlers() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("c-ide.desktop", sandbox.application(name: "IDE", exec: "ide %f", "MimeType=text/x-csrc;\n"))
        sandbox.desktopEntry("editor.desktop", sandbox.application(name: "Editor", exec: "editor %f", "MimeType=text/plain;text/x-csrc;\n"))
        sandbox.desktopEntry("pager.desktop", sandbox.application(name: "Pager", exec: "pager %f", "MimeType=text/plain;\n"))
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\ntext/plain=pager.desktop;\n")
        let list = list(sandbox)
        let file = list.associations(forTypes: ["text/x-csrc", "text/plain"])
        #expect(file.entries.map(\.id) == ["c-ide.desktop", "editor.desktop", "pager.desktop"])
        #expect(file.defaultEntry?.id == "c-ide.desktop")
        #expect(list.associations(forTypes: ["text/x-other", "text/plain"]).defaultEntry?.id == "pager.desktop")
        #expect(list.associations(forTypes: ["application/x-nothing"]).entries.isEmpty)
        // What `xdg-mime default` writes for the type itself comes first.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\ntext/x-csrc=pager.desktop\n")
        #expect(
            self.list(sandbox).associations(forTypes: ["text/x-csrc", "text/plain"]).defaultFirst.map(\.id) == [
                "pager.desktop", "c-ide.desktop", "editor.desktop",
            ])
    }

    @Test func firstInstalledAssociatedDefaultWins() {
        let sandbox = Sandbox()
        sandbox.overrides["XDG_CURRENT_DESKTOP"] = "KDE"
        installBrowsers(sandbox, ["firefox.desktop", "chromium.desktop", "epiphany.desktop", "kde-browser.desktop"])
        sandbox.write(sandbox.dataDir + "/applications/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=epiphany.desktop;\n")
        #expect(associations(sandbox).defaultEntry?.id == "epiphany.desktop")

        sandbox.write(
            sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=uninstalled.desktop;chromium.desktop;\n")
        #expect(associations(sandbox).defaultEntry?.id == "chromium.desktop")
        #expect(associations(sandbox, "HTTPS").defaultEntry?.id == "chromium.desktop")

        sandbox.write(sandbox.configHome + "/kde-mimeapps.list", "[Default Applications]\nx-scheme-handler/https=kde-browser.desktop\n")
        #expect(associations(sandbox).defaultEntry?.id == "kde-browser.desktop")
        #expect(
            associations(sandbox).defaultFirst.map(\.id) == [
                "kde-browser.desktop", "chromium.desktop", "epiphany.desktop", "firefox.desktop",
            ])
    }

    /// doc/spec-choices.md: as GIO, xdg-mime and KDE read the lists, the first installed entry a
    /// `[Default Applications]` list names is the default and counts as associated, even
    /// when its entry does not list the scheme or a removal took its association away.
    @Test func aNamedDefaultCountsAsAssociated() {
        let sandbox = Sandbox()
        installBrowsers(sandbox, ["firefox.desktop"])
        sandbox.desktopEntry("editor.desktop", sandbox.application(name: "Editor", exec: "editor %u"))
        sandbox.desktopEntry(
            "removed.desktop", sandbox.application(name: "Removed", exec: "removed %u", "MimeType=x-scheme-handler/https;\n"))
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            """
            [Default Applications]
            x-scheme-handler/https=missing.desktop;editor.desktop;removed.desktop;
            [Removed Associations]
            x-scheme-handler/https=removed.desktop;
            """)
        #expect(associations(sandbox).defaultEntry?.id == "editor.desktop")
        #expect(associations(sandbox).entries.map(\.id) == ["firefox.desktop", "editor.desktop"])
        // A removed association named first is the default all the same.
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            """
            [Default Applications]
            x-scheme-handler/https=removed.desktop;editor.desktop;
            [Removed Associations]
            x-scheme-handler/https=removed.desktop;
            """)
        #expect(associations(sandbox).defaultEntry?.id == "removed.desktop")
        #expect(associations(sandbox).entries.map(\.id) == ["firefox.desktop", "removed.desktop"])
    }

    /// The picker puts first what a list chose, named or added, not merely the first entry
    /// whose MimeType lists the scheme.
    @Test func aListedDefaultIsNamedOrAdded() {
        let sandbox = Sandbox()
        installBrowsers(sandbox, ["chromium.desktop", "firefox.desktop"])
        #expect(associations(sandbox).defaultEntry?.id == "chromium.desktop")
        #expect(associations(sandbox).listedDefault == nil)
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Added Associations]\nx-scheme-handler/https=firefox.desktop;\n")
        #expect(associations(sandbox).listedDefault?.id == "firefox.desktop")
    }

    @Test func aRemovalHidesTheLastAssociation() {
        let sandbox = Sandbox()
        installBrowsers(sandbox, ["only.desktop"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Removed Associations]\nx-scheme-handler/https=only.desktop;\n")
        #expect(associations(sandbox).entries.isEmpty)
        #expect(associations(sandbox).defaultEntry == nil)
    }

    @Test func fallsBackToAssociationsMinusRemovals() {
        let sandbox = Sandbox()
        installBrowsers(sandbox, ["a.desktop", "b.desktop"])
        sandbox.desktopEntry("c.desktop", sandbox.application(name: "C", exec: "c %u"))
        sandbox.desktopEntry("d.desktop", sandbox.application(name: "D", exec: "d %u"), directory: sandbox.dataDir + "/applications")
        // No defaults: the first usable entry listing the type.
        #expect(associations(sandbox).defaultEntry?.id == "a.desktop")
        // A removal in the user's file skips it.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Removed Associations]\nx-scheme-handler/https=a.desktop;\n")
        #expect(associations(sandbox).defaultEntry?.id == "b.desktop")
        // An addition in the user's file comes before the entries' own MimeType lists.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Added Associations]\nx-scheme-handler/https=c.desktop;\n")
        #expect(associations(sandbox).entries.map(\.id) == ["c.desktop", "a.desktop", "b.desktop"])
        // An addition in a system directory reaches entries of that directory and later ones only.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "")
        sandbox.write(
            sandbox.dataDir + "/applications/mimeapps.list", "[Added Associations]\nx-scheme-handler/https=c.desktop;d.desktop;\n")
        #expect(associations(sandbox).entries.map(\.id) == ["a.desktop", "b.desktop", "d.desktop"])
        // ...and a more important file's removal wins over it.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Removed Associations]\nx-scheme-handler/https=a.desktop;d.desktop;\n")
        #expect(associations(sandbox).entries.map(\.id) == ["b.desktop"])
        #expect(associations(sandbox, "gopher").defaultEntry == nil)
    }

    @Test func onlyTheWinningCopyOfAnIDCounts() {
        let sandbox = Sandbox()
        // The user's copy does not list the type; the system's copy does, but it is shadowed.
        sandbox.desktopEntry("browser.desktop", sandbox.application(name: "Mine", exec: "mine %u"))
        sandbox.desktopEntry(
            "browser.desktop", sandbox.application(name: "System", exec: "system %u", "MimeType=x-scheme-handler/https;\n"),
            directory: sandbox.dataDir + "/applications")
        #expect(associations(sandbox).entries.isEmpty)
        // A hidden user copy hides the ID, even from the user's own additions.
        sandbox.desktopEntry("browser.desktop", "[Desktop Entry]\nType=Application\nName=Gone\nExec=gone %u\nHidden=true\n")
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            "[Default Applications]\nx-scheme-handler/https=browser.desktop;\n[Added Associations]\nx-scheme-handler/https=browser.desktop;\n"
        )
        #expect(associations(sandbox).defaultEntry == nil)
    }

    @Test func neverReturnsChoosy() {
        let sandbox = Sandbox()
        let choosy = sandbox.recorder("choosy")
        sandbox.desktopEntry(
            "choosy.desktop", sandbox.application(name: "Choosy", exec: "\(choosy) handle %u", "MimeType=x-scheme-handler/https;\n"))
        sandbox.desktopEntry(
            "my-choosy.desktop", sandbox.application(name: "Also choosy", exec: "choosy handle %u", "MimeType=x-scheme-handler/https;\n"))
        installBrowsers(sandbox, ["firefox.desktop"])
        sandbox.write(
            sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=choosy.desktop;my-choosy.desktop;\n")
        let found = associations(sandbox, excluding: choosy)
        #expect(found.defaultEntry?.id == "firefox.desktop")
        #expect(found.entries.map(\.id) == ["firefox.desktop"])
        #expect(found.defaultIsChoosy)
    }

    @Test func ignoresBrokenFiles() {
        let sandbox = Sandbox()
        installBrowsers(sandbox, ["a.desktop", "b.desktop"])
        sandbox.writeBytes(
            sandbox.configHome + "/mimeapps.list", [0xFF, 0xFE] + Array("[Default Applications]\nx-scheme-handler/https=b.desktop;\n".utf8))
        #expect(associations(sandbox).defaultEntry?.id == "a.desktop")
    }

    // MARK: Editing

    @Test func editorReplacesOnlyTheDefaultLines() throws {
        let sandbox = Sandbox()
        let original = """
            # my settings; keep me
            [Added Associations]
            x-scheme-handler/https=firefox.desktop;

            [Default Applications]
            text/html=firefox.desktop;
            x-scheme-handler/https = firefox.desktop;chromium.desktop;
              # indented comment
            x-scheme-handler/mailto=thunderbird.desktop;

            [Removed Associations]
            x-scheme-handler/http=bad.desktop;
            """ + "\n"
        let path = sandbox.write(sandbox.configHome + "/mimeapps.list", original, mode: 0o600)
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        #expect(editor.path == path)
        let previous = try editor.setDefaults([
            "x-scheme-handler/https": ["choosy.desktop"],
            "x-scheme-handler/choosy": ["choosy.desktop"],
            "x-scheme-handler/geo": ["choosy.desktop"],
        ])
        #expect(previous == ["x-scheme-handler/https": ["firefox.desktop", "chromium.desktop"]])
        #expect(
            sandbox.read(path) == """
                # my settings; keep me
                [Added Associations]
                x-scheme-handler/https=firefox.desktop;

                [Default Applications]
                text/html=firefox.desktop;
                x-scheme-handler/https=choosy.desktop;
                  # indented comment
                x-scheme-handler/mailto=thunderbird.desktop;
                x-scheme-handler/choosy=choosy.desktop;
                x-scheme-handler/geo=choosy.desktop;

                [Removed Associations]
                x-scheme-handler/http=bad.desktop;
                """ + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // Reading it back through the spec's lookup sees the new default (once installed).
        sandbox.desktopEntry("other.desktop", sandbox.application(name: "O", exec: "o %u", "MimeType=x-scheme-handler/choosy;\n"))
        sandbox.desktopEntry("handler.desktop", sandbox.application(name: "H", exec: "h %u", "MimeType=x-scheme-handler/choosy;\n"))
        try editor.setDefaults(["x-scheme-handler/choosy": ["handler.desktop"]])
        #expect(list(sandbox).associations(forScheme: "choosy").defaultEntry?.id == "handler.desktop")
    }

    @Test func editorCreatesTheFileOrTheGroup() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        try FileManager.default.removeItem(atPath: sandbox.configHome)
        #expect(try editor.setDefaults(["x-scheme-handler/choosy": ["choosy.desktop"]]).isEmpty)
        #expect(sandbox.read(editor.path) == "[Default Applications]\nx-scheme-handler/choosy=choosy.desktop;\n")

        // No trailing newline and no group: the group is appended after a blank line.
        sandbox.write(editor.path, "[Added Associations]\r\ntext/plain=gedit.desktop;")
        try editor.setDefaults(["x-scheme-handler/https": ["choosy.desktop"]])
        #expect(
            sandbox.read(editor.path)
                == "[Added Associations]\r\ntext/plain=gedit.desktop;\n\r\n[Default Applications]\r\nx-scheme-handler/https=choosy.desktop;\r\n"
        )
    }

    @Test func editorKeepsOtherBytesEvenWhenInvalid() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        let junk: [UInt8] =
            Array("# \u{00E9}".utf8) + [0xFF, 0xFE] + Array("\n[Default Applications]\nx-scheme-handler/https=old.desktop;\n".utf8)
        sandbox.writeBytes(editor.path, junk)
        #expect(try editor.setDefaults(["x-scheme-handler/https": ["new.desktop"]]) == ["x-scheme-handler/https": ["old.desktop"]])
        let written = try #require(FileManager.default.contents(atPath: editor.path))
        #expect(
            Array(written) == Array("# \u{00E9}".utf8) + [0xFF, 0xFE]
                + Array("\n[Default Applications]\nx-scheme-handler/https=new.desktop;\n".utf8))
    }

    @Test func editorWritesThroughASymlink() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        let real = sandbox.write("dotfiles/mimeapps.list", "[Default Applications]\n")
        #expect(symlink(real, editor.path) == 0)
        try editor.setDefaults(["x-scheme-handler/https": ["choosy.desktop"]])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: editor.path) == real)
        #expect(sandbox.read(real) == "[Default Applications]\nx-scheme-handler/https=choosy.desktop;\n")
    }

    @Test func editorRefusesValuesThatWouldBreakTheFile() {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        for (type, id) in [
            ("x-scheme-handler/https\n[x]", "a.desktop"), ("noslash", "a.desktop"), ("a/b", "a;b.desktop"), ("a/b", "../a.desktop"),
        ] {
            #expect(throws: ChoosyError.self) { try editor.setDefaults([type: [id]]) }
        }
        #expect(!sandbox.exists(editor.path))
    }

    @Test func editorRemovesADefaultGivenNoIDs() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        sandbox.write(
            editor.path,
            "# mine\n[Default Applications]\nx-scheme-handler/https=choosy.desktop;\ntext/html=firefox.desktop;\nx-scheme-handler/https=again.desktop;\n"
        )
        let previous = try editor.setDefaults(["x-scheme-handler/https": [], "x-scheme-handler/mailto": ["a.desktop", "b.desktop"]])
        #expect(previous["x-scheme-handler/https"] != nil)
        #expect(
            sandbox.read(editor.path)
                == "# mine\n[Default Applications]\ntext/html=firefox.desktop;\nx-scheme-handler/mailto=a.desktop;b.desktop;\n")
    }

    @Test func editorPutsBackTheLinesItReplacedExactly() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        let original = "[Default Applications]\r\nX-Scheme-Handler/HTTPS = firefox.desktop\r\ntext/html=firefox.desktop\r\n"
        sandbox.write(editor.path, original)
        let previous = try editor.replaceDefaults([
            "x-scheme-handler/https": ["choosy.desktop"], "x-scheme-handler/geo": ["choosy.desktop"],
        ])
        #expect(previous.listed == ["x-scheme-handler/https": ["firefox.desktop"]])
        #expect(previous.lines == ["x-scheme-handler/https": "X-Scheme-Handler/HTTPS = firefox.desktop"])
        #expect(
            try editor.withdraw(
                "choosy.desktop",
                restoring: [
                    "x-scheme-handler/https": (previous.listed["x-scheme-handler/https"]!, previous.lines["x-scheme-handler/https"]),
                    "x-scheme-handler/geo": ([], nil),
                ]))
        #expect(sandbox.read(editor.path) == original)

        // A line that is not one line for that type is not written; the IDs are.
        try editor.setDefaults(["x-scheme-handler/https": ["choosy.desktop"]])
        try editor.withdraw("choosy.desktop", restoring: ["x-scheme-handler/https": (["a.desktop"], "text/html=evil\n[x]")])
        #expect(sandbox.read(editor.path) == "[Default Applications]\r\nx-scheme-handler/https=a.desktop;\r\ntext/html=firefox.desktop\r\n")
    }

    @Test func withdrawKeepsWhatTheUserChoseAndDropsChoosyEverywhere() throws {
        let sandbox = Sandbox()
        let editor = MimeAppsEditor(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        sandbox.write(
            editor.path,
            """
            [Added Associations]
            x-scheme-handler/https=chromium.desktop;choosy.desktop;
            x-scheme-handler/geo=choosy.desktop;
            [Default Applications]
            x-scheme-handler/https=chromium.desktop;choosy.desktop;
            x-scheme-handler/http=choosy.desktop;
            x-scheme-handler/mailto=thunderbird.desktop;

            """)
        #expect(
            try editor.withdraw(
                "choosy.desktop",
                restoring: [
                    "x-scheme-handler/https": (["firefox.desktop"], nil), "x-scheme-handler/http": (["firefox.desktop"], nil),
                ]))
        #expect(
            sandbox.read(editor.path) == """
                [Added Associations]
                x-scheme-handler/https=chromium.desktop;
                [Default Applications]
                x-scheme-handler/https=chromium.desktop;
                x-scheme-handler/http=firefox.desktop;
                x-scheme-handler/mailto=thunderbird.desktop;

                """)
        // Nothing names choosy any more: nothing to do, nothing written.
        #expect(try !editor.withdraw("choosy.desktop", restoring: [:]))
    }
}
