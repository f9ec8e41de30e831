import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// The desktop path of doc/desktop.md through the real binary: what the launched app's
/// environment holds (the activation token, its own entry and pid), who else sees a token,
/// and the no-picker fallback of `handle` (the user's own default, a message that names the
/// right fix). Pickers here are scripts on PATH under the real pickers' names, shown on a
/// socket the test listens on; the real pickers are `RealWaylandPickerTests`' and
/// `RealGraphicalPickerTests`'.
@Suite struct DesktopSessionTests {
    let sandbox = Sandbox()
    static let link = "https://example.org/a?b=c"
    /// What choosy's own launch left in its environment (GIO's launcher, a dock).
    static let launchedChoosy = [
        "XDG_ACTIVATION_TOKEN": "token-7", "GIO_LAUNCHED_DESKTOP_FILE": "/usr/share/applications/choosy.desktop",
        "GIO_LAUNCHED_DESKTOP_FILE_PID": "4242", "BAMF_DESKTOP_FILE_HINT": "/usr/share/applications/choosy.desktop",
    ]

    private func installBrowsers() -> (firefox: String, chromium: String) {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/https"])
        return (sandbox.dataHome + "/applications/firefox.desktop", sandbox.dataHome + "/applications/chromium.desktop")
    }

    /// A picker script named `name`: it records its environment, then prints `answer` (or,
    /// with `displayError`, that on stderr and exits 1, as a picker with no display does).
    private func fakePicker(_ name: String, answer: String = "", displayError: String? = nil) {
        let fail = displayError.map { "echo '\($0)' >&2; exit 1" } ?? ""
        sandbox.write(
            sandbox.bin + "/" + name,
            """
            #!/bin/sh
            cat /proc/$$/environ > "\(sandbox.records)/\(name).$(date +%s%N).picker-env"
            cat > /dev/null
            \(fail)
            echo '\(answer)'

            """, mode: 0o755)
    }

    private func pickerEnvironments(_ name: String) -> [[String: String]] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.records)) ?? []).filter {
            $0.hasPrefix(name + ".") && $0.hasSuffix(".picker-env")
        }.sorted()
        return files.map { file in
            var environment: [String: String] = [:]
            for entry in (FileManager.default.contents(atPath: sandbox.records + "/" + file) ?? Data()).split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                if let equals = text.firstIndex(of: "=") {
                    environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
                }
            }
            return environment
        }
    }

    // MARK: Focus and environment

    @Test(arguments: ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"])
    func withNoPickerTheAppGetsTheTokenInBothVariablesAndItsOwnEntryAndPid(variable: String) throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        var environment = Self.launchedChoosy
        environment["XDG_ACTIVATION_TOKEN"] = nil
        environment[variable] = "token-7"
        let output = sandbox.choosy(["open", "browser", "browse", "url=\(Self.link)"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[Self.link]])
        let app = try #require(sandbox.recordedProcesses("firefox").first)
        #expect(app.environment["XDG_ACTIVATION_TOKEN"] == "token-7")
        #expect(app.environment["DESKTOP_STARTUP_ID"] == "token-7")
        #expect(app.environment["GIO_LAUNCHED_DESKTOP_FILE"] == sandbox.dataHome + "/applications/firefox.desktop")
        #expect(app.environment["GIO_LAUNCHED_DESKTOP_FILE_PID"] == app.pid)
        #expect(app.environment["BAMF_DESKTOP_FILE_HINT"] == nil)
    }

    /// The pid is the process choosy started: the terminal, for a `Terminal=true` app.
    @Test func aTerminalAppsPidIsTheTerminals() throws {
        let terminal = sandbox.recorder("term")
        sandbox.installApp(
            "neomutt.desktop", name: "NeoMutt", program: "neomutt", mimeTypes: ["x-scheme-handler/mailto"], extra: "Terminal=true\n")
        let output = sandbox.choosy(["handle", "mailto:ada@example.org"], environment: ["TERMINAL": terminal, "DISPLAY": ":93"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("term").first?.prefix(2) == ["-e", "neomutt"])
        let started = try #require(sandbox.recordedProcesses("term").first)
        #expect(started.environment["GIO_LAUNCHED_DESKTOP_FILE_PID"] == started.pid)
        #expect(started.environment["GIO_LAUNCHED_DESKTOP_FILE"] == sandbox.dataHome + "/applications/neomutt.desktop")
    }

    /// A terminal app under Wayland whose terminal draws on X11 only (no XWayland, so no
    /// DISPLAY) is started but cannot show itself: it is said, as for a graphical app with no
    /// display at all (SPEC §5), not left to fail out of sight.
    @Test func aTerminalAppWhoseTerminalHasNoDisplayHereIsWarnedAbout() throws {
        let xterm = sandbox.recorder("xterm")
        #expect(symlink(xterm, sandbox.bin + "/x-terminal-emulator") == 0)
        sandbox.installApp(
            "neomutt.desktop", name: "NeoMutt", program: "neomutt", mimeTypes: ["x-scheme-handler/mailto"], extra: "Terminal=true\n")
        let wayland = sandbox.withoutPickers(["WAYLAND_DISPLAY": "wayland-1"])
        let output = sandbox.choosy(["handle", "mailto:ada@example.org"], environment: wayland)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("xterm").first?.prefix(2) == ["-e", "neomutt"])
        #expect(
            output.stderrLines == [
                "choosy: warning: started neomutt.desktop, an app that runs in a terminal, but xterm draws on X11 only, and DISPLAY is not set: it may not be able to show itself"
            ], "\(output.stderr)")
        // With XWayland's DISPLAY too, nothing to say.
        let both = sandbox.choosy(["handle", "mailto:ada@example.org"], environment: wayland.merging(["DISPLAY": ":95"]) { $1 })
        #expect(both.status == 0 && both.stderr.isEmpty, "\(both.stderr)")
    }

    /// A graphical picker uses the token; the app it picks does not get that used token,
    /// and a picker that could not show itself leaves it unused.
    @Test func withAGraphicalPickerThePickerGetsTheTokenAndTheAppDoesNot() throws {
        _ = installBrowsers()
        let display = try #require(ListeningSocket(path: sandbox.root + "/wl-0"))
        fakePicker("fuzzel", answer: "Chromium")
        let output = sandbox.choosy(
            ["handle", Self.link],
            environment: sandbox.withoutPickers(Self.launchedChoosy.merging(["WAYLAND_DISPLAY": display.path]) { $1 }))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("chromium") == [[Self.link]])
        #expect(pickerEnvironments("fuzzel").map { $0["XDG_ACTIVATION_TOKEN"] } == ["token-7"])
        #expect(pickerEnvironments("fuzzel").first?["GIO_LAUNCHED_DESKTOP_FILE"] == nil)
        let app = try #require(sandbox.recordedProcesses("chromium").first)
        #expect(app.environment["XDG_ACTIVATION_TOKEN"] == nil && app.environment["DESKTOP_STARTUP_ID"] == nil)
        #expect(app.environment["GIO_LAUNCHED_DESKTOP_FILE"] == sandbox.dataHome + "/applications/chromium.desktop")
    }

    @Test func noOtherProcessInheritsTheToken() throws {
        _ = installBrowsers()
        sandbox.recorder("notify-send")
        // No picker can be shown: the fallback opens the link and notifies.
        let output = sandbox.choosy(
            ["handle", Self.link], environment: sandbox.withoutPickers(Self.launchedChoosy.merging(["DISPLAY": ":94"]) { $1 }))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("notify-send").count == 1)
        let notifier = try #require(sandbox.recordedProcesses("notify-send").first)
        for name in [
            "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID", "GIO_LAUNCHED_DESKTOP_FILE", "GIO_LAUNCHED_DESKTOP_FILE_PID",
            "BAMF_DESKTOP_FILE_HINT",
        ] {
            #expect(notifier.environment[name] == nil, "\(name)")
        }
        // The app that opened the link got it: no picker used it. It is detached, so it may
        // record itself after notify-send.
        var opened = sandbox.recordedProcesses("chromium") + sandbox.recordedProcesses("firefox")
        for _ in 0..<500 where opened.isEmpty {
            usleep(20_000)
            opened = sandbox.recordedProcesses("chromium") + sandbox.recordedProcesses("firefox")
        }
        #expect(opened.map { $0.environment["XDG_ACTIVATION_TOKEN"] } == ["token-7"])
    }

    /// A route's callback is no app the user asked for: though the action (`list`) started
    /// nothing, so the token is unused, the app that opens the callback does not get it.
    @Test func aRouteCallbackNeverGetsTheToken() throws {
        sandbox.installApp("caller.desktop", name: "Caller", program: "caller", mimeTypes: ["x-scheme-handler/zqcaller"])
        let output = sandbox.choosy(
            ["route", "choosy://x-callback-url/list?x-success=zqcaller%3A%2F%2Fdone"],
            environment: Self.launchedChoosy.merging(["DISPLAY": ":95"]) { $1 })
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("caller").first?.first?.hasPrefix("zqcaller://done?") == true, "\(sandbox.launched("caller"))")
        let callback = try #require(sandbox.recordedProcesses("caller").first)
        #expect(callback.environment["XDG_ACTIVATION_TOKEN"] == nil && callback.environment["DESKTOP_STARTUP_ID"] == nil)
        #expect(callback.environment["GIO_LAUNCHED_DESKTOP_FILE"] == sandbox.dataHome + "/applications/caller.desktop")
    }

    /// Variables (names, values, the token) given as bytes that are not UTF-8 reach the app as
    /// those bytes, not with U+FFFD (doc/security.md, "Links byte for byte").
    @Test func variablesThatAreNotUTF8ReachTheAppByteForByte() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        // `env` puts the bytes in as they are: NAME=VALUE words made by printf.
        let wrapper = sandbox.write(
            "bin/odd-env",
            """
            #!/bin/sh
            exec env "ODD=$(printf 'a\\377b\\300')" "$(printf 'N\\377ME')=plain" "XDG_ACTIVATION_TOKEN=$(printf 'tok\\351n')" "$@"

            """, mode: 0o755)
        let output = sandbox.choosy(["open", "browser", "browse", "url=\(Self.link)"], environment: ["DISPLAY": ":96"], wrapper: [wrapper])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[Self.link]])
        let entries = try #require(sandbox.recordedEnvironmentBytes("firefox").first)
        for expected: [UInt8] in [
            Array("ODD=a".utf8) + [0xFF, UInt8(ascii: "b"), 0xC0], [UInt8(ascii: "N"), 0xFF] + Array("ME=plain".utf8),
            Array("XDG_ACTIVATION_TOKEN=tok".utf8) + [0xE9, UInt8(ascii: "n")],
            Array("DESKTOP_STARTUP_ID=tok".utf8) + [0xE9, UInt8(ascii: "n")],
        ] {
            #expect(
                entries.contains(expected),
                "\(String(decoding: expected, as: UTF8.self)) is not among \(entries.map { String(decoding: $0, as: UTF8.self) })")
        }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        #expect(!entries.contains { entry in entry.indices.dropLast(2).contains { entry[$0..<($0 + 3)].elementsEqual(replacement) } })
    }

    // MARK: No picker

    /// Firefox is the user's default; Chromium was installed since: a picker would ask, and
    /// with none the link opens in Firefox, not in the new app or the system's choice.
    @Test(arguments: [link, "https://www.youtube.com/watch?v=dQw4w9WgXcQ"])
    func withNoPickerALinkOpensInTheUsersOwnDefault(link: String) {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        #expect(sandbox.choosy("default", "browser", "firefox").status == 0)
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/https"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        let output = sandbox.choosy(["handle", link], environment: sandbox.withoutPickers())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines == [
                "choosy: warning: no picker available, so the link opened with Firefox, your default for Browser, just once (no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset)"
            ])
        #expect(sandbox.launched("firefox") == [[link]])
        #expect(sandbox.recordedRuns("chromium").isEmpty)
        // The new app is offered the next time a picker can be shown.
        #expect(sandbox.choosy("default", "browser").stdout == "firefox\n")
    }

    /// rofi and zenity are installed, and the display is what is missing: the message says
    /// so, and neither picker was started.
    @Test func installedPickersWhoseDisplayDoesNotAnswerFallBackAndSayWhy() {
        _ = installBrowsers()
        fakePicker("rofi", answer: "Firefox")
        fakePicker("zenity", answer: "Firefox")
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=chromium.desktop;\n")
        let output = sandbox.choosy(["handle", Self.link, "--dry-run"], environment: sandbox.withoutPickers(["DISPLAY": ":95"]))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines == [
                "choosy: warning: no picker available, so the link would open with Chromium, the system's handler for https: links, just once (rofi: DISPLAY=:95 does not answer; zenity: DISPLAY=:95 does not answer)"
            ])
        #expect(pickerEnvironments("rofi").isEmpty && pickerEnvironments("zenity").isEmpty)
        #expect(sandbox.recordedRuns("chromium").isEmpty && sandbox.recordedRuns("firefox").isEmpty)
    }

    /// A picker that fails with its display's own error is no cancel: the next is shown, and
    /// its messages reach stderr under -v only.
    @Test func aPickerThatCannotOpenItsDisplayIsPassedOverForTheNext() throws {
        _ = installBrowsers()
        let display = try #require(ListeningSocket(path: sandbox.root + "/wl-1"))
        fakePicker("fuzzel", displayError: " err: wayland.c:1804: failed to connect to wayland; no compositor running?")
        fakePicker("wofi", answer: "Firefox")
        let environment = sandbox.withoutPickers(["WAYLAND_DISPLAY": display.path])
        let quiet = sandbox.choosy(["handle", Self.link], environment: environment)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr == "")
        #expect(sandbox.launched("firefox") == [[Self.link]])
        let verbose = sandbox.choosy(["handle", Self.link, "-v"], environment: environment)
        #expect(
            verbose.stderrLines.contains("choosy: fuzzel:  err: wayland.c:1804: failed to connect to wayland; no compositor running?"),
            "\(verbose.stderr)")
        #expect(
            verbose.stderrLines.contains {
                $0.hasPrefix("choosy: fuzzel could not open its display") && $0.hasSuffix("; trying the next picker")
            }, "\(verbose.stderr)")
        // With no picker left, the fallback opens the link instead of dropping it.
        fakePicker("wofi", displayError: "(wofi:1): Gtk-WARNING **: cannot open display: ")
        let none = sandbox.choosy(["handle", Self.link], environment: environment)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stderrLines.count == 1 && none.stderr.contains("fuzzel could not open its display"), "\(none.stderr)")
        // Chromium: with no default named, the first entry of the scheme (by ID) is the system's.
        #expect(sandbox.launched("chromium") == [[Self.link]])
    }

    /// `open` has no fallback: no picker that can show itself is exit 5, with why.
    @Test func openWithNoPickerThatShowsItselfFailsWith5() {
        _ = installBrowsers()
        fakePicker("rofi", answer: "Firefox")
        let output = sandbox.choosy(
            ["open", "browser", "browse", "url=\(Self.link)"], environment: sandbox.withoutPickers(["DISPLAY": ":96"]))
        #expect(output.status == 5)
        #expect(
            output.stderrLines == [
                "choosy: no picker available to choose a Browser app (candidates: firefox, chromium): rofi: DISPLAY=:96 does not answer; pass --app KEY or --picker"
            ])
    }
}
