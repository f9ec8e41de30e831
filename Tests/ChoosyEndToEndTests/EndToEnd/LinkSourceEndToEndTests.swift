import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Rules by the app a link came from (doc/links-and-rules.md, "Where a link came from"), with
/// real processes: an app started the way GIO starts one, an app known by its executable, each
/// running `choosy handle URL` directly, through `sh -c` and through `xdg-open`.
@Suite struct LinkSourceEndToEndTests {
    let sandbox = Sandbox()
    let link = "https://github.com/choosy"

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        sandbox.installApp("org.kde.falkon.desktop", name: "Falkon", program: "falkon")
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        // The apps links come from: each runs its arguments as its child, and waits.
        for app in ["mailer", "chatter"] {
            sandbox.write(sandbox.bin + "/" + app, "#!/bin/sh\n\"$@\"\n", mode: 0o755)
        }
        // Known by GIO's variables only: its Exec runs another program.
        sandbox.desktopEntry("org.example.Mailer.desktop", sandbox.application(name: "Mailer", exec: "mailer-launcher %u"))
        sandbox.desktopEntry("chatter.desktop", sandbox.application(name: "Chatter", exec: "chatter %U"))
    }

    func rule(_ arguments: String...) {
        let output = sandbox.choosy(["rule"] + arguments)
        #expect(output.status == 0 && output.stderr == "", "\(arguments): \(output.stderr)")
    }

    /// `choosy ARGUMENTS` run by `app` (through `via` first), the app started by GIO when `gio`.
    func choosy(from app: String, via: [String] = [], gio: Bool = false, _ arguments: String..., environment: [String: String] = [:])
        -> Sandbox.Output
    {
        var wrapper = [sandbox.bin + "/" + app] + via
        if gio {
            // GIO sets both for the process it starts, with that process's own pid.
            wrapper = ["/bin/sh", "-c", "GIO_LAUNCHED_DESKTOP_FILE_PID=$$ exec \"$@\"", "sh"] + wrapper
        }
        var variables = environment
        if gio { variables["GIO_LAUNCHED_DESKTOP_FILE"] = sandbox.dataHome + "/applications/org.example.Mailer.desktop" }
        return sandbox.choosy(arguments, environment: variables, wrapper: wrapper)
    }

    @Test func aRuleForTheAppGIOStartedDecidesItsLinksDirectlyAndThroughShell() {
        rule("add", "*", "--from", "org.example.Mailer", "--app", "chromium")
        let direct = choosy(from: "mailer", gio: true, "handle", link, "-v")
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(
            direct.stderrLines.contains {
                $0.hasPrefix("choosy: the link came from org.example.Mailer.desktop (the GIO_LAUNCHED_DESKTOP_FILE of process ")
            })
        #expect(direct.stderrLines.contains("choosy: the site rule '* --from org.example.Mailer.desktop' decides: chromium"))
        #expect(choosy(from: "mailer", via: ["/bin/sh", "-c", "\"$@\"", "sh"], gio: true, "handle", link).status == 0)
        #expect(sandbox.launched("chromium", count: 2) == [[link], [link]])
        // The same link from elsewhere: the ordinary decision.
        #expect(sandbox.choosy("handle", link).status == 0)
        #expect(choosy(from: "mailer", "handle", link).status == 0, "without GIO's variables the mailer is not known by them")
        #expect(sandbox.launched("firefox", count: 2) == [[link], [link]])
    }

    @Test func anAppIsKnownByItsExecutable() {
        rule("add", "github.com", "--from", "chatter", "--app", "falkon")
        #expect(choosy(from: "chatter", "handle", link).status == 0)
        #expect(choosy(from: "chatter", via: ["/bin/sh", "-c", "\"$@\"", "sh"], "handle", link).status == 0)
        #expect(sandbox.launched("falkon", count: 2) == [[link], [link]])
        let json = choosy(from: "chatter", "handle", "https://example.org/", "--json")
        #expect(Sandbox.jsonObject(json.stdout)?["source"] as? String == "chatter.desktop", "\(json.stdout)")
        #expect(sandbox.launched("firefox") == [["https://example.org/"]], "the rule is for github.com only")
        #expect(Sandbox.jsonObject(sandbox.choosy("handle", "https://example.org/", "--json").stdout)?["source"] == nil)
    }

    /// One program may serve several entries: the entry GIO launched a process for beats the
    /// entry its executable runs.
    @Test func theEntryGIOLaunchedBeatsTheEntryOfTheExecutable() {
        rule("add", "*", "--from", "org.example.Mailer", "--app", "chromium")
        rule("add", "*", "--from", "chatter", "--app", "falkon")
        let explained = choosy(from: "chatter", gio: true, "handle", link, "-v", "--json")
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(Sandbox.jsonObject(explained.stdout)?["source"] as? String == "org.example.Mailer.desktop", "\(explained.stdout)")
        #expect(
            explained.stderrLines.contains {
                $0.hasPrefix("choosy: the link came from org.example.Mailer.desktop (the GIO_LAUNCHED_DESKTOP_FILE of process ")
            }, "\(explained.stderr)")
        #expect(sandbox.launched("chromium") == [[link]])
        #expect(choosy(from: "chatter", "handle", link).status == 0, "without GIO's variables, the executable's entry")
        #expect(sandbox.launched("falkon") == [[link]])
    }

    /// `--json` names the source by its desktop ID, however `CHOOSY_SOURCE` spells it.
    @Test(arguments: [
        ("chatter", "chatter.desktop"), ("chatter.desktop", "chatter.desktop"), ("falkon", "org.kde.falkon.desktop"),
        ("org.kde.falkon", "org.kde.falkon.desktop"), ("firefox", "firefox.desktop"), ("nothing.known", "nothing.known.desktop"),
    ])
    func theJSONSourceIsADesktopID(declared: String, id: String) {
        let output = sandbox.choosy(["handle", "https://example.org/", "--json", "--dry-run"], environment: ["CHOOSY_SOURCE": declared])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Sandbox.jsonObject(output.stdout)?["source"] as? String == id, "\(output.stdout)")
    }

    /// The same when no picker can be shown and the link opens as it would without choosy.
    @Test func theFallbacksJSONSourceIsADesktopIDToo() {
        #expect(sandbox.choosy("reset", "browser").status == 0)
        let output = sandbox.choosy(
            ["handle", "https://example.org/", "--json", "--dry-run"], environment: sandbox.withoutPickers(["CHOOSY_SOURCE": "falkon"]))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("no picker available"), "\(output.stderr)")
        #expect(Sandbox.jsonObject(output.stdout)?["source"] as? String == "org.kde.falkon.desktop", "\(output.stdout)")
    }

    @Test func withoutRulesBySourceVerboseStillNamesAnAppByItsExecutable() {
        let explained = choosy(from: "chatter", via: ["/bin/sh", "-c", "\"$@\"", "sh"], "handle", link, "-v")
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(
            explained.stderrLines.contains {
                $0.hasPrefix("choosy: the link came from chatter.desktop (process ")
                    && $0.hasSuffix(" runs chatter, the Exec of chatter.desktop)")
            }, "\(explained.stderr)")
        #expect(sandbox.launched("firefox") == [[link]])
    }

    /// The kernel allows 128 KiB per variable: three make an environment choosy does not read.
    @Test func anAppWithAHugeEnvironmentIsNoSourceAndVerboseSaysWhy() {
        rule("add", "*", "--from", "org.example.Mailer", "--app", "chromium")
        var huge: [String: String] = [:]
        for name in ["HUGE_A", "HUGE_B", "HUGE_C"] { huge[name] = String(repeating: "x", count: 100 * 1024) }
        let explained = choosy(from: "mailer", gio: true, "handle", link, "-v", environment: huge)
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(
            explained.stderrLines.contains {
                $0.hasPrefix("choosy: the environment of process ") && $0.contains(" (mailer) is not searched: ")
            },
            "\(explained.stderr)")
        #expect(explained.stderrLines.contains("choosy: the link came from no app choosy can name"))
        #expect(sandbox.launched("firefox") == [[link]], "the ordinary rules decide")
    }

    /// choosy as the desktop's handler (`choosy install`), reached by the real xdg-open.
    @Test func throughXDGOpenTheSourceIsStillTheApp() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open"))
        #expect(sandbox.choosy("install", "--default-handler").status == 0)
        rule("add", "*", "--from", "chatter", "--app", "chromium")
        // xdg-open asks mimeapps.list only with a display.
        var environment = sandbox.environment
        environment["DISPLAY"] = ":99"
        var request = ProcessRequest(
            argv: ["/usr/bin/setsid", "-w", sandbox.bin + "/chatter", "/usr/bin/xdg-open", link], environment: environment,
            workingDirectory: sandbox.root, input: nil, timeout: 60
        )
        request.readsUntilEndOfOutput = true
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(sandbox.launched("chromium") == [[link]])
    }

    @Test func choosySourceWinsOverEveryOtherWay() {
        rule("add", "*", "--from", "org.example.Mailer", "--app", "chromium")
        rule("add", "*", "--from", "chatter", "--app", "falkon")
        #expect(choosy(from: "mailer", gio: true, "handle", link, environment: ["CHOOSY_SOURCE": "chatter"]).status == 0)
        #expect(sandbox.launched("falkon") == [[link]])
        #expect(sandbox.choosy(["handle", link], environment: ["CHOOSY_SOURCE": "nothing.known"]).status == 0)
        #expect(sandbox.launched("firefox") == [[link]], "an unknown source follows the ordinary rules")
    }

    @Test(arguments: [true, false])
    func aStarRuleForTheSourceAndASiteRuleCombineInEitherOrder(starFirst: Bool) {
        let star = ["add", "*", "--from", "chatter", "--app", "chromium"]
        let site = ["add", "github.com", "--app", "falkon"]
        for arguments in starFirst ? [star, site] : [site, star] {
            #expect(sandbox.choosy(["rule"] + arguments).status == 0)
        }
        #expect(choosy(from: "chatter", "handle", link).status == 0)
        #expect(sandbox.launched("chromium") == [[link]], "a rule with --from beats any without")
        #expect(choosy(from: "mailer", "handle", link).status == 0)
        #expect(sandbox.launched("falkon") == [[link]])
        let listed = sandbox.choosy("rule", "list").stdout
        #expect(
            listed
                == (starFirst
                    ? "* --from chatter.desktop  chromium\ngithub.com                falkon\n"
                    : "github.com                falkon\n* --from chatter.desktop  chromium\n"))
        #expect(sandbox.choosy("rule", "test", link, "--from", "chatter").stdout.hasPrefix("rule: * --from chatter.desktop (chromium)\n"))
        #expect(sandbox.choosy("rule", "test", link).stdout.hasPrefix("rule: github.com (falkon)\n"))
    }

    @Test func sourcesAreCheckedRemovedAndCompleted() {
        let unknown = sandbox.choosy("rule", "add", "*", "--from", "nothing.known", "--app", "firefox")
        #expect(unknown.status == 3 && unknown.stderr.contains("no desktop entry or app is 'nothing.known'"))
        let star = sandbox.choosy("rule", "add", "*", "--app", "firefox")
        #expect(star.status == 2 && star.stderr.contains("the site '*' is only for a rule with --from SOURCE"))
        rule("add", "*", "--from", "chatter.desktop", "--ask")
        rule("add", "github.com", "--app", "falkon")
        #expect(sandbox.choosy("rule", "remove", "*").status == 2, "* is no site without --from")
        #expect(sandbox.choosy("rule", "remove", "github.com", "--from", "chatter").status == 3)
        rule("remove", "*", "--from", "chatter")
        #expect(sandbox.choosy("rule", "list").stdout == "github.com  falkon\n")
        let completed = sandbox.choosy("__complete", "rule", "add", "*", "--from", "cha").stdout
        #expect(completed.split(separator: "\n").contains("chatter\tdesktop entry"), "\(completed)")
    }
}
