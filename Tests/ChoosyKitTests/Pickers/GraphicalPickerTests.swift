import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// What choosy hands rofi, zenity, fuzzel, wofi, bemenu and tofi, byte for byte: a stand-in of the same name records argv
/// and stdin and answers like they do (the chosen row on stdout, exit 1 on cancel). The real
/// programs, driven on an X server, are in `RealGraphicalPickerTests`.
@Suite struct GraphicalPickerTests {
    let request = PickerRequest(
        title: "Open <this> & that",
        candidates: [
            PickerCandidate(appKey: "firefox", displayName: "Firefox", icon: "firefox", isDefault: true),
            PickerCandidate(appKey: "chromium", displayName: "Chromium", icon: "/opt/chromium/icon.png"),
            PickerCandidate(appKey: "web", displayName: "Web"),
        ])

    private func standIn(_ name: String, in sandbox: Sandbox, answer: String, status: Int = 0, stderr: String = "") -> String {
        sandbox.write(
            sandbox.bin + "/" + name,
            """
            #!/bin/sh
            for a in "$0" "$@"; do printf '%s\\0' "$a"; done > "\(sandbox.records)/argv"
            cat > "\(sandbox.records)/stdin"
            printf '\(answer)'
            printf '\(stderr)' >&2
            exit \(status)

            """, mode: 0o755)
    }

    private func recorded(_ sandbox: Sandbox) -> (argv: [String], stdin: String) {
        let argv = (sandbox.read("records/argv") ?? "").split(separator: "\0").map(String.init)
        return (argv, sandbox.read("records/stdin") ?? "")
    }

    @Test func rofiGetsDmenuRowsWithIconsAndItsRowMapsBack() throws {
        let sandbox = Sandbox()
        let rofi = standIn("rofi", in: sandbox, answer: "Chromium (always)\\n")
        let answer = try RofiPicker(
            executable: rofi, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
        ).choose(request)
        #expect(answer == .always(1))
        let (argv, stdin) = recorded(sandbox)
        #expect(
            argv == [
                rofi, "-dmenu", "-p", "Open <this> & that", "-i", "-no-custom", "-show-icons", "-no-markup", "-no-markup-rows", "-l", "6",
            ])
        #expect(
            stdin == """
                Firefox\0icon\u{1F}firefox
                Firefox (always)\0icon\u{1F}firefox
                Chromium\0icon\u{1F}/opt/chromium/icon.png
                Chromium (always)\0icon\u{1F}/opt/chromium/icon.png
                Web
                Web (always)

                """)
    }

    @Test func rofiCancelledIsACancel() throws {
        let sandbox = Sandbox()
        let rofi = standIn("rofi", in: sandbox, answer: "", status: 1)
        #expect(
            try RofiPicker(
                executable: rofi, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .cancelled)
    }

    @Test func zenityGetsAOneColumnListWithTheTitleAsPlainText() throws {
        let sandbox = Sandbox()
        let zenity = standIn("zenity", in: sandbox, answer: "Web\\n")
        var once = request
        once.allowAlways = false
        let answer = try ZenityPicker(
            executable: zenity, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
        ).choose(once)
        #expect(answer == .justOnce(2))
        let (argv, stdin) = recorded(sandbox)
        #expect(
            argv == [
                zenity, "--list", "--title=Open <this> & that", "--text=Open &lt;this&gt; &amp; that",
                "--column=App", "--hide-header", "--width=420", "--height=234",
            ])
        #expect(stdin == "Firefox\nChromium\nWeb\n")
    }

    /// Each picker's list holds every row, each whole (SPEC §6.1): 15 rows, the longest 37 characters.
    @Test func theListIsSizedForItsRowsAndItsLongestLine() {
        let candidates = ["Firefox — Personal", "Firefox — Work", "Chromium", "Falkon", "Epiphany"].map {
            PickerCandidate(appKey: $0.lowercased(), displayName: $0, icon: nil, isDefault: false)
        }
        let request = PickerRequest(title: "Browser", candidates: candidates, siteHost: "www.example.org")
        let size = PickerSize(request)
        #expect(size == PickerSize(rows: 15, columns: "Firefox — Personal (always for www.example.org)".count))
        #expect(FuzzelProgram.argv("fuzzel", title: "T", link: nil, size: size).suffix(2) == ["--lines=15", "--width=53"])
        #expect(ZenityProgram.argv("zenity", title: "T", link: nil, size: size).suffix(2) == ["--width=543", "--height=570"])
        let long = PickerSize(rows: 60, columns: 400)
        #expect(FuzzelProgram.argv("fuzzel", title: "T", link: nil, size: long).suffix(2) == ["--lines=20", "--width=106"])
        #expect(RofiProgram.argv("rofi", title: "T", link: nil, size: long).suffix(2) == ["-l", "20"])
        #expect(PickerSize(PickerRequest(title: "T", candidates: candidates, allowAlways: false, siteHost: "a.example")).rows == 5)
    }

    @Test func zenityCancelledIsACancel() throws {
        let sandbox = Sandbox()
        let zenity = standIn("zenity", in: sandbox, answer: "", status: 1)
        #expect(
            try ZenityPicker(
                executable: zenity, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .cancelled)
    }

    @Test func fuzzelGetsRofisIconRowsAndTheTitleAsItsPrompt() throws {
        let sandbox = Sandbox()
        let fuzzel = standIn("fuzzel", in: sandbox, answer: "Chromium (always)\\n")
        #expect(
            try FuzzelPicker(
                executable: fuzzel, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .always(1))
        let (argv, stdin) = recorded(sandbox)
        #expect(argv == [fuzzel, "--dmenu", "--prompt=Open <this> & that ", "--lines=6", "--width=30"])
        #expect(stdin.hasPrefix("Firefox\0icon\u{1F}firefox\nFirefox (always)\0icon\u{1F}firefox\n"))
    }

    /// fuzzel refuses a prompt its locale cannot decode ("invalid prompt"), and zenity a title
    /// ("This option is not available"), and each exits before it shows: under `LANG=C` they
    /// get UTF-8 as their character set; a UTF-8 locale is left alone.
    @Test(
        arguments: ["fuzzel", "zenity"],
        [
            (["LANG": "C"], "LC_ALL= LC_CTYPE=C.UTF-8 LANG=C"),
            (["LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"], "LC_ALL= LC_CTYPE=C.UTF-8 LANG=de_DE.UTF-8"),
            (["LANG": "de_DE.UTF-8"], "LC_ALL= LC_CTYPE= LANG=de_DE.UTF-8"),
            (["LC_CTYPE": "en_GB.utf8", "LANG": "C"], "LC_ALL= LC_CTYPE=en_GB.utf8 LANG=C"),
        ])
    func fuzzelAndZenityDecodeTheirTextAsUTF8(name: String, case: (locale: [String: String], seen: String)) throws {
        let (locale, seen) = `case`
        let sandbox = Sandbox()
        let program = sandbox.write(
            sandbox.bin + "/" + name,
            """
            #!/bin/sh
            cat >/dev/null
            printf 'LC_ALL=%s LC_CTYPE=%s LANG=%s' "$LC_ALL" "$LC_CTYPE" "$LANG" > "\(sandbox.records)/locale"
            printf 'Web\\n'

            """, mode: 0o755)
        var variables = sandbox.choosyEnvironment.variables
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] { variables[name] = locale[name] }
        let runner = PosixProcessRunner(fileSystem: LocalFileSystem())
        let picker: any Picker =
            name == "fuzzel"
            ? FuzzelPicker(executable: program, environment: Environment(variables), runner: runner)
            : ZenityPicker(executable: program, environment: Environment(variables), runner: runner)
        #expect(try picker.choose(request) == .justOnce(2))
        #expect(sandbox.read(sandbox.records + "/locale") == seen)
    }

    /// wofi shows only icon files: a themed name is found in hicolor, a missing file is left out,
    /// and the row it prints back (image and all) maps to its app.
    @Test func wofiGetsIconFilesAndItsImageRowMapsBack() throws {
        let sandbox = Sandbox()
        let icon = sandbox.dataHome + "/icons/hicolor/48x48/apps/firefox.png"
        sandbox.write(icon, "png")
        let wofi = standIn("wofi", in: sandbox, answer: "img:\(icon):text:Firefox (always)\\n")
        let extras = ExternalPickerExtras(iconFiles: IconFileFinder(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem()))
        #expect(
            try WofiPicker(
                executable: wofi, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
                extras: extras
            ).choose(request) == .always(0))
        let (argv, stdin) = recorded(sandbox)
        #expect(argv == [wofi, "--dmenu", "--prompt", "Open <this> & that", "--insensitive", "--allow-images", "--lines=7"])
        #expect(
            stdin == """
                img:\(icon):text:Firefox
                img:\(icon):text:Firefox (always)
                Chromium
                Chromium (always)
                Web
                Web (always)

                """)
    }

    @Test func bemenuAndTofiGetPlainRowsAndTheTitleAsTheirPrompt() throws {
        let sandbox = Sandbox()
        let bemenu = standIn("bemenu", in: sandbox, answer: "Web\\n")
        #expect(
            try BemenuPicker(
                executable: bemenu, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .justOnce(2))
        #expect(recorded(sandbox).argv == [bemenu, "--prompt", "Open <this> & that", "--list", "6", "-i"])
        #expect(recorded(sandbox).stdin == "Firefox\nFirefox (always)\nChromium\nChromium (always)\nWeb\nWeb (always)\n")
        let tofi = standIn("tofi", in: sandbox, answer: "Web (always)\\n")
        #expect(
            try TofiPicker(
                executable: tofi, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem())
            ).choose(request) == .always(2))
        #expect(recorded(sandbox).argv == [tofi, "--prompt-text=Open <this> & that: "])
    }

    private func picker(_ name: String, _ executable: String, _ sandbox: Sandbox) -> any Picker {
        switch name {
        case "fuzzel":
            FuzzelPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        case "wofi":
            WofiPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        case "bemenu":
            BemenuPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        case "rofi":
            RofiPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        case "zenity":
            ZenityPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        default:
            TofiPicker(
                executable: executable, environment: sandbox.choosyEnvironment, runner: PosixProcessRunner(fileSystem: LocalFileSystem()))
        }
    }

    /// A graphical picker that crashes could not show itself: the next one is tried, as for a
    /// display it cannot open. Killed by SIGTERM it is a cancel, as before.
    @Test(arguments: ["fuzzel", "wofi", "bemenu", "tofi"])
    func aCrashIsNotACancel(name: String) throws {
        let sandbox = Sandbox()
        let crashing = sandbox.write(sandbox.bin + "/" + name, "#!/bin/sh\ncat >/dev/null\nkill -ABRT $$\n", mode: 0o755)
        #expect(try picker(name, crashing, sandbox).choose(request) == .notShown("\(name) ended by signal 6 before a choice"))
        let ended = sandbox.write(sandbox.bin + "/" + name, "#!/bin/sh\ncat >/dev/null\nkill -TERM $$\n", mode: 0o755)
        #expect(try picker(name, ended, sandbox).choose(request) == .cancelled)
    }

    /// Escape is exit 1 with nothing printed; an empty answer picks nothing; a list longer than
    /// the rows shown still maps its last row back; a display error is not a cancel.
    @Test(arguments: ["fuzzel", "wofi", "bemenu", "tofi"])
    func escapeAndAnEmptyAnswerCancelALongListMapsBackAndADisplayErrorIsNotShown(name: String) throws {
        let sandbox = Sandbox()
        #expect(try picker(name, standIn(name, in: sandbox, answer: "", status: 1), sandbox).choose(request) == .cancelled)
        #expect(try picker(name, standIn(name, in: sandbox, answer: "\\n"), sandbox).choose(request) == .cancelled)
        let long = PickerRequest(title: "T", candidates: (1...40).map { PickerCandidate(appKey: "app\($0)", displayName: "App \($0)") })
        #expect(try picker(name, standIn(name, in: sandbox, answer: "App 40\\n"), sandbox).choose(long) == .justOnce(39))
        let failing = standIn(name, in: sandbox, answer: "", status: 1, stderr: "error: failed to connect to wayland display\\n")
        #expect(
            try picker(name, failing, sandbox).choose(request)
                == .notShown("\(name) could not open its display (error: failed to connect to wayland display)"))
    }

    /// zenity stops with status 255 on an error (what the real one prints for an option it
    /// refuses, as under a locale that cannot hold its title): not a cancel, the next picker is
    /// tried. Closing its window is status 1, a cancel.
    @Test func zenityStoppedByAnErrorIsNotShown() throws {
        let sandbox = Sandbox()
        let message = "This option is not available. Please see --help for all possible usages.\\n"
        let failing = standIn("zenity", in: sandbox, answer: "", status: 255, stderr: message)
        #expect(
            try picker("zenity", failing, sandbox).choose(request)
                == .notShown("zenity failed with status 255: This option is not available. Please see --help for all possible usages."))
        #expect(try picker("zenity", standIn("zenity", in: sandbox, answer: "", status: 1), sandbox).choose(request) == .cancelled)
    }

    /// Type and action names come from a catalog, app names from it or from desktop entries:
    /// whatever they hold reaches no picker raw (issue 39). Control and format characters are
    /// shown as escapes in the title and the rows, markup is escaped where the program reads it
    /// (zenity's `--text`), and rofi is told to read none.
    @Test(arguments: ["rofi", "zenity", "fuzzel", "wofi", "bemenu", "tofi"])
    func aHostileTitleOrNameReachesNoPickerRaw(name: String) throws {
        let sandbox = Sandbox()
        let title = "Evil\u{1B}]52;c;aGk=\u{7}<span color='red'>\u{202E}x</span>: Show\nforged with…"
        let shown = "Evil\\u{1B}]52;c;aGk=\\u{7}<span color='red'>\\u{202E}x</span>: Show\\u{A}forged with…"
        let hostile = PickerRequest(title: title, candidates: [PickerCandidate(appKey: "evil", displayName: "E\u{85}vil\u{1B}[8m")])
        #expect(try picker(name, standIn(name, in: sandbox, answer: "", status: 1), sandbox).choose(hostile) == .cancelled)
        let (argv, stdin) = recorded(sandbox)
        for text in argv + stdin.split(separator: "\n").map(String.init) {
            #expect(!text.unicodeScalars.contains(where: DisplayText.isEscaped), "\(name): \(text.debugDescription)")
        }
        #expect(stdin.hasPrefix("E\\u{85}vil\\u{1B}[8m\n"), "\(name): \(stdin.debugDescription)")
        #expect(argv.contains { $0.contains(shown) }, "\(name): \(argv)")
        if name == "zenity" {
            #expect(argv.contains("--text=" + DisplayText.pangoMarkup(shown)), "\(argv)")
            #expect(argv.contains { $0.hasPrefix("--text=") && $0.contains("&lt;span color='red'&gt;") })
        }
    }
}
