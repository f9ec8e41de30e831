import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// A catalog server is not trusted with the command line (doc/security.md, "Launch
/// arguments"): a downloaded browser.json that gives Firefox options of its own, served by a
/// real HTTP server, reaches the cache, yet the browser (a recorder behind Firefox ESR's real
/// desktop entry) gets only the bundled catalog's arguments and the URL.
@Suite struct UntrustedCatalogTests {
    let sandbox = Sandbox()
    let server: CatalogServer
    static let url = "https://example.org/"
    var pwned: String { sandbox.root + "/pwned" }

    init() throws {
        let tree = sandbox.root + "/hostile-tree"
        sandbox.write(
            tree + "/app-data/browser.json",
            """
            [{"key": "browser", "name": "Browser", "apps": [
              {"key": "firefox", "name": "Firefox", "app_url_scheme": "http:", "desktop_ids": ["firefox-esr.desktop"],
               "actions": [{"key": "browse", "url_format": "{{url}}"}],
               "private": ["--gpu-launcher=touch \(sandbox.root)/pwned", "--private-window"],
               "new_window": ["--gpu-launcher=touch \(sandbox.root)/pwned", "--new-window"],
               "profiles": {"format": "firefox", "args": ["--remote-debugging-port=9222", "-P", "{{profile}}"],
                            "paths": {"firefox-esr.desktop": "~/.mozilla/firefox/profiles.ini"}}}
            ]}]
            """)
        server = try CatalogServer(serving: tree, in: sandbox)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": "", "CHOOSY_PICKER": sandbox.pickerScript()]
        var entry = String(
            decoding: FileManager.default.contents(
                atPath: Sandbox.packageRoot + "/Tests/Fixtures/debian-desktop-entries/firefox-esr/firefox-esr.desktop")!, as: UTF8.self)
        entry = entry.replacingOccurrences(of: "/usr/lib/firefox-esr/firefox-esr", with: sandbox.recorder("firefox-esr"))
        sandbox.desktopEntry("firefox-esr.desktop", entry, directory: sandbox.dataDir + "/applications")
        sandbox.write(
            sandbox.home + "/.mozilla/firefox/profiles.ini",
            String(
                decoding: FileManager.default.contents(
                    atPath: Sandbox.packageRoot + "/Tests/Fixtures/browser-profiles/profiles.ini")!, as: UTF8.self))
    }

    @Test func aDownloadedCatalogAddsNoArgumentToTheBrowser() throws {
        let updated = sandbox.choosy("update", "browser")
        #expect(updated.status == 0, "\(updated.stderr)")
        // The hostile file is what the cache holds: only the reading side keeps it out.
        #expect(sandbox.read(sandbox.cacheHome + "/choosy/catalog/browser.cache")?.contains("--gpu-launcher") == true)

        let privately = sandbox.choosy(["handle", Self.url, "--private"], environment: ["PICK": "Firefox — Work"])
        #expect(privately.status == 0, "\(privately.stderr)")
        #expect(sandbox.launched("firefox-esr") == [["-P", "Work", "--private-window", Self.url]])

        let profile = sandbox.choosy("handle", Self.url, "--app", "firefox@Work")
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(sandbox.launched("firefox-esr", count: 2).last == ["-P", "Work", Self.url])

        let plain = sandbox.choosy("handle", Self.url, "--app", "firefox", "--private")
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(sandbox.launched("firefox-esr", count: 3).last == ["--private-window", Self.url])
        #expect(!sandbox.exists(pwned))

        // `-v` says why, and describe shows the arguments that are used.
        let described = sandbox.choosy("describe", "browser", "-v")
        #expect(
            described.stderr.contains(
                "choosy: downloaded catalog: ignoring the launch arguments (private, new_window, profiles) of firefox: they come only from the bundled catalog and your own files"
            ),
            "\(described.stderr)")
        #expect(described.stdout.contains("private window: --private-window\n"), "\(described.stdout)")
        #expect(!described.stdout.contains("gpu-launcher") && !described.stdout.contains("remote-debugging"))
        let verbose = sandbox.choosy("handle", Self.url, "--app", "firefox", "--private", "--dry-run", "-v")
        #expect(verbose.stderr.contains("ignoring the launch arguments (private, new_window, profiles) of firefox"), "\(verbose.stderr)")
    }

    /// The user's own catalog file is trusted with them, above the download.
    @Test func theUsersOwnFileMayGiveLaunchArguments() throws {
        #expect(sandbox.choosy("update", "browser").status == 0)
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/browser.json",
            """
            [{"key": "browser", "apps": [{"key": "firefox", "private": ["--private-window", "--kiosk"]}]}]
            """)
        #expect(sandbox.choosy("handle", Self.url, "--app", "firefox", "--private").status == 0)
        #expect(sandbox.launched("firefox-esr") == [["--private-window", "--kiosk", Self.url]])
    }
}
