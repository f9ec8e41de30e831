import ChoosyKit
import Testing

@Suite struct PickerSelectorTests {
    @Test(arguments: [
        ("", PickerPreference.automatic), ("auto", .automatic), ("tty", .tty), ("fzf", .fzf),
        ("rofi", .rofi), ("zenity", .zenity), ("fzf --height 10", .command("fzf --height 10")),
        ("Rofi", .command("Rofi")), ("my-picker", .command("my-picker")),
    ])
    func namesArePickersAndAnythingElseIsACommand(text: String, preference: PickerPreference) {
        #expect(PickerPreference(text) == preference)
    }

    @Test func theOptionWinsOverTheEnvironmentWhichWinsOverAuto() {
        let environment = Environment(["CHOOSY_PICKER": "zenity"])
        #expect(PickerPreference.resolve(option: "fzf", environment: environment) == .fzf)
        #expect(PickerPreference.resolve(option: nil, environment: environment) == .zenity)
        #expect(PickerPreference.resolve(option: nil, environment: Environment([:])) == .automatic)
    }

    /// A sandbox whose PATH holds only its own bin, with the named programs installed there.
    private func sandbox(installing programs: [String]) -> Sandbox {
        let sandbox = Sandbox()
        sandbox.overrides["PATH"] = sandbox.bin
        for program in programs { sandbox.write(sandbox.bin + "/" + program, "#!/bin/sh\n", mode: 0o755) }
        return sandbox
    }

    @Test func autoUsesTheTerminalWhenThereIsOne() throws {
        let sandbox = sandbox(installing: ["rofi"])
        sandbox.overrides["DISPLAY"] = ":0"
        let picker = try PickerSelector(environment: sandbox.choosyEnvironment, terminalAvailable: true).picker(for: .automatic)
        #expect(picker is TTYPicker)
    }

    @Test(arguments: ["DISPLAY", "WAYLAND_DISPLAY"])
    func autoWithoutATerminalPrefersRofiThenZenityOnADisplay(display: String) throws {
        let both = sandbox(installing: ["rofi", "zenity"])
        both.overrides[display] = ":1"
        let rofi = try PickerSelector(environment: both.choosyEnvironment, terminalAvailable: false).picker(for: .automatic)
        #expect((rofi as? RofiPicker)?.executable == both.bin + "/rofi")

        let zenityOnly = sandbox(installing: ["zenity"])
        zenityOnly.overrides[display] = ":1"
        let zenity = try PickerSelector(environment: zenityOnly.choosyEnvironment, terminalAvailable: false).picker(for: .automatic)
        #expect((zenity as? ZenityPicker)?.executable == zenityOnly.bin + "/zenity")
    }

    @Test func autoFindsNothingWithoutATerminalAndADisplayWithAGraphicalPicker() throws {
        let noDisplay = sandbox(installing: ["rofi", "zenity", "fzf"])
        #expect(try PickerSelector(environment: noDisplay.choosyEnvironment, terminalAvailable: false).picker(for: .automatic) == nil)
        let nothingInstalled = sandbox(installing: ["fzf"])
        nothingInstalled.overrides["DISPLAY"] = ":0"
        #expect(try PickerSelector(environment: nothingInstalled.choosyEnvironment, terminalAvailable: false).picker(for: .automatic) == nil)
    }

    @Test(arguments: [PickerPreference.fzf, .rofi, .zenity])
    func aNamedPickerThatIsNotInstalledIsAnError(preference: PickerPreference) {
        let sandbox = sandbox(installing: [])
        sandbox.overrides["DISPLAY"] = ":0"
        let selector = PickerSelector(environment: sandbox.choosyEnvironment, terminalAvailable: true)
        #expect {
            try selector.picker(for: preference)
        } throws: { error in
            let error = error as? ChoosyError
            return error?.status == .noChoice && error?.message == "picker '\(String(describing: preference))' is not installed (not found on PATH)"
        }
    }

    @Test func namedPickersThatAreThereAreUsed() throws {
        let sandbox = sandbox(installing: ["fzf", "rofi", "zenity"])
        let selector = PickerSelector(environment: sandbox.choosyEnvironment, terminalAvailable: true)
        #expect((try selector.picker(for: .fzf) as? FzfPicker)?.executable == sandbox.bin + "/fzf")
        #expect(try selector.picker(for: .rofi) is RofiPicker)
        #expect(try selector.picker(for: .zenity) is ZenityPicker)
        #expect(try selector.picker(for: .tty) is TTYPicker)
        #expect((try selector.picker(for: .command("wofi --dmenu")) as? CommandPicker)?.command == "wofi --dmenu")
    }

    @Test func theTTYPickerWithoutATerminalIsAnError() {
        let selector = PickerSelector(environment: Environment([:]), terminalAvailable: false)
        #expect(throws: ChoosyError.noChoice("the tty picker needs a terminal, and /dev/tty cannot be opened")) {
            try selector.picker(for: .tty)
        }
    }

    @Test func theNoPickerMessageListsTheCandidatesAndTheWayOut() {
        let candidates = [PickerCandidate(appKey: "firefox", displayName: "Firefox"), PickerCandidate(appKey: "chromium", displayName: "Chromium")]
        let error = ChoosyError.noPickerAvailable(typeName: "Browser", candidates: candidates, desktopIDs: ["firefox.desktop", "chromium.desktop"])
        #expect(error.message == "no picker available to choose a Browser app (candidates: firefox, chromium); pass --app KEY or --picker")
        #expect(error.status == .noChoice)
        #expect(error.unpicked == ["firefox.desktop", "chromium.desktop"])
        #expect(ChoosyError.noPickerAvailable(typeName: "Email", candidates: candidates, desktopIDs: []).message.hasPrefix("no picker available to choose an Email app"))
    }
}
