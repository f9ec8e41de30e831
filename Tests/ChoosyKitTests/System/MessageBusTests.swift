import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The sd-bus client against a real `dbus-daemon --session` started by each test, with the
/// bus itself and a Python service (Tests/Fixtures/dbus/echo_service.py) to call.
@Suite struct MessageBusTests {
    static let service = "org.choosy.Test"

    /// A sandbox with a session bus and the echo service on it.
    struct Session {
        let sandbox = Sandbox()
        let daemon: SessionBusDaemon

        init(echo: Bool = true) throws {
            daemon = try SessionBusDaemon(in: sandbox)
            if echo { try daemon.run("echo_service.py", [MessageBusTests.service]) }
        }

        /// The client as the composition root makes it, from the sandbox's environment.
        func bus(_ overrides: [String: String] = [:]) -> SDBusMessageBus {
            var variables = sandbox.environment
            variables["DBUS_SESSION_BUS_ADDRESS"] = daemon.address
            for (name, value) in overrides { variables[name] = value.isEmpty ? nil : value }
            return SDBusMessageBus(sessionOf: Environment(variables), fileSystem: LocalFileSystem())
        }

        func echo(_ value: DBusValue, on bus: MessageBus) throws -> [DBusValue] {
            try bus.call(
                DBusMethodCall(
                    destination: MessageBusTests.service, path: "/org/choosy/Test", interface: "org.choosy.Test", member: "Echo",
                    arguments: [.variant(value)]), timeout: 10)
        }
    }

    @Test func callsTheBusItselfWithArgumentsAndReadsEachKindOfReply() throws {
        let session = try Session()
        let bus = session.bus()
        func busCall(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
            try bus.call(
                DBusMethodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member,
                    arguments: arguments), timeout: 10)
        }
        let owner = try busCall("GetNameOwner", [.string(Self.service)])
        guard case .string(let unique)? = owner.first else {
            Issue.record("GetNameOwner gave \(owner)")
            return
        }
        #expect(unique.hasPrefix(":"))
        #expect(try busCall("NameHasOwner", [.string(Self.service)]) == [.boolean(true)])
        #expect(try busCall("NameHasOwner", [.string("org.choosy.Nobody")]) == [.boolean(false)])
        guard case .array("s", let names)? = try busCall("ListNames", []).first else {
            Issue.record("ListNames gave no array of strings")
            return
        }
        #expect(names.contains(.string(Self.service)) && names.contains(.string(unique)))
        // Several calls go over the one connection.
        #expect(try busCall("GetConnectionUnixProcessID", [.string(unique)]).count == 1)
    }

    @Test func valuesOfEveryKindReachTheServiceAndComeBackUnchanged() throws {
        let session = try Session()
        let bus = session.bus()
        let values: [DBusValue] = [
            .byte(0xFF), .boolean(true), .boolean(false), .int16(-2), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
            .int64(-1 << 40), .uint64(1 << 63), .double(-0.25), .string("Grüße, 世界"), .string(""),
            .objectPath("/org/choosy/Some_Path"), .signature("a{sv}"),
            // Bytes that are no UTF-8, a NUL among them.
            .bytes([0x00, 0xFF, 0xFE, 0x25, 0x0A]), .bytes([]),
            .array(elementSignature: "s", [.string("a"), .string("b c")]), .array(elementSignature: "i", []),
            .byteStrings([Array("vim".utf8), [0x2F, 0xC3, 0x28, 0x20, 0x23]]),
            .structure([.string("x"), .uint32(7), .bytes([1, 2])]),
            .options([
                ("exec", .byteStrings([Array("less".utf8)])), ("keep-terminal-open", .boolean(false)),
                ("nested", .options([("depth", .int32(2))])),
            ]),
            .dictionary(
                keySignature: "u", valueSignature: "as",
                [DBusDictionaryEntry(key: .uint32(1), value: .array(elementSignature: "s", [.string("one")]))]),
            .variant(.string("inside a variant")),
        ]
        for value in values {
            #expect(try session.echo(value, on: bus) == [.variant(value)], "\(value.signature)")
        }
        // The terminal intent's argument: an array of option dictionaries.
        let commands = DBusValue.array(
            elementSignature: "a{sv}",
            [.options([("exec", .byteStrings([Array("htop".utf8)])), ("working_directory", .bytes([0x2F, 0]))])])
        #expect(try session.echo(commands, on: bus) == [.variant(commands)])
    }

    @Test func aServiceErrorComesBackWithItsNameAndMessage() throws {
        let session = try Session()
        #expect(throws: DBusError(name: "org.choosy.Test.Error.Failed", message: "failing as asked")) {
            try session.bus().call(
                DBusMethodCall(destination: Self.service, path: "/org/choosy/Test", interface: "org.choosy.Test", member: "Fail"),
                timeout: 10)
        }
    }

    @Test func aNameNoOneOwnsOrCanStartIsServiceUnknown() throws {
        let session = try Session(echo: false)
        let error = #expect(throws: DBusError.self) {
            try session.bus().call(
                DBusMethodCall(destination: "org.choosy.Nobody", path: "/org/choosy/Nobody", interface: "org.choosy.Test", member: "Echo"),
                timeout: 10)
        }
        #expect(error?.name == DBusError.serviceUnknown)
    }

    @Test func aServiceTooSlowToAnswerIsLeftAfterTheTimeout() throws {
        let session = try Session()
        let error = #expect(throws: DBusError.self) {
            try session.bus().call(
                DBusMethodCall(
                    destination: Self.service, path: "/org/choosy/Test", interface: "org.choosy.Test", member: "Sleep",
                    arguments: [.double(30)]), timeout: 0.2)
        }
        #expect(error?.message.contains("timed out") == true, "\(String(describing: error))")
    }

    @Test func theBusIsFoundAtTheRuntimeDirectoryWithoutAnAddress() throws {
        let session = try Session()
        #expect(try session.echo(.string("found"), on: session.bus(["DBUS_SESSION_BUS_ADDRESS": ""])) == [.variant(.string("found"))])
    }

    @Test func withoutABusOrWithValuesDBusCannotCarryTheCallFailsWithAReason() throws {
        let session = try Session()
        let alone = SDBusMessageBus(
            sessionOf: Environment(["XDG_RUNTIME_DIR": session.sandbox.root + "/elsewhere"]), fileSystem: LocalFileSystem())
        let noBus = #expect(throws: DBusError.self) { try session.echo(.string("x"), on: alone) }
        #expect(noBus?.name == nil && noBus?.message.contains("no session bus") == true)
        let refused = SDBusMessageBus(
            sessionOf: Environment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + session.sandbox.root + "/no-such-socket"]),
            fileSystem: LocalFileSystem())
        #expect(throws: DBusError.self) { try session.echo(.string("x"), on: refused) }
        // A NUL in a string, an invalid object path: refused before anything is sent.
        let bus = session.bus()
        #expect(throws: DBusError.self) { try session.echo(.string("a\u{0}b"), on: bus) }
        #expect(throws: DBusError.self) { try session.echo(.objectPath("not a path"), on: bus) }
        // The connection still works after them.
        #expect(try session.echo(.string("after"), on: bus) == [.variant(.string("after"))])
    }
}
