import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// Displays that answer as a test says: the selection logic for any session, without one.
/// The real check (`SocketDisplayProbe`) is tested against real sockets below and under
/// Xvfb and sway in the real picker tests.
private struct AnsweringDisplays: DisplayProbe {
    var answering: [SocketAddress]
    func accepts(_ address: SocketAddress) -> Bool { answering.contains(address) }
}

@Suite struct PickerSelectorTests {
    @Test(arguments: [
        ("", PickerPreference.automatic), ("auto", .automatic), ("tty", .tty), ("fzf", .fzf),
        ("rofi", .graphical(.rofi)), ("zenity", .graphical(.zenity)), ("fuzzel", .graphical(.fuzzel)), ("wofi", .graphical(.wofi)),
        ("bemenu", .graphical(.bemenu)), ("tofi", .graphical(.tofi)),
        ("fzf --height 10", .command("fzf --height 10")), ("Rofi", .command("Rofi")), ("my-picker", .command("my-picker")),
    ])
    func namesArePickersAndAnythingElseIsACommand(text: String, preference: PickerPreference) {
        #expect(PickerPreference(text) == preference)
    }

    @Test func everyNameOfTheTableIsAPicker() {
        for name in PickerPreference.names {
            if case .command = PickerPreference(name) { Issue.record("\(name) is read as a command") }
        }
    }

    @Test func theOptionWinsOverTheEnvironmentWhichWinsOverAuto() {
        let environment = Environment(["CHOOSY_PICKER": "zenity"])
        #expect(PickerPreference.resolve(option: "fzf", environment: environment) == .fzf)
        #expect(PickerPreference.resolve(option: nil, environment: environment) == .graphical(.zenity))
        #expect(PickerPreference.resolve(option: nil, environment: Environment([:])) == .automatic)
    }

    static let everyPicker = ["rofi", "zenity", "fuzzel", "wofi", "bemenu", "tofi", "fzf"]

    /// A sandbox whose PATH holds only its own bin, with the named programs installed there.
    private func sandbox(installing programs: [String]) -> Sandbox {
        let sandbox = Sandbox()
        sandbox.overrides["PATH"] = sandbox.bin
        for program in programs { sandbox.write(sandbox.bin + "/" + program, "#!/bin/sh\n", mode: 0o755) }
        return sandbox
    }

    private func selector(_ sandbox: Sandbox, terminal: Bool = false, answering: [SocketAddress] = []) -> PickerSelector {
        PickerSelector(
            environment: sandbox.choosyEnvironment, terminalAvailable: terminal, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
            fileSystem: LocalFileSystem(),
            probe: AnsweringDisplays(answering: answering), extras: ExternalPickerExtras()
        )
    }

    @Test func autoUsesTheTerminalWhenThereIsOne() throws {
        let sandbox = sandbox(installing: ["rofi"])
        sandbox.overrides["DISPLAY"] = ":0"
        #expect(try selector(sandbox, terminal: true).picker(for: .automatic) is TTYPicker)
    }

    /// doc/desktop.md, per session kind.
    @Test(arguments: [
        ([:], [String]()),
        (["DISPLAY": ":0"], ["rofi", "zenity"]),
        (["WAYLAND_DISPLAY": "wayland-1"], ["fuzzel", "wofi", "bemenu", "tofi", "zenity"]),
        (["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"], ["fuzzel", "wofi", "bemenu", "tofi", "zenity", "rofi"]),
        (["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"], ["zenity"]),
        (["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"], ["zenity", "rofi"]),
        (["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"], ["rofi", "zenity"]),
    ])
    func autoWithoutATerminalTriesTheSessionsPickersInOrder(session: [String: String], order: [String]) throws {
        let sandbox = sandbox(installing: Self.everyPicker)
        for (name, value) in session { sandbox.overrides[name] = value }
        let picker = try selector(sandbox).picker(for: .automatic) as? PickerSequence
        #expect(picker?.steps.map(\.name) == order)
    }

    @Test func autoLeavesOutWhatIsNotInstalled() throws {
        let sandbox = sandbox(installing: ["bemenu", "rofi"])
        sandbox.overrides["WAYLAND_DISPLAY"] = "wayland-1"
        let steps = (try selector(sandbox).picker(for: .automatic) as? PickerSequence)?.steps
        #expect(steps?.map(\.name) == ["bemenu"])
        #expect((steps?.first?.picker as? BemenuPicker)?.executable == sandbox.bin + "/bemenu")
    }

    /// What the user reads when no picker is left: the fix, per session.
    @Test(arguments: [
        ([:], "no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset"),
        (["DISPLAY": ":0"], "install rofi or zenity to choose"),
        (["WAYLAND_DISPLAY": "wayland-1"], "install fuzzel, wofi, bemenu, tofi or zenity to choose"),
        (["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "GNOME"], "install zenity to choose"),
    ])
    func withNoPickerInstalledTheAnswerSaysWhatToDo(session: [String: String], reason: String) throws {
        let sandbox = sandbox(installing: ["fzf"])
        for (name, value) in session { sandbox.overrides[name] = value }
        let picker = try selector(sandbox).picker(for: .automatic)
        #expect(
            try picker.choose(PickerRequest(title: "T", candidates: [PickerCandidate(appKey: "a", displayName: "A")])) == .notShown(reason))
    }

    @Test func aPickerWhoseDisplayDoesNotAnswerIsPassedOverAndNoneLeftIsNotShown() throws {
        let sandbox = sandbox(installing: [])
        sandbox.overrides["WAYLAND_DISPLAY"] = "wayland-1"
        sandbox.overrides["DISPLAY"] = ":5"
        let environment = sandbox.choosyEnvironment
        let wayland = try #require(DisplayServer.wayland(in: environment)?.addresses(in: environment).first)
        let fuzzel = ScriptedPicker(.justOnce(0))
        let rofi = ScriptedPicker(.always(0))
        let steps = [
            PickerSequence.Step(name: "fuzzel", picker: fuzzel, displays: [.wayland("wayland-1")]),
            PickerSequence.Step(name: "rofi", picker: rofi, displays: [.x11(":5")]),
        ]
        let request = PickerRequest(title: "T", candidates: [PickerCandidate(appKey: "a", displayName: "A")])
        let diagnostics = RecordingDiagnostics()
        func sequence(_ answering: [SocketAddress]) -> PickerSequence {
            PickerSequence(
                steps: steps, whenEmpty: "", environment: environment, probe: AnsweringDisplays(answering: answering),
                diagnostics: diagnostics)
        }
        // Only X11 answers: fuzzel is never started, and -v says which one was.
        #expect(try sequence([.abstractUnix("/tmp/.X11-unix/X5")]).choose(request) == .always(0))
        #expect(fuzzel.shown.withLock { $0.isEmpty })
        #expect(
            diagnostics.explanations == [
                "fuzzel: WAYLAND_DISPLAY=wayland-1 does not answer; trying the next picker", "starting rofi on DISPLAY=:5",
            ])
        #expect(try sequence([wayland]).choose(request) == .justOnce(0))
        #expect(
            try sequence([]).choose(request)
                == .notShown(
                    "fuzzel: WAYLAND_DISPLAY=wayland-1 does not answer; rofi: DISPLAY=:5 does not answer"
                ))
    }

    @Test func aPickerThatFailsWithItsDisplaysErrorIsNotACancelAndTheNextIsTried() throws {
        let sandbox = sandbox(installing: [])
        sandbox.overrides["WAYLAND_DISPLAY"] = "wayland-1"
        let environment = sandbox.choosyEnvironment
        let failure = PickerAnswer.notShown("wofi could not open its display (cannot open display: wayland-1)")
        // The failing one answers so twice: once per sequence below.
        let steps = [
            PickerSequence.Step(name: "wofi", picker: ScriptedPicker(failure, failure), displays: [.wayland("wayland-1")]),
            PickerSequence.Step(name: "bemenu", picker: ScriptedPicker(.justOnce(0)), displays: [.wayland("wayland-1")]),
        ]
        let probe = AnsweringDisplays(answering: DisplayServer.wayland("wayland-1").addresses(in: environment))
        let request = PickerRequest(title: "T", candidates: [PickerCandidate(appKey: "a", displayName: "A")])
        #expect(
            try PickerSequence(steps: steps, whenEmpty: "", environment: environment, probe: probe, diagnostics: nil).choose(request)
                == .justOnce(0))
        #expect(
            try PickerSequence(steps: Array(steps.prefix(1)), whenEmpty: "", environment: environment, probe: probe, diagnostics: nil)
                .choose(request)
                == .notShown("wofi could not open its display (cannot open display: wayland-1)"))
    }

    @Test(arguments: PickerPreference.names.filter { $0 != "auto" && $0 != "tty" })
    func aNamedPickerThatIsNotInstalledIsAnError(name: String) {
        let sandbox = sandbox(installing: [])
        sandbox.overrides["DISPLAY"] = ":0"
        let selector = selector(sandbox, terminal: true)
        #expect {
            try selector.picker(for: PickerPreference(name))
        } throws: { error in
            let error = error as? ChoosyError
            return error?.status == .noChoice
                && error?.message == "picker '\(name)' is not installed (not found on PATH)"
        }
    }

    @Test func namedPickersThatAreThereAreUsed() throws {
        let sandbox = sandbox(installing: Self.everyPicker)
        sandbox.overrides["WAYLAND_DISPLAY"] = "wayland-1"
        let selector = selector(sandbox, terminal: true)
        #expect((try selector.picker(for: .fzf) as? FzfPicker)?.executable == sandbox.bin + "/fzf")
        func only(_ preference: PickerPreference) throws -> (any Picker)? {
            let steps = (try selector.picker(for: preference) as? PickerSequence)?.steps
            return steps?.count == 1 ? steps?.first?.picker : nil
        }
        #expect((try only(.graphical(.zenity)) as? ZenityPicker)?.executable == sandbox.bin + "/zenity")
        #expect((try only(.graphical(.fuzzel)) as? FuzzelPicker)?.executable == sandbox.bin + "/fuzzel")
        #expect((try only(.graphical(.wofi)) as? WofiPicker)?.executable == sandbox.bin + "/wofi")
        #expect((try only(.graphical(.bemenu)) as? BemenuPicker)?.executable == sandbox.bin + "/bemenu")
        #expect((try only(.graphical(.tofi)) as? TofiPicker)?.executable == sandbox.bin + "/tofi")
        // rofi draws on X11 only: with Wayland alone it has nowhere to show itself.
        #expect(
            try selector.picker(for: .graphical(.rofi)).choose(
                PickerRequest(title: "T", candidates: [PickerCandidate(appKey: "a", displayName: "A")]))
                == .notShown("rofi: DISPLAY is not set"))
        #expect(try selector.picker(for: .tty) is TTYPicker)
        #expect((try selector.picker(for: .command("wofi --dmenu")) as? CommandPickerOrAutomatic)?.command.command == "wofi --dmenu")
    }

    @Test func theTTYPickerWithoutATerminalIsAnError() {
        let selector = selector(Sandbox())
        #expect(throws: ChoosyError.noChoice("the tty picker needs a terminal, and /dev/tty cannot be opened")) {
            try selector.picker(for: .tty)
        }
    }

    /// A command the shell cannot run gives way to `auto`'s picker, with one line naming it; one
    /// that runs is the answer, even a cancel.
    @Test func aCommandThatCannotRunGivesWayToTheAutomaticPicker() throws {
        let sandbox = sandbox(installing: [])
        sandbox.write(sandbox.bin + "/cancelling-picker", "#!/bin/sh\nexit 1\n", mode: 0o755)
        let diagnostics = RecordingDiagnostics(verbose: false)
        let selector = PickerSelector(
            environment: sandbox.choosyEnvironment, terminalAvailable: false, runner: PosixProcessRunner(fileSystem: LocalFileSystem()),
            fileSystem: LocalFileSystem(), probe: AnsweringDisplays(answering: []), extras: ExternalPickerExtras(diagnostics: diagnostics)
        )
        let request = PickerRequest(title: "Open", candidates: [PickerCandidate(appKey: "firefox", displayName: "Firefox")])
        #expect(
            try selector.picker(for: .command("rofy")).choose(request)
                == .notShown("no terminal, and no display: DISPLAY and WAYLAND_DISPLAY are unset"))
        #expect(
            diagnostics.warnings == [
                "the picker command 'rofy' could not be run (not found: the shell's status 127); trying the automatic picker"
            ])
        #expect(try selector.picker(for: .command("cancelling-picker")).choose(request) == .cancelled)
        #expect(diagnostics.warnings.count == 1)
    }

    @Test func theNoPickerMessageListsTheCandidatesWhyAndTheWayOut() {
        let candidates = [
            PickerCandidate(appKey: "firefox", displayName: "Firefox"), PickerCandidate(appKey: "chromium", displayName: "Chromium"),
        ]
        let launchable = [
            UnpickedChoice.Candidate(key: "firefox@Work", name: "Firefox — Work", desktopID: "firefox.desktop"),
            UnpickedChoice.Candidate(key: "chromium", name: "Chromium", desktopID: "chromium.desktop"),
        ]
        let error = ChoosyError.noPickerAvailable(
            typeName: "Browser", candidates: candidates, launchable: launchable, userDefault: "firefox@Work",
            reason: "install rofi or zenity to choose"
        )
        #expect(
            error.message
                == "no picker available to choose a Browser app (candidates: firefox, chromium): install rofi or zenity to choose; pass --app KEY or --picker"
        )
        #expect(error.status == .noChoice)
        #expect(
            error.unpicked
                == UnpickedChoice(
                    candidates: launchable, userDefault: "firefox@Work", typeName: "Browser",
                    reason: "install rofi or zenity to choose"))
        #expect(
            ChoosyError.noPickerAvailable(typeName: "Email", candidates: candidates, launchable: [], userDefault: nil, reason: "r").message
                .hasPrefix("no picker available to choose an Email app"))
    }
}

/// Where each display's clients connect.
@Suite struct DisplayServerTests {
    @Test(arguments: [
        (DisplayServer.wayland("wayland-1"), [SocketAddress.unix("/run/user/7/wayland-1")]),
        (.wayland("/tmp/sway/wayland-9"), [.unix("/tmp/sway/wayland-9")]),
        (.x11(":0"), [.abstractUnix("/tmp/.X11-unix/X0"), .unix("/tmp/.X11-unix/X0")]),
        (.x11(":12.0"), [.abstractUnix("/tmp/.X11-unix/X12"), .unix("/tmp/.X11-unix/X12")]),
        (.x11("unix:3"), [.abstractUnix("/tmp/.X11-unix/X3"), .unix("/tmp/.X11-unix/X3")]),
        (.x11("localhost:10.0"), [.tcp(host: "localhost", port: 6010)]),
        (.x11("nonsense"), []), (.x11(":x"), []),
    ])
    func addresses(display: DisplayServer, expected: [SocketAddress]) {
        #expect(display.addresses(in: Environment(["XDG_RUNTIME_DIR": "/run/user/7"])) == expected)
    }

    @Test func aWaylandNameWithoutARuntimeDirectoryHasNoSocket() {
        #expect(DisplayServer.wayland("wayland-0").addresses(in: Environment([:])).isEmpty)
    }

    /// The real probe, against a real socket that listens and then one that is gone.
    @Test func theRealProbeConnectsToAListeningSocketOnly() throws {
        let sandbox = Sandbox()
        let server = try #require(ListeningSocket(path: sandbox.root + "/wayland-test"))
        let environment = Environment(["XDG_RUNTIME_DIR": sandbox.root])
        #expect(SocketDisplayProbe().answers(.wayland("wayland-test"), in: environment))
        #expect(!SocketDisplayProbe().answers(.wayland("wayland-none"), in: environment))
        // A socket file whose server is gone refuses. (A process that another test forks holds
        // the socket until it execs, which on a loaded machine can take a while.)
        server.stop()
        let deadline = Date().addingTimeInterval(10)
        while SocketDisplayProbe().answers(.wayland("wayland-test"), in: environment), Date() < deadline { usleep(20_000) }
        #expect(!SocketDisplayProbe().answers(.wayland("wayland-test"), in: environment))
        #expect(!SocketDisplayProbe().answers(.x11(":9876"), in: environment))
    }
}
