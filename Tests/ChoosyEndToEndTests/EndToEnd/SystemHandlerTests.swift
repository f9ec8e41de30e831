import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Handlers the desktop knows and the catalog does not, and links with no picker to choose
/// with, end to end through the real binary (doc/links-and-rules.md, "Apps the catalog does not name",
/// and doc/desktop.md, "Desktop use").
@Suite struct SystemHandlerTests {
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
    }

    @Test func aSchemeNoTypeClaimsGoesToItsAssociatedEntriesWithTheLinkUnchanged() {
        sandbox.installApp("alpha.desktop", name: "Alpha", program: "alpha", mimeTypes: ["x-scheme-handler/zqq"])
        sandbox.installApp("beta.desktop", name: "Beta", program: "beta", mimeTypes: ["x-scheme-handler/zqq"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/zqq=beta.desktop;\n")
        let link = "zqq://thing/a%20b?c=d#e"
        // The default comes first; picking always remembers it for the scheme.
        let first = sandbox.choosy(["handle", link], environment: ["PICK": "Beta (always)"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Beta", "Alpha"))
        #expect(sandbox.launched("beta") == [[link]])
        #expect(sandbox.choosy("handle", link).status == 0)
        #expect(sandbox.launched("beta", count: 2).count == 2)
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.recordedRuns("alpha").isEmpty)
    }

    @Test func aLinkABrowserCouldNotOpenIsRefusedInOneLineAndOpensNothing() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        for link in ["https://exa mple.org/", "https://[::1/x", "https://a<b.example/"] {
            let output = sandbox.choosy("handle", link)
            #expect(output.status == 2, "\(link)")
            #expect(output.stderrLines.count == 1 && output.stderr.hasPrefix("choosy: '"), "\(output.stderr)")
            #expect(output.stderr.contains("is not a link a browser can open"), "\(output.stderr)")
        }
        #expect(sandbox.recordedRuns("firefox").isEmpty)
        #expect(sandbox.writtenFiles.filter { $0.hasPrefix("choosy/preferences") }.isEmpty)
    }

    @Test func anAssociationRemovedByTheUserIsNeverUsed() {
        sandbox.installApp("alpha.desktop", name: "Alpha", program: "alpha", mimeTypes: ["x-scheme-handler/zqq"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Removed Associations]\nx-scheme-handler/zqq=alpha.desktop;\n")
        let output = sandbox.choosy("handle", "zqq://x")
        #expect(output.status == 4)
        #expect(output.stderrLines == ["choosy: nothing installed handles zqq: links"])
        #expect(sandbox.recordedRuns("alpha").isEmpty)
    }

    @Test func anAddedAssociationMakesADefaultForHandle() {
        sandbox.installApp("alpha.desktop", name: "Alpha", program: "alpha", mimeTypes: ["x-scheme-handler/zqq"])
        sandbox.installApp("gamma.desktop", name: "Gamma", program: "gamma")
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            """
            [Added Associations]
            x-scheme-handler/zqq=gamma.desktop;
            [Default Applications]
            x-scheme-handler/zqq=gamma.desktop;
            """)
        #expect(sandbox.choosy(["handle", "zqq://x"], environment: ["PICK": "Gamma"]).status == 0)
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Gamma", "Alpha"))
        #expect(sandbox.launched("gamma") == [["zqq://x"]])
    }

    // MARK: No picker

    /// `--app` naming a web app: with no picker to choose the browser, the web app's address
    /// opens with the system's browser, never with the link scheme's own handler (issue 44).
    @Test func anExplicitWebAppWithNoPickerOpensInTheSystemsBrowser() {
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.installApp(id, name: name, program: program, mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        }
        sandbox.installApp("thunderbird.desktop", name: "Thunderbird", program: "thunderbird", mimeTypes: ["x-scheme-handler/mailto"])
        sandbox.write(
            sandbox.configHome + "/mimeapps.list",
            "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\nx-scheme-handler/mailto=thunderbird.desktop;\n")
        let output = sandbox.choosy(
            ["handle", "mailto:ada@example.org?subject=Hi", "--app", "gmail_web"], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("chromium").first?.first?.hasPrefix("https://mail.google.com/") == true, "\(output.stderr)")
        #expect(sandbox.recordedRuns("thunderbird").isEmpty)
    }

    @Test func withNoPickerALinkOpensWithTheSystemsDefaultJustOnceAndSaysSo() {
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.installApp(id, name: name, program: program, mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"])
        }
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        let link = "https://example.org/a?b=c"
        let output = sandbox.choosy(["handle", link], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines.contains(
                "choosy: warning: no picker available, so the link opened with Chromium, the system's handler for https: links, just once (no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset)"
            ), "\(output.stderr)")
        #expect(sandbox.launched("chromium") == [[link]])
        // Nothing was remembered: next time, with a picker, the user is asked.
        #expect(sandbox.choosy("default", "browser").stdout == "")
        #expect(sandbox.choosy(["handle", link], environment: ["PICK": "Firefox"]).status == 0)
        #expect(sandbox.launched("firefox") == [[link]])
    }

    @Test func withNoPickerAndADisplayTheUserIsNotified() {
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.installApp(id, name: name, program: program, mimeTypes: ["x-scheme-handler/https"])
        }
        sandbox.recorder("notify-send")
        var environment = sandbox.withoutPickers()
        environment["DISPLAY"] = ":91"
        let output = sandbox.choosy(["handle", "https://example.org/"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        let notification = sandbox.launched("notify-send")
        #expect(notification.first?.prefix(3) == ["--app-name=choosy", "--icon=preferences-desktop-default-applications", "choosy"])
        #expect(notification.first?.last?.hasPrefix("no picker available, so the link opened with ") == true)
    }

    @Test func withNoPickerTheHandlerInstallReplacedOpensMailtoLinks() {
        let terminal = sandbox.recorder("term")
        sandbox.installApp(
            "neomutt.desktop", name: "NeoMutt", program: "neomutt", mimeTypes: ["x-scheme-handler/mailto"], extra: "Terminal=true\n")
        sandbox.installApp(
            "org.mozilla.Thunderbird.desktop", name: "Thunderbird", program: "thunderbird", mimeTypes: ["x-scheme-handler/mailto"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/mailto=neomutt.desktop;\n")
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        var environment = sandbox.withoutPickers()
        environment["TERMINAL"] = terminal
        let output = sandbox.choosy(["handle", "mailto:ada@example.org?subject=Hi"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("term") == [["-e", "neomutt", "mailto:ada@example.org?subject=Hi"]])
        #expect(sandbox.recordedRuns("thunderbird").isEmpty)
    }

    @Test func withNoPickerAndNoAssociationTheFirstCandidateOpensButOpenStillAsks() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        // Neither entry declares http(s), so only the catalog knows them: the first candidate opens.
        let output = sandbox.choosy(["handle", "https://example.org/"], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]])
        let open = sandbox.choosy(["open", "browser", "browse", "url=https://example.org/"], environment: sandbox.withoutPickers())
        #expect(open.status == 5)
        #expect(open.stderrLines.first?.hasPrefix("choosy: no picker available to choose a Browser app") == true)
    }

    // MARK: A picker command that cannot run

    /// `{"picker": "rofy"}`, `CHOOSY_PICKER`, `--picker 'dmenu -i'` without dmenu: the shell's
    /// 127 means the picker could not show itself, not that the user cancelled (doc/desktop.md).
    /// With no other picker, `handle` opens the link as it would without choosy, one line naming
    /// the command; `open` is the no-picker error, never "cancelled".
    @Test func aPickerCommandThatCannotRunIsNoCancel() {
        for (id, name, program) in [("firefox.desktop", "Firefox", "firefox"), ("chromium.desktop", "Chromium", "chromium")] {
            sandbox.installApp(id, name: name, program: program, mimeTypes: ["x-scheme-handler/https"])
        }
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        let link = "https://example.org/a"
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"picker": "rofy"}"#)
        let configured = sandbox.choosy(["handle", link], environment: sandbox.withoutPickers())
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(sandbox.launched("chromium") == [[link]])
        let named = configured.stderrLines.filter { $0.hasPrefix("choosy: ") && $0.contains("'rofy'") }
        #expect(
            named == [
                "choosy: warning: the picker command 'rofy' could not be run (not found: the shell's status 127); trying the automatic picker"
            ], "\(configured.stderr)")
        #expect(!configured.stderr.contains("cancelled"))

        var environment = sandbox.withoutPickers()
        environment.removeValue(forKey: "CHOOSY_PICKER")
        let option = sandbox.choosy(["handle", link, "--picker", "dmenu -i"], environment: environment)
        #expect(option.status == 0, "\(option.stderr)")
        #expect(sandbox.launched("chromium", count: 2).count == 2)
        #expect(option.stderr.contains("the picker command 'dmenu -i' could not be run"), "\(option.stderr)")

        let open = sandbox.choosy(["open", "browser", "browse", "url=\(link)", "--picker", "dmenu -i"], environment: environment)
        #expect(open.status == 5)
        #expect(open.stderrLines.last?.hasPrefix("choosy: no picker available to choose a Browser app") == true, "\(open.stderr)")
        #expect(!open.stderr.contains("cancelled"))
    }
}
