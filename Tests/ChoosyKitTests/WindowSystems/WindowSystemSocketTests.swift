import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// The readers of sway (and i3), Hyprland and niri against a socket that answers as each does
/// (Tests/Fixtures/window-systems/), and against one that does not: silent, garbage, a flood,
/// a hang-up mid-reply. Each fault ends by the deadline with one reason.
@Suite struct WindowSystemSocketTests {
    let sandbox = Sandbox()
    static let fixture = WindowSystemReplyTests.fixture

    /// What a faulty compositor does with a connection.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case silent, garbage, flood, hangUpMidReply
        var testDescription: String { rawValue }

        func act(on connection: ScriptedSocketServer.Connection, reply: [UInt8]) {
            _ = connection.readRequest()
            switch self {
            case .silent: connection.hold()
            case .garbage: connection.write(Array("\u{1B}[2J\0\0garbage that is no reply of any compositor\n".utf8))
            case .flood:
                // 100 MB, a chunk at a time, until the reader stops reading.
                let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20)
                for _ in 0..<100 where connection.write(chunk) {}
            case .hangUpMidReply: connection.write(Array(reply.prefix(reply.count / 2)))
            }
        }
    }

    // MARK: sway

    /// A sway that answers GET_WORKSPACES and GET_TREE from the fixtures and records RUN_COMMAND.
    func sway(commands: ScriptedLog = ScriptedLog()) -> ScriptedSocketServer {
        ScriptedSocketServer(path: sandbox.root + "/sway.sock") { connection in
            while let header = connection.read(count: 14) {
                var length: UInt32 = 0
                var type: UInt32 = 0
                withUnsafeMutableBytes(of: &length) { $0.copyBytes(from: header[6..<10]) }
                withUnsafeMutableBytes(of: &type) { $0.copyBytes(from: header[10..<14]) }
                guard let payload = connection.read(count: Int(length)) else { return }
                let reply: [UInt8]
                switch type {
                case I3IPC.getWorkspaces: reply = Self.fixture("sway/get_workspaces.json")
                case I3IPC.getTree: reply = Self.fixture("sway/get_tree.json")
                default:
                    commands.append(String(decoding: payload, as: UTF8.self))
                    reply = Array(#"[{"success": true}]"#.utf8)
                }
                connection.write(I3IPC.message(type, String(decoding: reply, as: UTF8.self)))
            }
        }!
    }

    @Test func swayIsReadAndFocusedThroughItsSocket() throws {
        let commands = ScriptedLog()
        let server = sway(commands: commands)
        let system = I3WindowSystem(name: "sway", socket: server.path, sockets: UnixLocalSockets(), pids: nil)
        let windows = try system.windows(before: .after(10))
        #expect(
            windows == [
                SessionWindow(id: "5", pid: 11219, onCurrentWorkspace: false),
                SessionWindow(id: "7", pid: 11260, onCurrentWorkspace: true),
            ])
        #expect(server.accepted == 1, "both requests go on one connection")
        try system.focus(windows[1], before: .after(10))
        #expect(commands.lines == ["[con_id=7] focus"])
        #expect(throws: WindowSystemError.self) {
            try system.focus(SessionWindow(id: "7] kill; [", onCurrentWorkspace: true), before: .after(10))
        }
        #expect(commands.lines == ["[con_id=7] focus"], "an ID that is no number never reaches sway")
    }

    @Test(arguments: Fault.allCases)
    func aFaultySwayIsSkippedByTheDeadline(fault: Fault) {
        let server = ScriptedSocketServer(path: sandbox.root + "/sway.sock") { connection in
            fault.act(on: connection, reply: I3IPC.message(I3IPC.getWorkspaces, "[{\"name\": \"1\", \"focused\": true}]"))
        }!
        let system = I3WindowSystem(name: "sway", socket: server.path, sockets: UnixLocalSockets(), pids: nil)
        expectBoundedFailure(fault) { deadline throws(WindowSystemError) in _ = try system.windows(before: deadline) }
    }

    // MARK: Hyprland

    func hyprland(requests: ScriptedLog = ScriptedLog(), answers: @escaping @Sendable (String) -> [UInt8]) -> ScriptedSocketServer {
        ScriptedSocketServer(path: sandbox.root + "/.socket.sock") { connection in
            guard let request = connection.readRequest() else { return }
            let text = String(decoding: request, as: UTF8.self)
            requests.append(text)
            connection.write(answers(text))
        }!
    }

    @Test func hyprlandIsReadAndFocusedThroughItsSocket() throws {
        let requests = ScriptedLog()
        let server = hyprland(requests: requests) { request in
            switch request {
            case "j/activeworkspace": Self.fixture("hyprland/j-activeworkspace.json")
            case "j/clients": Self.fixture("hyprland/j-clients.json")
            case let dispatch where dispatch.hasPrefix("dispatch "): Array("ok".utf8)
            default: Array("unknown request".utf8)
            }
        }
        let system = HyprlandWindowSystem(socket: server.path, sockets: UnixLocalSockets())
        let windows = try system.windows(before: .after(10))
        #expect(
            windows == [
                SessionWindow(id: "0x55d0c2f0a6e0", pid: 4242, onCurrentWorkspace: true),
                SessionWindow(id: "0x55d0c2f3b1a0", pid: 5151, onCurrentWorkspace: false),
                SessionWindow(id: "0x55d0c2f48800", pid: 6161, onCurrentWorkspace: false),
            ])
        try system.focus(windows[0], before: .after(10))
        #expect(requests.lines == ["j/activeworkspace", "j/clients", "dispatch focuswindow address:0x55d0c2f0a6e0"])
    }

    @Test func aHyprlandThatWillNotFocusSaysSo() throws {
        let server = hyprland { _ in Array("Invalid dispatcher".utf8) }
        let system = HyprlandWindowSystem(socket: server.path, sockets: UnixLocalSockets())
        #expect(throws: WindowSystemError("would not focus window 0x1f")) {
            try system.focus(SessionWindow(id: "0x1f", onCurrentWorkspace: true), before: .after(10))
        }
    }

    @Test(arguments: Fault.allCases)
    func aFaultyHyprlandIsSkippedByTheDeadline(fault: Fault) {
        let server = ScriptedSocketServer(path: sandbox.root + "/.socket.sock") { connection in
            // A hang-up mid-reply is, for Hyprland, the end of a reply that is no JSON.
            fault.act(on: connection, reply: Self.fixture("hyprland/j-activeworkspace.json"))
        }!
        let system = HyprlandWindowSystem(socket: server.path, sockets: UnixLocalSockets())
        expectBoundedFailure(fault) { deadline throws(WindowSystemError) in _ = try system.windows(before: deadline) }
    }

    // MARK: niri

    func niri(requests: ScriptedLog = ScriptedLog()) -> ScriptedSocketServer {
        ScriptedSocketServer(path: sandbox.root + "/niri.sock") { connection in
            while let line = connection.readLine() {
                let request = String(decoding: line, as: UTF8.self)
                requests.append(request)
                switch request {
                case "\"Workspaces\"": connection.write(Self.fixture("niri/workspaces.json"))
                case "\"Windows\"": connection.write(Self.fixture("niri/windows.json"))
                case let action where action.hasPrefix("{\"Action\":"): connection.write(Self.fixture("niri/focus-window.json"))
                default: connection.write(Self.fixture("niri/error.json"))
                }
            }
        }!
    }

    @Test func niriIsReadAndFocusedThroughItsSocket() throws {
        let requests = ScriptedLog()
        let server = niri(requests: requests)
        let system = NiriWindowSystem(socket: server.path, sockets: UnixLocalSockets())
        let windows = try system.windows(before: .after(10))
        #expect(
            windows == [
                SessionWindow(id: "21", pid: 4242, onCurrentWorkspace: true),
                SessionWindow(id: "22", pid: 5151, onCurrentWorkspace: false),
                SessionWindow(id: "23", pid: 6161, onCurrentWorkspace: false),
                SessionWindow(id: "24", pid: nil, onCurrentWorkspace: false),
            ])
        #expect(server.accepted == 1, "both requests go on one connection, a line each")
        try system.focus(windows[0], before: .after(10))
        #expect(requests.lines == ["\"Workspaces\"", "\"Windows\"", #"{"Action":{"FocusWindow":{"id":21}}}"#])
    }

    @Test(arguments: Fault.allCases)
    func aFaultyNiriIsSkippedByTheDeadline(fault: Fault) {
        let server = ScriptedSocketServer(path: sandbox.root + "/niri.sock") { connection in
            fault.act(on: connection, reply: Self.fixture("niri/workspaces.json"))
        }!
        let system = NiriWindowSystem(socket: server.path, sockets: UnixLocalSockets())
        expectBoundedFailure(fault) { deadline throws(WindowSystemError) in _ = try system.windows(before: deadline) }
    }

    // MARK: No server

    @Test func aSocketWithNoServerIsRefusedAtOnce() {
        let systems: [any WindowSystem] = [
            I3WindowSystem(name: "sway", socket: sandbox.root + "/gone.sock", sockets: UnixLocalSockets(), pids: nil),
            HyprlandWindowSystem(socket: sandbox.root + "/gone.sock", sockets: UnixLocalSockets()),
            NiriWindowSystem(socket: sandbox.root + "/gone.sock", sockets: UnixLocalSockets()),
        ]
        for system in systems {
            #expect(throws: WindowSystemError("cannot connect: No such file or directory")) { try system.windows(before: .after(10)) }
        }
    }

    /// The step fails, with the reason the fault gives, well before a hang would end (the
    /// bound is 250 ms; the test allows many times that on a loaded machine).
    func expectBoundedFailure(_ fault: Fault, _ step: (Deadline) throws(WindowSystemError) -> Void) {
        let start = Date()
        do {
            try step(.after(WorkspaceWindows.budget))
            Issue.record("a \(fault) compositor was read")
        } catch {
            let expected =
                switch fault {
                case .silent: ["did not answer in time"]
                // sway's reader sees at once that `[[[` is no reply; the others read to the limit.
                case .flood: ["answered more than 8 MiB", "did not answer in time", "answered what is no reply of its"]
                case .garbage, .hangUpMidReply:
                    ["answered what is no reply of its", "closed the connection mid-reply", "did not answer in time"]
                }
            #expect(
                expected.contains(error.description) || error.description.hasPrefix("answered what is no reply of its ("),
                "\(fault): \(error)")
        }
        #expect(Date().timeIntervalSince(start) < 5, "\(fault) took \(Date().timeIntervalSince(start)) s")
    }
}

/// Lines a scripted server saw, from its threads.
final class ScriptedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func append(_ line: String) { lock.withLock { recorded.append(line) } }
    var lines: [String] { lock.withLock { recorded } }
}
