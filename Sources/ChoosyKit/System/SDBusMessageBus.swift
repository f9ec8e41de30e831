import Glibc
import Synchronization

/// The session bus through sd-bus, libsystemd's D-Bus client (Debian's libsystemd0), loaded
/// with dlopen by the first call (SharedLibrary): a command that calls nothing never loads it,
/// and never connects. One connection, made by the first call and kept for the next ones.
package final class SDBusMessageBus: MessageBus, @unchecked Sendable {
    /// The bus address (`unix:path=/run/user/1000/bus`); nil when the session has none.
    private let address: String?
    /// The connection, made by the first call; its calls are made one at a time.
    private let connection = Mutex<OpaquePointer?>(nil)

    /// The session bus of `environment`: `DBUS_SESSION_BUS_ADDRESS`, else the socket
    /// `$XDG_RUNTIME_DIR/bus` when it is one, as sd-bus and GDBus find it.
    package init(sessionOf environment: Environment, fileSystem: FileSystem) {
        if let address = environment.value("DBUS_SESSION_BUS_ADDRESS") {
            self.address = address
        } else if let runtime = environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"),
            fileSystem.info(joinPath(runtime, "bus"))?.kind == .socket
        {
            self.address = "unix:path=" + SDBusMessageBus.escapedAddressValue(joinPath(runtime, "bus"))
        } else {
            self.address = nil
        }
    }

    deinit {
        if let bus = connection.withLock({ $0 }), let library = try? SDBusMessageBus.library.get() {
            _ = library.flushCloseUnref(bus)
        }
    }

    package func call(_ call: DBusMethodCall, timeout: Double) throws(DBusError) -> [DBusValue] {
        let sd = try SDBusMessageBus.library.get()
        return try connection.withLock { (bus: inout OpaquePointer?) throws(DBusError) -> [DBusValue] in
            if bus == nil { bus = try connect(sd) }
            var message: OpaquePointer?
            try check(
                sd.newMethodCall(bus, &message, call.destination, call.path, call.interface, call.member), "cannot make the call")
            defer { _ = sd.messageUnref(message) }
            for argument in call.arguments { try append(argument, to: message, sd) }
            let error = UnsafeMutableRawPointer.allocate(byteCount: SDBusMessageBus.errorSize, alignment: 8)
            error.initializeMemory(as: UInt8.self, repeating: 0, count: SDBusMessageBus.errorSize)
            defer {
                sd.errorFree(error)
                error.deallocate()
            }
            var reply: OpaquePointer?
            let microseconds = UInt64(max(timeout, 0.001) * 1_000_000)
            let status = sd.call(bus, message, microseconds, error, &reply)
            defer { _ = sd.messageUnref(reply) }
            guard status >= 0 else {
                let name = error.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
                let text = error.load(fromByteOffset: MemoryLayout<UnsafePointer<CChar>?>.stride, as: UnsafePointer<CChar>?.self)
                throw DBusError(name: name, message: text.map { String(cString: $0) } ?? SDBusMessageBus.text(ofErrno: -status))
            }
            return try values(in: reply, sd, depth: 0)
        }
    }

    package func uniqueName() throws(DBusError) -> String {
        let sd = try SDBusMessageBus.library.get()
        return try connection.withLock { (bus: inout OpaquePointer?) throws(DBusError) -> String in
            if bus == nil { bus = try connect(sd) }
            var name: UnsafePointer<CChar>?
            try check(sd.uniqueName(bus, &name), "cannot read the connection's name")
            return name.map { String(cString: $0) } ?? ""
        }
    }

    package func nextCall(to path: String, interface: String, member: String, before deadline: Deadline) throws(DBusError)
        -> [DBusValue]?
    {
        let sd = try SDBusMessageBus.library.get()
        return try connection.withLock { (bus: inout OpaquePointer?) throws(DBusError) -> [DBusValue]? in
            if bus == nil { bus = try connect(sd) }
            let awaited = AwaitedCall(path: path, interface: interface, member: member)
            var slot: OpaquePointer?
            // A filter sees every message first, those that came while a call waited for its reply too.
            let filter: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
                message, context, _ in
                guard let context, let sd = try? SDBusMessageBus.library.get() else { return 0 }
                let awaited = Unmanaged<AwaitedCall>.fromOpaque(context).takeUnretainedValue()
                guard awaited.message == nil, sd.isMethodCall(message, awaited.interface, awaited.member) > 0,
                    let path = sd.messagePath(message), String(cString: path) == awaited.path
                else { return 0 }
                awaited.message = sd.messageRef(message)
                return 1
            }
            try check(sd.addFilter(bus, &slot, filter, Unmanaged.passUnretained(awaited).toOpaque()), "cannot watch the bus")
            defer { _ = sd.slotUnref(slot) }
            while awaited.message == nil {
                let processed = sd.process(bus, nil)
                try check(processed, "cannot read from the bus")
                if processed > 0 { continue }
                let left = Int(deadline.remainingMilliseconds)
                if left == 0 { return nil }
                let waited = sd.wait(bus, UInt64(left) * 1000)
                if waited < 0 && waited != -EINTR { try check(waited, "cannot wait on the bus") }
            }
            let message = awaited.message
            defer { _ = sd.messageUnref(message) }
            let arguments = try values(in: message, sd, depth: 0)
            var reply: OpaquePointer?
            try check(sd.newMethodReturn(message, &reply), "cannot answer the call")
            defer { _ = sd.messageUnref(reply) }
            try check(sd.send(bus, reply, nil), "cannot answer the call")
            _ = sd.flush(bus)
            return arguments
        }
    }

    /// The call `nextCall` waits for, and the message once it came (referenced).
    private final class AwaitedCall {
        let path: String
        let interface: String
        let member: String
        var message: OpaquePointer?

        init(path: String, interface: String, member: String) {
            (self.path, self.interface, self.member) = (path, interface, member)
        }
    }

    private func connect(_ sd: Library) throws(DBusError) -> OpaquePointer? {
        guard let address else { throw DBusError(message: "no session bus (neither DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR/bus)") }
        var bus: OpaquePointer?
        try check(sd.new(&bus), "cannot make a bus connection")
        do {
            try check(sd.setAddress(bus, address), "invalid session bus address '\(address)'")
            try check(sd.setBusClient(bus, 1), "cannot make a bus connection")
            try check(sd.start(bus), "cannot connect to the session bus at '\(address)'")
        } catch {
            _ = sd.flushCloseUnref(bus)
            throw error
        }
        return bus
    }

    // MARK: Writing a message

    private func append(_ value: DBusValue, to message: OpaquePointer?, _ sd: Library) throws(DBusError) {
        func basic<T>(_ type: Character, _ value: T) throws(DBusError) {
            var value = value
            try check(withUnsafePointer(to: &value) { sd.appendBasic(message, code(type), $0) }, "cannot write a \(type) value")
        }
        func text(_ type: Character, _ string: String) throws(DBusError) {
            guard !string.utf8.contains(0) else { throw DBusError(message: "a D-Bus string cannot hold a NUL byte") }
            try check(string.withCString { sd.appendBasic(message, code(type), $0) }, "cannot write '\(string.prefix(60))' as \(type)")
        }
        func container(_ type: Character, _ contents: String, _ body: () throws(DBusError) -> Void) throws(DBusError) {
            try check(sd.openContainer(message, code(type), contents), "cannot write a container of \(contents)")
            try body()
            try check(sd.closeContainer(message), "cannot write a container of \(contents)")
        }
        switch value {
        case .byte(let byte): try basic("y", byte)
        case .boolean(let bool): try basic("b", Int32(bool ? 1 : 0))
        case .int16(let number): try basic("n", number)
        case .uint16(let number): try basic("q", number)
        case .int32(let number): try basic("i", number)
        case .uint32(let number): try basic("u", number)
        case .int64(let number): try basic("x", number)
        case .uint64(let number): try basic("t", number)
        case .double(let number): try basic("d", number)
        case .string(let string): try text("s", string)
        case .objectPath(let path): try text("o", path)
        case .signature(let signature): try text("g", signature)
        case .bytes(let bytes):
            try check(bytes.withUnsafeBytes { sd.appendArray(message, code("y"), $0.baseAddress, $0.count) }, "cannot write bytes")
        case .array(let element, let elements):
            try container("a", element) { () throws(DBusError) in
                for element in elements { try append(element, to: message, sd) }
            }
        case .dictionary(let key, let value, let entries):
            try container("a", "{" + key + value + "}") { () throws(DBusError) in
                for entry in entries {
                    try container("e", key + value) { () throws(DBusError) in
                        try append(entry.key, to: message, sd)
                        try append(entry.value, to: message, sd)
                    }
                }
            }
        case .structure(let members):
            try container("r", String(value.signature.dropFirst().dropLast())) { () throws(DBusError) in
                for member in members { try append(member, to: message, sd) }
            }
        case .variant(let inner):
            try container("v", inner.signature) { () throws(DBusError) in try append(inner, to: message, sd) }
        }
    }

    // MARK: Reading a reply

    /// D-Bus allows 64 levels of containers; a reply nested deeper is refused before sd-bus
    /// would refuse it, so that reading never recurses without bound.
    private static let maximumDepth = 64

    /// The values from the reader's position to the end of the message or container.
    private func values(in message: OpaquePointer?, _ sd: Library, depth: Int) throws(DBusError) -> [DBusValue] {
        guard depth <= SDBusMessageBus.maximumDepth else { throw DBusError(message: "the reply is nested too deeply") }
        var values: [DBusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let status = sd.peekType(message, &type, &contents)
            try check(status, "cannot read the reply")
            if status == 0 { return values }
            values.append(try value(of: type, contents: contents.map { String(cString: $0) } ?? "", in: message, sd, depth: depth))
        }
    }

    private func value(of type: CChar, contents: String, in message: OpaquePointer?, _ sd: Library, depth: Int) throws(DBusError)
        -> DBusValue
    {
        func basic<T>(_ initial: T) throws(DBusError) -> T {
            var value = initial
            try check(withUnsafeMutablePointer(to: &value) { sd.readBasic(message, type, $0) }, "cannot read the reply")
            return value
        }
        func text() throws(DBusError) -> String {
            let pointer: UnsafePointer<CChar>? = try basic(nil)
            return pointer.map { String(cString: $0) } ?? ""
        }
        func inside(_ container: Character, _ body: () throws(DBusError) -> DBusValue) throws(DBusError) -> DBusValue {
            try check(sd.enterContainer(message, code(container), contents), "cannot read the reply")
            let value = try body()
            try check(sd.exitContainer(message), "cannot read the reply")
            return value
        }
        switch UnicodeScalar(UInt8(bitPattern: type)) {
        case "y": return .byte(try basic(0))
        case "b": return .boolean(try basic(Int32(0)) != 0)
        case "n": return .int16(try basic(0))
        case "q": return .uint16(try basic(0))
        case "i": return .int32(try basic(0))
        case "u": return .uint32(try basic(0))
        case "x": return .int64(try basic(0))
        case "t": return .uint64(try basic(0))
        case "d": return .double(try basic(0))
        case "s": return .string(try text())
        case "o": return .objectPath(try text())
        case "g": return .signature(try text())
        case "a" where contents == "y":
            var pointer: UnsafeRawPointer?
            var size = 0
            try check(sd.readArray(message, code("y"), &pointer, &size), "cannot read the reply")
            return .bytes(pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? [])
        case "a" where contents.hasPrefix("{"):
            let key = String(contents.dropFirst().prefix(1))
            let valueSignature = String(contents.dropFirst(2).dropLast())
            return try inside("a") { () throws(DBusError) in
                let entries = try values(in: message, sd, depth: depth + 1).map { entry throws(DBusError) in
                    guard case .structure(let pair) = entry, pair.count == 2 else { throw DBusError(message: "cannot read the reply") }
                    return DBusDictionaryEntry(key: pair[0], value: pair[1])
                }
                return .dictionary(keySignature: key, valueSignature: valueSignature, entries)
            }
        case "a":
            return try inside("a") { () throws(DBusError) in
                .array(elementSignature: contents, try values(in: message, sd, depth: depth + 1))
            }
        case "e":
            return try inside("e") { () throws(DBusError) in .structure(try values(in: message, sd, depth: depth + 1)) }
        case "r":
            return try inside("r") { () throws(DBusError) in .structure(try values(in: message, sd, depth: depth + 1)) }
        case "v":
            return try inside("v") { () throws(DBusError) in
                let inner = try values(in: message, sd, depth: depth + 1)
                guard inner.count == 1 else { throw DBusError(message: "cannot read the reply") }
                return .variant(inner[0])
            }
        default:
            throw DBusError(message: "the reply holds a value of type '\(contents)' that choosy does not read")
        }
    }

    // MARK: The library

    private func code(_ type: Character) -> CChar { CChar(bitPattern: type.asciiValue!) }

    private func check(_ status: Int32, _ what: @autoclosure () -> String) throws(DBusError) {
        guard status < 0 else { return }
        throw DBusError(message: "\(what()): \(SDBusMessageBus.text(ofErrno: -status))")
    }

    private static func text(ofErrno code: Int32) -> String { String(cString: strerror(code)) }

    /// `sd_bus_error`: two string pointers and an int (sd-bus.h), zeroed before a call.
    private static let errorSize = 32

    /// `unix:path=` takes its value escaped: bytes outside `[-0-9A-Za-z_/.\*]` as `%XX`.
    private static func escapedAddressValue(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                escaped.unicodeScalars.append(UnicodeScalar(byte))
            default:
                escaped += "%" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
            }
        }
        return escaped
    }

    private typealias Bus = OpaquePointer?
    private typealias Message = OpaquePointer?

    private struct Library: Sendable {
        let new: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        let setAddress: @convention(c) (Bus, UnsafePointer<CChar>?) -> Int32
        let setBusClient: @convention(c) (Bus, Int32) -> Int32
        let start: @convention(c) (Bus) -> Int32
        let flushCloseUnref: @convention(c) (Bus) -> OpaquePointer?
        let newMethodCall:
            @convention(c) (
                Bus, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                UnsafePointer<CChar>?
            ) -> Int32
        let messageUnref: @convention(c) (Message) -> OpaquePointer?
        let appendBasic: @convention(c) (Message, CChar, UnsafeRawPointer?) -> Int32
        let appendArray: @convention(c) (Message, CChar, UnsafeRawPointer?, Int) -> Int32
        let openContainer: @convention(c) (Message, CChar, UnsafePointer<CChar>?) -> Int32
        let closeContainer: @convention(c) (Message) -> Int32
        let call: @convention(c) (Bus, Message, UInt64, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
        let peekType: @convention(c) (Message, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
        let readBasic: @convention(c) (Message, CChar, UnsafeMutableRawPointer?) -> Int32
        let readArray: @convention(c) (Message, CChar, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?) -> Int32
        let enterContainer: @convention(c) (Message, CChar, UnsafePointer<CChar>?) -> Int32
        let exitContainer: @convention(c) (Message) -> Int32
        let uniqueName: @convention(c) (Bus, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
        let addFilter:
            @convention(c) (
                Bus, UnsafeMutablePointer<OpaquePointer?>?,
                (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32)?,
                UnsafeMutableRawPointer?
            ) -> Int32
        let slotUnref: @convention(c) (OpaquePointer?) -> OpaquePointer?
        let process: @convention(c) (Bus, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        let wait: @convention(c) (Bus, UInt64) -> Int32
        let isMethodCall: @convention(c) (Message, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
        let messagePath: @convention(c) (Message) -> UnsafePointer<CChar>?
        let messageRef: @convention(c) (Message) -> OpaquePointer?
        let newMethodReturn: @convention(c) (Message, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        let send: @convention(c) (Bus, Message, UnsafeMutablePointer<UInt64>?) -> Int32
        let flush: @convention(c) (Bus) -> Int32
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libsystemd", sonames: ["libsystemd.so.0"], package: "libsystemd0", neededFor: "to call desktop services over D-Bus")
        return Library(
            new: try library.function("sd_bus_new"), setAddress: try library.function("sd_bus_set_address"),
            setBusClient: try library.function("sd_bus_set_bus_client"), start: try library.function("sd_bus_start"),
            flushCloseUnref: try library.function("sd_bus_flush_close_unref"),
            newMethodCall: try library.function("sd_bus_message_new_method_call"),
            messageUnref: try library.function("sd_bus_message_unref"),
            appendBasic: try library.function("sd_bus_message_append_basic"),
            appendArray: try library.function("sd_bus_message_append_array"),
            openContainer: try library.function("sd_bus_message_open_container"),
            closeContainer: try library.function("sd_bus_message_close_container"), call: try library.function("sd_bus_call"),
            errorFree: try library.function("sd_bus_error_free"), peekType: try library.function("sd_bus_message_peek_type"),
            readBasic: try library.function("sd_bus_message_read_basic"), readArray: try library.function("sd_bus_message_read_array"),
            enterContainer: try library.function("sd_bus_message_enter_container"),
            exitContainer: try library.function("sd_bus_message_exit_container"),
            uniqueName: try library.function("sd_bus_get_unique_name"), addFilter: try library.function("sd_bus_add_filter"),
            slotUnref: try library.function("sd_bus_slot_unref"), process: try library.function("sd_bus_process"),
            wait: try library.function("sd_bus_wait"), isMethodCall: try library.function("sd_bus_message_is_method_call"),
            messagePath: try library.function("sd_bus_message_get_path"), messageRef: try library.function("sd_bus_message_ref"),
            newMethodReturn: try library.function("sd_bus_message_new_method_return"), send: try library.function("sd_bus_send"),
            flush: try library.function("sd_bus_flush")
        )
    }.mapError { DBusError(message: $0.description) }
}
