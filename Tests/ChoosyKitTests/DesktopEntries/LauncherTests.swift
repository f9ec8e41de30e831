import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct LauncherTests {
    private func entry(_ sandbox: Sandbox, _ id: String, _ contents: String) throws -> DesktopEntry {
        let path = sandbox.desktopEntry(id, contents)
        return try #require(DesktopEntryParser.read(path, id: id, fileSystem: LocalFileSystem()))
    }

    @Test func passesQuotedArgumentsAndFieldCodesAsSeparateElements() throws {
        let sandbox = Sandbox()
        let app = sandbox.recorder("app")
        sandbox.overrides["LANG"] = "de_DE.UTF-8"
        let entry = try entry(
            sandbox, "app.desktop",
            """
            [Desktop Entry]
            Type=Application
            Name=App
            Name[de]=Anwendung mit Namen
            Icon=app icon
            Exec=app "two words" "say \\\\"hi\\\\"" 100%% %i --name=%c %k %u

            """)
        let launcher = Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        )
        let url = "myapp://open?x=1&y=a b"
        let expected = ["app", "two words", "say \"hi\"", "100%", "--icon", "app icon", "--name=Anwendung mit Namen", entry.path, url]
        #expect(try launcher.argv(for: entry, url: url) == expected)
        #expect(try launcher.launch(entry, url: url) == expected)
        let runs = sandbox.waitForRuns("app")
        #expect(runs == [[app] + expected.dropFirst()])
    }

    /// A local file's path reaches an app that takes `%f` as its own bytes, not as UTF-8 text.
    @Test func aLocalFilesPathReachesTheAppByteForByte() throws {
        let sandbox = Sandbox()
        sandbox.recorder("viewer")
        let entry = try entry(sandbox, "viewer.desktop", sandbox.application(name: "Viewer", exec: "viewer --open %f"))
        let path: [UInt8] = Array("/tmp/caf".utf8) + [0xE9] + Array(" #1.txt".utf8)
        let url = try #require(try LocalFile(argument: path, workingDirectory: Array("/".utf8))).url
        let launcher = Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        )
        try launcher.launch(entry, url: url, form: LaunchForm(localFile: path))
        _ = sandbox.waitForRuns("viewer")
        #expect(sandbox.recordedArgumentBytes("viewer").map { Array($0.dropFirst()) } == [[Array("--open".utf8), path]])
    }

    @Test func givesNoURLToAnExecWithoutURLCode() throws {
        let sandbox = Sandbox()
        let app = sandbox.recorder("app")
        let entry = try entry(sandbox, "app.desktop", sandbox.application(name: "App", exec: "app --new-window"))
        try Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        ).launch(entry, url: "https://example.com")
        #expect(sandbox.waitForRuns("app") == [[app, "--new-window"]])
    }

    @Test func hostileURLReachesTheAppVerbatimAndNothingElseRuns() throws {
        let sandbox = Sandbox()
        let app = sandbox.recorder("app")
        let work = sandbox.root + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let url = "https://x.test/$(touch pwned);touch pwned2 `touch pwned3` \"q\" 'q' $HOME\nsecond line && touch pwned4 | cat"
        let entry = try entry(sandbox, "app.desktop", sandbox.application(name: "App", exec: "app %u", "Path=\(work)\n"))
        try Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        ).launch(entry, url: url)
        #expect(sandbox.waitForRuns("app") == [[app, url]])
        usleep(200_000)  // anything a shell had started would have had time to run
        let created = FileManager.default.enumerator(atPath: sandbox.root)?.allObjects as? [String] ?? []
        #expect(!created.contains { $0.contains("pwned") })
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/pwned"))
        #expect(sandbox.recordedRuns("app").count == 1)
    }

    @Test func runsInTheEntrysWorkingDirectory() throws {
        let sandbox = Sandbox()
        sandbox.recorder("app")
        let directory = sandbox.root + "/a dir"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let entry = try entry(sandbox, "app.desktop", sandbox.application(name: "App", exec: "app %u", "Path=\(directory)\n"))
        try Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        ).launch(entry, url: "x:y")
        _ = sandbox.waitForRuns("app")
        let expected = try #require(LocalFileSystem().canonicalPath(directory))
        #expect(sandbox.recordedWorkingDirectories("app").map(LocalFileSystem().canonicalPath) == [expected])
    }

    @Test func terminalAppsRunInTERMINALWithDashE() throws {
        let sandbox = Sandbox()
        let terminal = sandbox.recorder("fake-term")
        sandbox.recorder("xdg-terminal-exec")
        sandbox.overrides["TERMINAL"] = "fake-term  --hold\t--title=x"
        let entry = try entry(sandbox, "tui.desktop", sandbox.application(name: "Tui", exec: "tui-app %u", "Terminal=true\n"))
        try Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        ).launch(entry, url: "tui:open")
        #expect(sandbox.waitForRuns("fake-term") == [[terminal, "--hold", "--title=x", "-e", "tui-app", "tui:open"]])
    }

    @Test func terminalFallbacks() throws {
        let sandbox = Sandbox()
        let entry = try entry(sandbox, "tui.desktop", sandbox.application(name: "Tui", exec: "tui-app %u", "Terminal=true\n"))
        // Only the sandbox's programs, so that no terminal of the machine is found.
        sandbox.overrides["PATH"] = sandbox.bin
        sandbox.overrides["TERMINAL"] = "not-installed-terminal"
        let launcher = {
            Launcher(
                environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
                fileSystem: LocalFileSystem())
        }

        let error = #expect(throws: ChoosyError.self) { try launcher().argv(for: entry, url: "tui:x") }
        #expect(error?.status == .launchFailed)
        #expect(error?.message.contains("none was found") == true)

        sandbox.recorder("x-terminal-emulator")
        #expect(try launcher().argv(for: entry, url: "tui:x") == ["x-terminal-emulator", "-e", "tui-app", "tui:x"])

        let xdg = sandbox.recorder("xdg-terminal-exec")
        #expect(try launcher().argv(for: entry, url: "tui:x") == ["xdg-terminal-exec", "tui-app", "tui:x"])
        sandbox.overrides["PATH"] = nil  // the recorder script needs the system's tools
        try launcher().launch(entry, url: "tui:x")
        #expect(sandbox.waitForRuns("xdg-terminal-exec") == [[xdg, "tui-app", "tui:x"]])
    }

    @Test func missingExecutableFailsWithOneLine() throws {
        let sandbox = Sandbox()
        sandbox.write(sandbox.bin + "/not-executable", "#!/bin/sh\n", mode: 0o644)
        let cases: [(String, String)] = [
            ("missing.desktop", "\"no-such-program\\nanywhere\" %u"),
            ("absolute.desktop", "/nonexistent/bin/app %u"),
            ("plain-file.desktop", "not-executable %u"),
        ]
        for (id, exec) in cases {
            let entry = DesktopEntry(id: id, path: "/x/\(id)", keys: ["Type": "Application", "Name": "X", "Exec": exec])
            let error = #expect(throws: ChoosyError.self) {
                try Launcher(
                    environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
                    fileSystem: LocalFileSystem()
                ).launch(entry, url: "x:y")
            }
            #expect(error?.status == .launchFailed)
            #expect(error?.message.contains("\n") == false)
            #expect(error?.message.hasPrefix("cannot launch \(id): cannot start") == true, "\(error?.message ?? "")")
        }
        let missingDirectory = try entry(sandbox, "nodir.desktop", sandbox.application(name: "N", exec: "sh", "Path=/nonexistent/dir\n"))
        let error = #expect(throws: ChoosyError.self) {
            try Launcher(
                environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
                fileSystem: LocalFileSystem()
            ).launch(missingDirectory, url: nil)
        }
        #expect(error?.message == "cannot launch nodir.desktop: its working directory '/nonexistent/dir' does not exist")
    }

    @Test func invalidExecFailsToLaunch() throws {
        let sandbox = Sandbox()
        let entry = DesktopEntry(id: "bad.desktop", path: "/x/bad.desktop", keys: ["Type": "Application", "Exec": "app %z"])
        let error = #expect(throws: ChoosyError.self) {
            try Launcher(
                environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
                fileSystem: LocalFileSystem()
            ).argv(for: entry, url: nil)
        }
        #expect(error == ChoosyError(.launchFailed, "cannot launch bad.desktop: invalid Exec: invalid field code '%z'"))
    }

    @Test func aPrivateWindowActionReplacesTheExecAndGetsTheURLLast() throws {
        let sandbox = Sandbox()
        let entry = try entry(
            sandbox, "chromium_chromium.desktop",
            """
            [Desktop Entry]
            Type=Application
            Name=Chromium
            Exec=env BAMF_DESKTOP_FILE_HINT=/x.desktop /snap/bin/chromium %U
            Actions=Incognito;Broken;

            [Desktop Action Incognito]
            Name=Open a New Window in incognito mode
            Exec=env BAMF_DESKTOP_FILE_HINT=/x.desktop /snap/bin/chromium --incognito

            [Desktop Action Broken]
            Exec=%u

            """)
        let launcher = Launcher(
            environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()), fileSystem: LocalFileSystem()
        )
        let form = LaunchForm(arguments: ["--profile-directory=Profile 1"], action: entry.privateWindowAction)
        #expect(
            try launcher.argv(for: entry, url: "https://x.org/", form: form)
                == [
                    "env", "BAMF_DESKTOP_FILE_HINT=/x.desktop", "/snap/bin/chromium", "--incognito", "--profile-directory=Profile 1",
                    "https://x.org/",
                ])
        #expect(
            try launcher.argv(for: entry, url: "https://x.org/", form: LaunchForm(arguments: ["--incognito"]))
                == ["env", "BAMF_DESKTOP_FILE_HINT=/x.desktop", "/snap/bin/chromium", "--incognito", "https://x.org/"])
        #expect(
            throws: ChoosyError.launchFailed(
                "cannot launch chromium_chromium.desktop: invalid Exec of its action 'Broken': the program is a field code")
        ) {
            try launcher.argv(for: entry, url: "https://x.org/", form: LaunchForm(action: entry.actions[1]))
        }
    }
}
