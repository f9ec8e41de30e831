import ChoosyTestSupport
import Testing

@testable import ChoosyKit

@Suite struct AppProbeTests {
    private func probe(_ sandbox: Sandbox, diagnostics: DiagnosticSink? = nil) -> AppProbe {
        let environment = sandbox.choosyEnvironment
        let index = DesktopEntryIndex(environment: environment, fileSystem: LocalFileSystem(), clock: SystemClock())
        return AppProbe(
            index: index, mimeApps: MimeAppsList(environment: environment, index: index, fileSystem: LocalFileSystem()),
            locale: DesktopLocale.messages(in: environment), diagnostics: diagnostics
        )
    }

    @Test func takesTheFirstUsableDesktopID() {
        let sandbox = Sandbox()
        let firefox = App(
            key: "firefox", name: "Firefox", urlScheme: "firefox:",
            desktopIDs: [
                "firefox.desktop", "firefox-esr.desktop", "org.mozilla.firefox.desktop",
            ])
        #expect(probe(sandbox).installedEntry(for: firefox) == nil)

        sandbox.desktopEntry(
            "org.mozilla.firefox.desktop", sandbox.application(name: "Firefox (Flatpak)", exec: "flatpak run org.mozilla.firefox %u"))
        sandbox.desktopEntry(
            "firefox-esr.desktop", sandbox.application(name: "Firefox ESR", exec: "firefox-esr %u", "TryExec=firefox-esr-is-gone\n"))
        let diagnostics = RecordingDiagnostics()
        #expect(probe(sandbox, diagnostics: diagnostics).installedEntry(for: firefox)?.id == "org.mozilla.firefox.desktop")
        #expect(
            diagnostics.explanations == [
                "firefox: firefox.desktop is not installed",
                "firefox: firefox-esr.desktop is not usable: TryExec 'firefox-esr-is-gone' is not an installed executable",
            ])

        sandbox.desktopEntry("firefox.desktop", sandbox.application(name: "Firefox", exec: "firefox %u"))
        #expect(probe(sandbox).installedEntry(for: firefox)?.id == "firefox.desktop")
    }

    @Test func withoutDesktopIDsUsesTheSchemeHandler() {
        let sandbox = Sandbox()
        let tweetbot = App(key: "tweetbot", name: "Tweetbot", urlScheme: "Tweetbot:")
        #expect(probe(sandbox).installedEntry(for: tweetbot) == nil)

        sandbox.desktopEntry("a.desktop", sandbox.application(name: "A", exec: "a %u", "MimeType=x-scheme-handler/tweetbot;\n"))
        sandbox.desktopEntry("b.desktop", sandbox.application(name: "B", exec: "b %u", "MimeType=x-scheme-handler/tweetbot;\n"))
        #expect(probe(sandbox).installedEntry(for: tweetbot)?.id == "a.desktop")

        // Several handlers: the system's default among them is preferred.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/tweetbot=b.desktop;\n")
        #expect(probe(sandbox).installedEntry(for: tweetbot)?.id == "b.desktop")

        // A named default counts as associated even when it does not list the scheme (doc/spec-choices.md).
        sandbox.desktopEntry("c.desktop", sandbox.application(name: "C", exec: "c %u"))
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/tweetbot=c.desktop;\n")
        #expect(probe(sandbox).installedEntry(for: tweetbot)?.id == "c.desktop")
    }

    @Test func leavesWebAppsToTheBrowserType() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("web.desktop", sandbox.application(name: "Web", exec: "web %u", "MimeType=x-scheme-handler/https;\n"))
        // A web app is not installed by whatever handles https: links; it opens in the browser.
        let web = App(key: "twitter_web", name: "Twitter (web)", urlScheme: "https://twitter.com")
        #expect(web.isWebApp)
        #expect(probe(sandbox).installedEntry(for: web) == nil)
        // A browser names its desktop entries, so its http: scheme does not make it a web app.
        let browser = App(key: "web", name: "Web", urlScheme: "http:", desktopIDs: ["web.desktop"])
        #expect(!browser.isWebApp)
        #expect(probe(sandbox).installedEntry(for: browser)?.id == "web.desktop")
    }

    @Test func showsTheTranslatedName() {
        let sandbox = Sandbox()
        sandbox.desktopEntry(
            "files.desktop",
            sandbox.application(
                name: "Files", exec: "files %u", "Name[de]=Dateien\nName[sr]=Датотеке\nName[sr@latin]=Datoteke\n"
            ))
        let app = App(key: "files", name: "Catalog Files", urlScheme: "files:", desktopIDs: ["files.desktop"])
        #expect(probe(sandbox).displayName(for: app) == "Catalog Files")
        sandbox.overrides["LANG"] = "de_DE.UTF-8"
        #expect(probe(sandbox).displayName(for: app) == "Dateien")
        sandbox.overrides["LC_MESSAGES"] = "sr_RS.UTF-8@latin"
        #expect(probe(sandbox).displayName(for: app) == "Datoteke")
        sandbox.overrides["LC_ALL"] = "sr_RS.UTF-8"
        #expect(probe(sandbox).displayName(for: app) == "Датотеке")
        sandbox.overrides["LC_ALL"] = "fr_FR.UTF-8"
        #expect(probe(sandbox).displayName(for: app) == "Catalog Files")
        let missing = App(key: "missing", name: "Missing", urlScheme: "missing:", desktopIDs: ["missing.desktop"])
        #expect(probe(sandbox).displayName(for: missing) == "Missing")
    }

    @Test func theCLocaleReadsNameC() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("files.desktop", sandbox.application(name: "Files", exec: "files %u", "Name[C]=Files (C)\nName[de]=Dateien\n"))
        let app = App(key: "files", name: "Catalog Files", urlScheme: "files:", desktopIDs: ["files.desktop"])
        for locale in ["C", "C.UTF-8", "POSIX"] {
            sandbox.overrides["LANG"] = locale
            #expect(probe(sandbox).displayName(for: app) == "Files (C)", "\(locale)")
        }
    }
}
