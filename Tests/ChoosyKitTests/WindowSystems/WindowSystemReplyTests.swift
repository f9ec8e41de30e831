import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The replies of each window system, as the real ones write them (Tests/Fixtures/window-systems/).
@Suite struct WindowSystemReplyTests {
    static func fixture(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: Sandbox.packageRoot + "/Tests/Fixtures/window-systems/" + name)!)
    }

    @Test func swaysTreeGivesEachViewItsProcessAndWorkspace() throws {
        #expect(try I3Replies.focusedWorkspace(ArraySlice(Self.fixture("sway/get_workspaces.json"))) == "2")
        #expect(
            try I3Replies.windows(ArraySlice(Self.fixture("sway/get_tree.json"))) == [
                .init(container: 5, pid: 11219, xWindow: nil, onWorkspace: "1"),
                .init(container: 7, pid: 11260, xWindow: nil, onWorkspace: "2"),
            ])
    }

    /// i3 names X windows, not processes; a dock's window (i3bar) is on no workspace.
    @Test func i3sTreeGivesEachWindowItsXWindowAndWorkspace() throws {
        #expect(try I3Replies.focusedWorkspace(ArraySlice(Self.fixture("i3/get_workspaces.json"))) == "2")
        #expect(
            try I3Replies.windows(ArraySlice(Self.fixture("i3/get_tree.json"))) == [
                .init(container: 94_751_389_611_840, pid: nil, xWindow: 8_388_620, onWorkspace: "1"),
                .init(container: 94_751_389_632_912, pid: nil, xWindow: 10_485_772, onWorkspace: "2"),
                .init(container: 94_751_389_614_192, pid: nil, xWindow: 6_291_462, onWorkspace: nil),
            ])
    }

    @Test func i3RepliesThatAreNotTheirs() throws {
        #expect(throws: JSONError.self) { try I3Replies.windows(ArraySlice("[1, 2]".utf8)) }
        #expect(throws: JSONError.self) { try I3Replies.focusedWorkspace(ArraySlice("{\"name\": \"1\"}".utf8)) }
        #expect(throws: JSONError.self) { try I3Replies.windows(ArraySlice("{\"nodes\": [".utf8)) }
        #expect(try I3Replies.focusedWorkspace(ArraySlice("[]".utf8)) == nil)
        // A pid or window that is no number, negative or out of range is none.
        let odd =
            #"{"type": "root", "nodes": [{"type": "workspace", "name": "1", "nodes": [{"type": "con", "id": 3, "pid": -4, "window": 1e99}, {"type": "con", "id": 4, "pid": "5"}]}]}"#
        #expect(try I3Replies.windows(ArraySlice(odd.utf8)) == [])
        #expect(I3Replies.commandSucceeded(ArraySlice(#"[{"success": true}]"#.utf8)))
        #expect(!I3Replies.commandSucceeded(ArraySlice(#"[{"success": true}, {"success": false, "error": "No matching node"}]"#.utf8)))
        #expect(!I3Replies.commandSucceeded(ArraySlice("[]".utf8)))
    }

    @Test func i3MessagesAreFramedInTheMachinesByteOrder() {
        let message = I3IPC.message(I3IPC.runCommand, "[con_id=7] focus")
        #expect(Array(message.prefix(6)) == Array("i3-ipc".utf8))
        #expect(message.count == 14 + 16)
        #expect(I3IPC.replyLength(Array(message.prefix(13))) == nil)
        #expect(I3IPC.replyLength(Array(message.prefix(14))) == 30)
        #expect(I3IPC.payload(message, type: I3IPC.runCommand).map(Array.init) == Array("[con_id=7] focus".utf8))
        #expect(I3IPC.payload(message, type: I3IPC.getTree) == nil, "a reply of another type")
        #expect(I3IPC.payload(Array(message.dropLast()), type: I3IPC.runCommand) == nil, "a reply cut short")
        // Bytes that are no reply end the read at once.
        #expect(I3IPC.replyLength(Array("HTTP/1.1 400".utf8)) == 12)
    }

    @Test func hyprlandsClientsAndActiveWorkspace() throws {
        #expect(try HyprlandReplies.activeWorkspace(Self.fixture("hyprland/j-activeworkspace.json")) == 1)
        #expect(
            try HyprlandReplies.clients(Self.fixture("hyprland/j-clients.json")) == [
                .init(address: "0x55d0c2f0a6e0", pid: 4242, workspace: 1),
                .init(address: "0x55d0c2f3b1a0", pid: 5151, workspace: 2),
                .init(address: "0x55d0c2f48800", pid: 6161, workspace: -98),
            ])
        // What Hyprland answers when it cannot: text, not JSON.
        #expect(throws: JSONError.self) { try HyprlandReplies.activeWorkspace(Array("unsafe state".utf8)) }
        #expect(throws: JSONError.self) { try HyprlandReplies.clients(Array("{}".utf8)) }
    }

    /// An address goes into a command: anything but `0x` and hex digits is left out.
    @Test func aHyprlandAddressIsHexDigitsOnly() throws {
        let clients = #"[{"address": "0x1;dispatch exec rm", "pid": 3}, {"address": "0xABCdef0"}, {"address": "0x"}, {"address": "12"}]"#
        #expect(try HyprlandReplies.clients(Array(clients.utf8)) == [.init(address: "0xABCdef0", pid: nil, workspace: nil)])
        #expect(!HyprlandReplies.isAddress("0x12345678901234567"))
        #expect(HyprlandReplies.dispatched(Array("ok".utf8)) && !HyprlandReplies.dispatched(Array("Invalid dispatcher".utf8)))
    }

    @Test func nirisWorkspacesAndWindows() throws {
        #expect(try NiriReplies.focusedWorkspace(ArraySlice(Self.fixture("niri/workspaces.json").dropLast())) == 1)
        #expect(
            try NiriReplies.windows(ArraySlice(Self.fixture("niri/windows.json").dropLast())) == [
                .init(id: 21, pid: 4242, workspace: 1),
                .init(id: 22, pid: 5151, workspace: 2),
                .init(id: 23, pid: 6161, workspace: 4),
                .init(id: 24, pid: nil, workspace: nil),
            ])
        #expect(NiriReplies.handled(ArraySlice(Self.fixture("niri/focus-window.json").dropLast())))
        #expect(throws: JSONError.self) { try NiriReplies.windows(ArraySlice(Self.fixture("niri/error.json").dropLast())) }
        #expect(throws: JSONError.self) { try NiriReplies.windows(ArraySlice(Self.fixture("niri/workspaces.json").dropLast())) }
        #expect(try NiriReplies.windows(ArraySlice(#"{"Ok":{"Windows":[{"id":-1},{"id":1.5},{"id":"2"}]}}"#.utf8)) == [])
    }

    /// What choosy's KWin script calls back with: a window on the current desktop, one on all,
    /// one elsewhere; an ID that is no UUID (it would go back into a script) is left out.
    @Test func kwinScriptAnswers() throws {
        let answer = """
            {"desktop": "d2", "windows": [
              {"pid": 4242, "id": "{6f1c9d4e-0b7a-4c1e-9a55-2d3b8e7f0a11}", "desktops": ["d2"], "all": false},
              {"pid": 5151, "id": "{0a2b3c4d-5e6f-4789-8abc-def012345678}", "desktops": [], "all": true},
              {"pid": 6161, "id": "{11111111-2222-3333-4444-555555555555}", "desktops": ["d1"], "all": false},
              {"pid": 7171, "id": "x); workspace.activeWindow = null; (x", "desktops": ["d2"], "all": false},
              {"pid": -1, "id": "{22222222-2222-3333-4444-555555555555}", "desktops": ["d2"]}
            ]}
            """
        #expect(
            try KWinReplies.windows(answer) == [
                SessionWindow(id: "{6f1c9d4e-0b7a-4c1e-9a55-2d3b8e7f0a11}", pid: 4242, onCurrentWorkspace: true),
                SessionWindow(id: "{0a2b3c4d-5e6f-4789-8abc-def012345678}", pid: 5151, onCurrentWorkspace: true),
                SessionWindow(id: "{11111111-2222-3333-4444-555555555555}", pid: 6161, onCurrentWorkspace: false),
                SessionWindow(id: "{22222222-2222-3333-4444-555555555555}", pid: nil, onCurrentWorkspace: true),
            ])
        #expect(throws: JSONError.self) { try KWinReplies.windows("{\"windows\": []}") }
        #expect(throws: JSONError.self) { try KWinReplies.windows("not json") }
    }
}
