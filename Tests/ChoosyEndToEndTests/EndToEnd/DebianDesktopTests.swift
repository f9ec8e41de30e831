import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// A desktop shaped like a real Debian one: the desktop entries of Debian's packages, unchanged
/// (`Tests/Fixtures/debian-desktop-entries`), in the system's applications directory, plus what
/// users add themselves. Handlers the catalog names and handlers it does not are offered alike,
/// and `handle` opens each kind of link through them.
@Suite struct DebianDesktopTests {
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.overrides["TERMINAL"] = sandbox.recorder("term")
        let system = sandbox.dataDir + "/applications"
        for (package, id) in [
            ("firefox-esr", "firefox-esr.desktop"), ("chromium", "chromium.desktop"), ("netsurf-gtk", "netsurf-gtk.desktop"),
            ("neomutt", "neomutt.desktop"), ("sylpheed", "sylpheed.desktop"), ("thunderbird", "thunderbird.desktop"),
        ] {
            let path = Sandbox.packageRoot + "/Tests/Fixtures/debian-desktop-entries/\(package)/\(id)"
            sandbox.desktopEntry(id, String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self), directory: system)
        }
        for program in ["neomutt", "sylpheed", "lynx", "netsurf-gtk", "newbrowser", "mailer"] { sandbox.recorder(program) }
        // Debian's lynx ships no desktop entry; this is the one its users write.
        sandbox.desktopEntry(
            "lynx.desktop",
            sandbox.application(
                name: "Lynx", exec: "lynx %u", "Terminal=true\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n"
            ))
        // A browser no catalog knows yet.
        sandbox.desktopEntry(
            "org.example.NewBrowser.desktop",
            sandbox.application(
                name: "New Browser", exec: "newbrowser %u", "Name[de]=Neuer Browser\nMimeType=x-scheme-handler/https;\n"
            ))
        // NetSurf takes URLs but declares no scheme: the user associates it (doc/spec-choices.md, "Associations").
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Added Associations]\nx-scheme-handler/https=netsurf-gtk.desktop;\n")
    }

    private func apps(_ type: String) throws -> [[String: Any]] {
        let output = sandbox.choosy("list", type, "--json")
        let types = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        return try #require(types.first?["apps"] as? [[String: Any]])
    }

    /// The installed apps of a type and their desktop IDs ("" for web apps).
    private func installed(_ type: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for app in try apps(type) where app["installed"] as? Bool == true {
            found[app["key"] as! String] = app["desktop_id"] as? String ?? ""
        }
        return found
    }

    @Test func everyMailHandlerIsAnEmailApp() throws {
        #expect(
            try installed("email") == [
                "thunderbird": "thunderbird.desktop", "neomutt": "neomutt.desktop", "sylpheed": "sylpheed.desktop", "gmail_web": "",
            ])
        let sylpheed = try #require(try apps("email").first { $0["key"] as? String == "sylpheed" })
        #expect(sylpheed["name"] as? String == "Sylpheed")
    }

    @Test func everyWebHandlerIsABrowser() throws {
        #expect(
            try installed("browser") == [
                "firefox": "firefox-esr.desktop", "chromium": "chromium.desktop",
                "lynx": "lynx.desktop", "org_example_newbrowser": "org.example.NewBrowser.desktop", "netsurf_gtk": "netsurf-gtk.desktop",
            ])
        sandbox.overrides["LANG"] = "de_DE.UTF-8"
        let newBrowser = try #require(try apps("browser").first { $0["key"] as? String == "org_example_newbrowser" })
        #expect(newBrowser["name"] as? String == "Neuer Browser")
    }

    @Test func mailtoLinksReachSylpheedAndNeoMutt() {
        let link = "mailto:ada@example.org?subject=Hi%20there&body=See%20you"
        let sylpheed = sandbox.choosy(["handle", link], environment: ["PICK": "Sylpheed"])
        #expect(sylpheed.status == 0, "\(sylpheed.stderr)")
        let offered = sandbox.pickerInvocations.last?.lines ?? []
        for name in ["Thunderbird", "NeoMutt", "Sylpheed"] { #expect(offered.contains(name), "\(offered)") }
        #expect(sandbox.launched("sylpheed") == [["mailto:ada@example.org?subject=Hi%20there&body=See%20you"]])

        // NeoMutt runs in the terminal; it takes no Bcc from a mailto: link, so none is passed.
        #expect(sandbox.choosy(["handle", link + "&bcc=eve@example.org"], environment: ["PICK": "NeoMutt"]).status == 0)
        #expect(sandbox.launched("term") == [["-e", "neomutt", "mailto:ada@example.org?subject=Hi%20there&body=See%20you"]])
    }

    @Test func webLinksOpenUnchangedInBrowsersTheCatalogDoesNotName() {
        let link = "https://example.org/a%20b?q=1#top"
        #expect(sandbox.choosy(["handle", link], environment: ["PICK": "Lynx"]).status == 0)
        let offered = sandbox.pickerInvocations.last?.lines ?? []
        for name in ["Firefox", "Chromium", "Lynx", "New Browser", "NetSurf Web Browser"] { #expect(offered.contains(name), "\(offered)") }
        #expect(sandbox.launched("term") == [["-e", "lynx", link]])
        #expect(sandbox.choosy(["handle", link], environment: ["PICK": "New Browser (always)"]).status == 0)
        #expect(sandbox.launched("newbrowser") == [[link]])
        #expect(sandbox.choosy("default", "browser").stdout == "org_example_newbrowser\n")
        // The real Firefox entry's own command line, for a dry run.
        let dryRun = sandbox.dryRunBesideWhy(["handle", link, "--app", "firefox", "--dry-run"])
        #expect(dryRun.stdout == "/usr/lib/firefox-esr/firefox-esr 'https://example.org/a%20b?q=1#top'\n", "\(dryRun.stderr)")
    }

    @Test func aNewHandlerMakesThePickerAskAgain() {
        #expect(sandbox.choosy(["handle", "mailto:ada@example.org"], environment: ["PICK": "Sylpheed (always)"]).status == 0)
        #expect(sandbox.choosy("handle", "mailto:ada@example.org").status == 0)
        #expect(sandbox.launched("sylpheed", count: 2).count == 2)
        #expect(sandbox.pickerInvocations.count == 1)
        // A mail client no catalog knows appears: the user is asked again, the default first.
        sandbox.desktopEntry(
            "org.example.Mailer.desktop",
            sandbox.application(
                name: "Mailer", exec: "mailer %u", "MimeType=x-scheme-handler/mailto;\n"
            ))
        #expect(sandbox.choosy(["handle", "mailto:ada@example.org"], environment: ["PICK": "Mailer"]).status == 0)
        #expect(sandbox.pickerInvocations.count == 2)
        #expect(sandbox.pickerInvocations.last?.lines.first == "Sylpheed")
        #expect(sandbox.launched("mailer") == [["mailto:ada@example.org"]])
    }
}
