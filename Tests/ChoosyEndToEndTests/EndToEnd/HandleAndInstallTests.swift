import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `choosy handle`, `install` and `uninstall` end to end (doc/hooks-and-callbacks.md).
@Suite struct HandleTests {
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    @Test func aMailtoLinkReachesTheEmailAppWithItsFieldsEncoded() {
        sandbox.installApp("org.mozilla.Thunderbird.desktop", name: "Thunderbird", program: "thunderbird")
        #expect(sandbox.choosy("default", "email", "thunderbird").status == 0)
        let link = "mailto:ada@example.org?subject=Caf%C3%A9%20%26%20cake%3F%20100%25&body=Line%201%0D%0ALine%202%20a+b&cc=bob@example.org"
        let output = sandbox.choosy("handle", link)
        #expect(output.status == 0 && output.stderr == "")
        #expect(
            sandbox.launched("thunderbird") == [
                [
                    "mailto:ada@example.org?cc=bob@example.org&subject=Caf%C3%A9%20%26%20cake%3F%20100%25&body=Line%201%0D%0ALine%202%20a%2Bb"
                ]
            ])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func aMailtoLinkOpensTheWebMailInTheBrowserWhenThatIsTheOnlyEmailApp() {
        let output = sandbox.choosy("handle", "mailto:ada@example.org?subject=Hi%20there")
        #expect(output.status == 0)
        #expect(sandbox.launched("firefox") == [["https://mail.google.com/mail/?view=cm&fs=1&to=ada%40example.org&su=Hi%20there"]])
    }

    /// X has no native Linux client in the catalog, so its links, though read as twitter
    /// actions, reach the browser exactly as they were (never rebuilt).
    @Test(arguments: [
        "https://x.com/choosyapp", "https://twitter.com/choosyapp/status/1234567890",
        "https://x.com/intent/tweet?text=Hello+world%21&hashtags=a,b", "https://x.com/search?q=swift",
    ])
    func twitterLinksOpenUnchangedWithOnlyTheWebApp(link: String) {
        let output = sandbox.choosy("handle", link, "-v")
        #expect(output.status == 0)
        #expect(output.stderr.contains("the link is twitter "))
        #expect(sandbox.launched("firefox") == [[link]])
    }

    @Test func aWebLinkOpensInTheBrowserUnchanged() {
        let link = "https://example.org/a%20b?q=1&r=%C3%A9#frag"
        #expect(sandbox.choosy("handle", link).status == 0)
        #expect(sandbox.launched("firefox") == [[link]])
    }

    @Test func aChoosyLinkIsRouted() {
        sandbox.installApp("myapp.desktop", name: "My App", program: "myapp", mimeTypes: ["x-scheme-handler/myapp"])
        let output = sandbox.choosy(
            "handle", "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org&x-success=myapp%3A%2F%2Fdone")
        #expect(output.status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.org"]])
        #expect(sandbox.launched("myapp") == [["myapp://done?app=firefox"]])

        let unknown = sandbox.choosy("handle", "choosy://x-callback-url/nope?x-error=myapp%3A%2F%2Ffailed")
        #expect(unknown.status == 2)
        #expect(sandbox.launched("myapp", count: 2).last?.first?.hasPrefix("myapp://failed?errorCode=402&") == true)
    }

    @Test func geoAndOtherSchemesGoToTheirApps() {
        sandbox.installApp("org.gnome.Maps.desktop", name: "Maps", program: "maps")
        sandbox.installApp("org.telegram.desktop.desktop", name: "Telegram", program: "telegram")
        #expect(sandbox.choosy("default", "maps", "gnome_maps").status == 0)
        #expect(sandbox.choosy("handle", "geo:52.52,13.405").status == 0)
        #expect(sandbox.launched("maps") == [["geo:52.52,13.405"]])
        #expect(sandbox.choosy("handle", "tg://resolve?domain=choosy").status == 0)
        #expect(sandbox.launched("telegram") == [["tg://resolve?domain=choosy"]])
        let unknown = sandbox.choosy("handle", "nosuchscheme:whatever")
        #expect(unknown.status == 4)
        #expect(unknown.stderrLines == ["choosy: nothing installed handles nosuchscheme: links"])
        #expect(sandbox.choosy("handle", "javascript:alert(1)").status == 2)
    }
}

@Suite struct LinkHandlerInstallTests {
    let sandbox = Sandbox()

    /// A user's mimeapps.list with comments, blank lines, other groups and odd spacing.
    static let mimeapps = """
        # my associations
        [Added Associations]
        x-scheme-handler/mailto=org.mozilla.Thunderbird.desktop;

        [Default Applications]
        text/html=firefox.desktop
        x-scheme-handler/http = org.kde.falkon.desktop
        # https too
        x-scheme-handler/https=org.kde.falkon.desktop;firefox.desktop;
        image/png=org.gnome.Loupe.desktop;

        [Removed Associations]
        x-scheme-handler/geo=marble_geo.desktop;

        """

    var mimeappsPath: String { sandbox.configHome + "/mimeapps.list" }
    var entryPath: String { sandbox.dataHome + "/applications/choosy.desktop" }

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp(
            "firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        sandbox.installApp(
            "chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        sandbox.installApp(
            "org.kde.falkon.desktop", name: "Falkon", program: "falkon", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        sandbox.installApp(
            "org.mozilla.Thunderbird.desktop", name: "Thunderbird", program: "thunderbird", mimeTypes: ["x-scheme-handler/mailto"])
        sandbox.write(mimeappsPath, LinkHandlerInstallTests.mimeapps)
    }

    private var choosyPath: String {
        URL(fileURLWithPath: Sandbox.choosyBinary).resolvingSymlinksInPath().path
    }

    @Test func installWritesTheEntryAndTakesOnlyChoosyLinks() throws {
        let output = sandbox.choosy("install")
        #expect(output.status == 0)
        #expect(output.stdout == "Wrote \(entryPath)\nchoosy now handles: choosy:\n")
        let entry = try #require(sandbox.read(entryPath))
        let lines = entry.split(separator: "\n").map(String.init)
        #expect(lines.first == "[Desktop Entry]")
        #expect(lines.contains("Type=Application"))
        #expect(lines.contains("Exec=\(choosyPath) handle %u"))
        #expect(lines.contains("MimeType=x-scheme-handler/choosy;"))
        #expect(lines.contains("NoDisplay=true"))
        #expect(
            sandbox.read(mimeappsPath)
                == LinkHandlerInstallTests.mimeapps.replacingOccurrences(
                    of: "image/png=org.gnome.Loupe.desktop;\n",
                    with: "image/png=org.gnome.Loupe.desktop;\nx-scheme-handler/choosy=choosy.desktop;\n"))

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
                ProcessRequest(argv: ["/usr/bin/desktop-file-validate", entryPath], environment: ["PATH": "/usr/bin:/bin"]))
            #expect(result.status == 0, "\(String(decoding: result.stdout + result.stderr, as: UTF8.self))")
        }

        // A click on a choosy: link runs exactly that Exec line: it routes.
        sandbox.installApp("myapp.desktop", name: "My App", program: "myapp", mimeTypes: ["x-scheme-handler/myapp"])
        let click = sandbox.choosy("handle", "choosy://x-callback-url/list?type=browser&x-success=myapp%3A%2F%2Fapps")
        #expect(click.status == 0)
        #expect(sandbox.launched("myapp") == [["myapp://apps?apps=firefox%2Cchromium%2Cfalkon"]])
    }

    @Test func defaultHandlerTakesLinksYetTheRealBrowserStillOpensThem() throws {
        let output = sandbox.choosy("install", "--default-handler")
        #expect(output.status == 0)
        #expect(output.stdout.hasSuffix("choosy now handles: choosy: http: https: mailto: geo:\n"))
        // http and https are replaced where they were; the others go after the last default.
        #expect(
            sandbox.read(mimeappsPath) == """
                # my associations
                [Added Associations]
                x-scheme-handler/mailto=org.mozilla.Thunderbird.desktop;

                [Default Applications]
                text/html=firefox.desktop
                x-scheme-handler/http=choosy.desktop;
                # https too
                x-scheme-handler/https=choosy.desktop;
                image/png=org.gnome.Loupe.desktop;
                x-scheme-handler/choosy=choosy.desktop;
                x-scheme-handler/geo=choosy.desktop;
                x-scheme-handler/mailto=choosy.desktop;

                [Removed Associations]
                x-scheme-handler/geo=marble_geo.desktop;

                """)
        let record = try #require(sandbox.read(sandbox.configHome + "/choosy/previous-handlers.json"))
        #expect(record.contains("org.kde.falkon.desktop") && record.contains("org.mozilla.Thunderbird.desktop"))

        // A link now comes to choosy, which opens it in a real browser, never in itself; the
        // browser that was the system's default is offered first.
        let handled = sandbox.choosy(["-v", "handle", "https://example.org/"], environment: ["PICK": "Falkon (always)"])
        #expect(handled.status == 0)
        #expect(sandbox.pickerInvocations.map(\.lines) == [Sandbox.choiceLines("Falkon", "Firefox", "Chromium", site: "example.org")])
        #expect(sandbox.launched("falkon") == [["https://example.org/"]])
        #expect(handled.stderr.contains("choosy: started org.kde.falkon.desktop: falkon https://example.org/"))
        #expect(!handled.stderr.contains("started choosy.desktop"))

        let mail = sandbox.choosy(["handle", "mailto:ada@example.org"], environment: ["PICK": "Thunderbird"])
        #expect(mail.status == 0)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Thunderbird", "Gmail (web)"))
        #expect(sandbox.launched("thunderbird") == [["mailto:ada@example.org"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func uninstallRestoresWhatWasThere() {
        #expect(sandbox.choosy("install").status == 0)
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let output = sandbox.choosy("uninstall")
        #expect(output.status == 0)
        #expect(output.stdout == "Removed \(entryPath) and restored the previous link handlers.\n")
        #expect(sandbox.read(mimeappsPath) == LinkHandlerInstallTests.mimeapps)
        #expect(!sandbox.exists(entryPath))
        #expect(!sandbox.exists(sandbox.configHome + "/choosy/previous-handlers.json"))
        #expect(sandbox.choosy("uninstall").stdout == "choosy was not installed.\n")
    }

    /// Issue 21: a NUL byte in a line made uninstall fail and leave choosy the handler.
    @Test func uninstallKeepsOddBytesAndRemovesChoosy() throws {
        let original =
            Array(
                LinkHandlerInstallTests.mimeapps
                    .replacingOccurrences(
                        of: "image/png=org.gnome.Loupe.desktop;\n", with: "image/png=org.gnome.Loupe.desktop;\nodd=a\u{0}b\u{1}\n"
                    )
                    .replacingOccurrences(of: "firefox.desktop;\n", with: "firefox.desktop;\u{0}\n").utf8)
            + Array("x-scheme-handler/https=\u{0}\n".utf8)
        sandbox.writeBytes(mimeappsPath, original)
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let output = sandbox.choosy("uninstall")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: mimeappsPath))) == original)
    }

    /// Issue 21: an entry that was there before install (`make install`) is put back, not deleted.
    @Test func uninstallPutsBackTheEntryInstallReplaced() throws {
        let before =
            "[Desktop Entry]\nType=Application\nName=Choosy\nExec=/usr/local/bin/choosy handle %u\nMimeType=x-scheme-handler/choosy;\n"
        sandbox.write(entryPath, before)
        let install = sandbox.choosy("install")
        #expect(install.status == 0)
        #expect(install.stdout.hasPrefix("Replaced \(entryPath) (uninstall puts it back)\n"))
        #expect(sandbox.read(entryPath)?.contains("Exec=\(choosyPath) handle %u") == true)
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let uninstall = sandbox.choosy("uninstall")
        #expect(uninstall.stdout == "Put back the previous \(entryPath) and restored the previous link handlers.\n")
        #expect(sandbox.read(entryPath) == before)
        #expect(sandbox.read(mimeappsPath) == LinkHandlerInstallTests.mimeapps)
    }

    /// Issue 21: a handler the user chose after install stays; only choosy's defaults go back.
    @Test func uninstallKeepsAHandlerTheUserChoseSince() throws {
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let gio = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/gio", "mime", "x-scheme-handler/https", "chromium.desktop"],
                environment: sandbox.environment))
        #expect(gio.status == 0, "\(String(decoding: gio.stderr, as: UTF8.self))")
        #expect(sandbox.choosy("uninstall").status == 0)
        let after = try #require(sandbox.read(mimeappsPath))
        #expect(after.contains("x-scheme-handler/https=chromium.desktop;\n"))
        #expect(after.contains("x-scheme-handler/http = org.kde.falkon.desktop\n"))
        #expect(!after.contains("choosy.desktop"))
        #expect(!after.contains("x-scheme-handler/https=org.kde.falkon.desktop"))
    }

    /// A newer choosy's members of the record survive an install that rewrites it.
    @Test func installKeepsRecordMembersItDoesNotKnow() throws {
        #expect(sandbox.choosy("install").status == 0)
        let recordPath = sandbox.configHome + "/choosy/previous-handlers.json"
        let written = try #require(sandbox.read(recordPath))
        sandbox.write(recordPath, "{\"future\" : {\"kept\" : [1]}," + written.dropFirst())
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let record = try #require(sandbox.read(recordPath).flatMap(Sandbox.jsonObject))
        #expect((record["future"] as? [String: Any])?["kept"] as? [Int] == [1])
        #expect((record["listed"] as? [String: Any])?["x-scheme-handler/https"] != nil)
    }

    /// Issue 21: with a corrupt record uninstall still removes every line naming choosy and
    /// says what it could not restore.
    @Test func uninstallWithACorruptRecordRemovesChoosyAndSaysSo() throws {
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        let recordPath = sandbox.write(sandbox.configHome + "/choosy/previous-handlers.json", "{\"listed\": 3")
        let output = sandbox.choosy("uninstall")
        #expect(output.status == 0)
        #expect(output.stdout == "Removed \(entryPath) and choosy's link handler lines.\n")
        #expect(output.stderrLines.count == 1)
        #expect(
            output.stderrLines.first?.hasPrefix("choosy: cannot restore the previous link handlers: \(recordPath) is not valid") == true)
        let after = try #require(sandbox.read(mimeappsPath))
        #expect(!after.contains("choosy.desktop"))
        #expect(!sandbox.exists(entryPath))
        #expect(!sandbox.exists(recordPath))

        // Lines left behind after the entry and record were deleted by hand go too.
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        try FileManager.default.removeItem(atPath: entryPath)
        try FileManager.default.removeItem(atPath: recordPath)
        let again = sandbox.choosy("uninstall")
        #expect(again.status == 0)
        #expect(again.stderrLines == ["choosy: cannot restore the previous link handlers: \(recordPath) is missing"])
        #expect(sandbox.read(mimeappsPath)?.contains("choosy.desktop") == false)
        #expect(sandbox.choosy("uninstall").stdout == "choosy was not installed.\n")
    }

    @Test func withoutAMimeappsListUninstallLeavesNone() {
        try? FileManager.default.removeItem(atPath: mimeappsPath)
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        #expect(sandbox.read(mimeappsPath)?.hasPrefix("[Default Applications]\n") == true)
        #expect(sandbox.choosy("uninstall").status == 0)
        #expect(!sandbox.exists(mimeappsPath))
    }
}
