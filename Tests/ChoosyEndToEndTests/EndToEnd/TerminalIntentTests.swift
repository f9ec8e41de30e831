import ChoosyTestSupport
import Foundation
import Testing

/// `Terminal=true` apps, as a user's desktop runs them (doc/desktop.md, "Apps that run in a
/// terminal"): `$TERMINAL`, else the terminal the desktop chose for the terminal intent
/// (`intentapps.list`, plain and desktop-specific, else an entry with
/// `Implements=org.freedesktop.Terminal1`), asked over a real session bus to run the app
/// (Tests/Fixtures/dbus/terminal_service.py records each `LaunchCommand`), or started by its own
/// `Exec` when the bus cannot reach it; then `xdg-terminal-exec` and `x-terminal-emulator -e`.
@Suite struct TerminalIntentTests {
    static let intent = "org.freedesktop.Terminal1"
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["DISPLAY"] = ":93"
        sandbox.overrides["XDG_ACTIVATION_TOKEN"] = "token-9"
        // Only the sandbox's programs, and the tools its recorders use: no terminal of the machine is found.
        sandbox.overrides["PATH"] = sandbox.bin
        for tool in ["date", "cat", "mv"] {
            try? FileManager.default.createSymbolicLink(atPath: sandbox.bin + "/" + tool, withDestinationPath: "/bin/" + tool)
        }
        sandbox.installApp("tui.desktop", name: "Tui", program: "tui-app", mimeTypes: ["x-scheme-handler/tuiapp"], extra: "Terminal=true\n")
    }

    /// A terminal's desktop entry, `<name>.desktop` in the system's applications directory,
    /// implementing the terminal intent; its `Exec` is a recorder of the same name.
    @discardableResult
    func terminalEntry(_ name: String, implements: Bool = true, argumentBeforeCommand: String? = "--") -> String {
        let program = sandbox.recorder(name)
        sandbox.desktopEntry(
            name + ".desktop",
            sandbox.application(
                name: name, exec: "\(program) --new-window",
                "Categories=System;TerminalEmulator;\n" + (implements ? "Implements=\(Self.intent);\n" : "")
                    + (argumentBeforeCommand.map { "X-TerminalArgExec=\($0)\n" } ?? "")),
            directory: sandbox.dataDir + "/applications")
        return program
    }

    func intentApps(_ file: String, _ ids: String...) {
        sandbox.write(sandbox.configHome + "/" + file, "[Default Applications]\n\(Self.intent)=\(ids.map { $0 + ";" }.joined())\n")
    }

    /// Where the terminal service records its calls.
    var record: String { sandbox.root + "/launches.jsonl" }

    /// A session bus with the test terminal running on it, owning `name`.
    func busWithTerminal(_ name: String) throws -> SessionBusDaemon {
        let daemon = try SessionBusDaemon(in: sandbox)
        defer { withExtendedLifetime(daemon) {} }
        try daemon.run("terminal_service.py", [name, record])
        return daemon
    }

    /// What the terminal service recorded, one call a line.
    func calls(_ record: String) -> [[String: Any]] {
        (sandbox.read(record) ?? "").split(separator: "\n").compactMap { Sandbox.jsonObject(String($0)) }
    }

    static func bytes(_ value: Any?) -> [UInt8]? { (value as? [Int])?.map(UInt8.init) }

    @Test func theDesktopsTerminalIsAskedOverTheSessionBusWithTheArgvDirectoryAndToken() throws {
        let daemon = try busWithTerminal("org.choosy.TestTerminal")
        defer { withExtendedLifetime(daemon) {} }
        terminalEntry("org.choosy.TestTerminal")
        terminalEntry("org.choosy.Other")
        intentApps("intentapps.list", "missing.desktop", "org.choosy.TestTerminal.desktop", "org.choosy.Other.desktop")
        sandbox.desktopEntry(
            "dir.desktop",
            sandbox.application(name: "Dir", exec: "tui-app %u", "Terminal=true\nPath=/tmp\nMimeType=x-scheme-handler/tuidir;\n"))
        // A link of bytes that are not UTF-8 reaches the app through the terminal byte for byte
        // (made by a shell, as no Swift string holds it).
        let link: [UInt8] = Array("tuiapp:caf".utf8) + [0xE9, 0x20, 0x23] + Array("x".utf8)
        let giving = sandbox.write(
            sandbox.bin + "/giving-invalid-utf8", "#!/bin/sh\nexec \"$@\" \"$(printf 'tuiapp:caf\\351 #x')\"\n", mode: 0o755)
        let output = sandbox.choosy(["handle", "-v"], wrapper: [giving])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "runs in a terminal: $TERMINAL is not set; \(sandbox.configHome)/intentapps.list makes org.choosy.TestTerminal.desktop the default for \(Self.intent)"
            ))
        #expect(output.stderr.contains("org.choosy.TestTerminal.desktop runs it: asked over the session bus"))
        let call = try #require(calls(record).first)
        let command = try #require((call["commands"] as? [[String: Any]])?.first)
        #expect((command["exec"] as? [[Int]])?.map { $0.map(UInt8.init) } == [Array("tui-app".utf8) + [0], link + [0]])
        #expect(command["working_directory"] == nil)
        let environment = (command["env"] as? [[Int]])?.map { String(decoding: $0.map(UInt8.init).dropLast(), as: UTF8.self) } ?? []
        #expect(environment.contains("GIO_LAUNCHED_DESKTOP_FILE=\(sandbox.dataHome)/applications/tui.desktop"))
        #expect(environment.contains { $0.hasPrefix("CHOOSY_HANDLING=") })
        #expect(Self.bytes(call["desktop_entry"]) == Array("\(sandbox.dataHome)/applications/tui.desktop".utf8) + [0])
        #expect(call["platform_data"] as? [String: String] == ["activation-token": "token-9", "desktop-startup-id": "token-9"])
        // The entry's `Path` is the working directory; the token was used once.
        #expect(sandbox.choosy(["handle", "tuidir:x"]).status == 0)
        let second = try #require(calls(record).dropFirst().first)
        #expect(Self.bytes(((second["commands"] as? [[String: Any]])?.first)?["working_directory"]) == Array("/tmp".utf8) + [0])
        #expect(sandbox.recordedRuns("org.choosy.TestTerminal").isEmpty && sandbox.recordedRuns("tui-app").isEmpty)
    }

    @Test func theDesktopSpecificListComesFirstAndTERMINALBeforeEither() throws {
        let daemon = try busWithTerminal("org.choosy.Desktops")
        defer { withExtendedLifetime(daemon) {} }
        terminalEntry("org.choosy.Plain")
        terminalEntry("org.choosy.Desktops")
        intentApps("intentapps.list", "org.choosy.Plain.desktop")
        intentApps("test-intentapps.list", "org.choosy.Desktops.desktop")
        #expect(sandbox.choosy(["handle", "tuiapp:one"], environment: ["XDG_CURRENT_DESKTOP": "Other:TEST"]).status == 0)
        #expect(calls(record).count == 1)
        // Another desktop reads the plain list: its terminal is not on the bus, so its Exec runs it.
        let output = sandbox.choosy(["handle", "tuiapp:two", "-v"], environment: ["XDG_CURRENT_DESKTOP": "Other"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("org.choosy.Plain.desktop cannot be asked over the session bus"))
        #expect(sandbox.launched("org.choosy.Plain") == [["--new-window", "--", "tui-app", "tuiapp:two"]])
        // $TERMINAL comes first.
        let terminal = sandbox.recorder("my-term")
        #expect(sandbox.choosy(["handle", "tuiapp:three"], environment: ["TERMINAL": "my-term --hold"]).status == 0)
        #expect(sandbox.launched("my-term") == [["--hold", "-e", "tui-app", "tuiapp:three"]])
        #expect(sandbox.recordedRuns("my-term").first?.first == terminal)
        #expect(calls(record).count == 1)
    }

    @Test func withoutAListAnEntryThatImplementsTheIntentIsTheTerminalAndTheBusStartsIt() throws {
        let daemon = try SessionBusDaemon(in: sandbox)
        defer { withExtendedLifetime(daemon) {} }
        terminalEntry("not.a.Terminal", implements: false)
        terminalEntry("org.choosy.Activated")
        // Not running: the bus starts it from its service file, as a D-Bus activatable terminal.
        daemon.serviceFile(
            name: "org.choosy.Activated",
            exec: "\(SessionBusDaemon.python) \(Sandbox.packageRoot)/Tests/Fixtures/dbus/terminal_service.py org.choosy.Activated \(record)"
        )
        let output = sandbox.choosy(["handle", "tuiapp:activated", "-v"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("no intentapps.list names one, and org.choosy.Activated.desktop implements \(Self.intent)"))
        let call = try #require(calls(record).first)
        #expect((((call["commands"] as? [[String: Any]])?.first)?["exec"] as? [[Int]])?.count == 2)
    }

    @Test func withoutABusTheTerminalsOwnExecRunsTheApp() throws {
        terminalEntry("org.choosy.Alone", argumentBeforeCommand: nil)
        intentApps("intentapps.list", "org.choosy.Alone.desktop")
        let output = sandbox.choosy(["handle", "tuiapp:x", "-v"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("org.choosy.Alone.desktop cannot be asked over the session bus (no session bus"))
        #expect(sandbox.launched("org.choosy.Alone") == [["--new-window", "-e", "tui-app", "tuiapp:x"]])
        // The terminal choosy started got the token and its pid, as GIO passes them.
        let started = try #require(sandbox.recordedProcesses("org.choosy.Alone").first)
        #expect(started.environment["XDG_ACTIVATION_TOKEN"] == "token-9")
        #expect(started.environment["GIO_LAUNCHED_DESKTOP_FILE_PID"] == started.pid)
        // A dry run shows that argv and asks nothing.
        let dryRun = sandbox.choosy(["handle", "tuiapp:y", "--dry-run"])
        #expect(dryRun.stdout.contains("tui-app tuiapp:y"))
    }

    @Test func withoutAnyOfThemXdgTerminalExecThenXTerminalEmulator() throws {
        let none = sandbox.choosy(["handle", "tuiapp:x"])
        #expect(none.status == 6)
        #expect(none.stderr.contains("it runs in a terminal, and none was found"))
        sandbox.recorder("x-terminal-emulator")
        let output = sandbox.choosy(["handle", "tuiapp:x", "-v"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "$TERMINAL is not set; no terminal implements \(Self.intent); xdg-terminal-exec is not installed; x-terminal-emulator is installed"
            ))
        #expect(sandbox.launched("x-terminal-emulator") == [["-e", "tui-app", "tuiapp:x"]])
        sandbox.recorder("xdg-terminal-exec")
        #expect(sandbox.choosy(["handle", "tuiapp:z"]).status == 0)
        #expect(sandbox.launched("xdg-terminal-exec") == [["tui-app", "tuiapp:z"]])
    }
}
