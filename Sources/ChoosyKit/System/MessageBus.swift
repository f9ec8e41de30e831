/// A D-Bus message bus that choosy calls methods on (the session bus): the terminal intent's
/// `LaunchCommand` (doc/desktop.md, "Apps that run in a terminal"), and what else a part needs of a desktop
/// service. A protocol: the composition root makes the one that loads libsystemd's sd-bus only
/// when a call is made (`SDBusMessageBus`).
package protocol MessageBus: Sendable {
    /// Calls the method and waits at most `timeout` seconds for its reply's values.
    func call(_ call: DBusMethodCall, timeout: Double) throws(DBusError) -> [DBusValue]
    /// The connection's unique name (`:1.42`), which a service calls back (KWin's `callDBus`).
    func uniqueName() throws(DBusError) -> String
    /// Waits until `deadline` for a call to the method `member` of `interface` at `path` (a
    /// service calling back), answers it with an empty reply and returns its arguments; nil
    /// when none came in time. Calls to anything else are answered as sd-bus answers them.
    func nextCall(to path: String, interface: String, member: String, before deadline: Deadline) throws(DBusError) -> [DBusValue]?
}

/// One method call: where it goes and its arguments, in order.
package struct DBusMethodCall: Equatable, Sendable {
    /// The bus name of the service (`org.gnome.Ptyxis`); the bus starts it when it is
    /// activatable and not running.
    package var destination: String
    package var path: String
    package var interface: String
    package var member: String
    package var arguments: [DBusValue] = []

    package init(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        (self.destination, self.path, self.interface, self.member, self.arguments) = (destination, path, interface, member, arguments)
    }
}

/// Why a call failed: the error the service or the bus answered with (`name` is its D-Bus error
/// name, `org.freedesktop.DBus.Error.ServiceUnknown`), or a local failure (no bus address, no
/// library, a value D-Bus cannot carry), whose `name` is nil.
package struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    package var name: String?
    package var message: String

    package init(name: String? = nil, message: String) {
        (self.name, self.message) = (name, message)
    }

    package var description: String { name.map { "\($0): \(message)" } ?? message }

    /// The bus has no such name, and cannot start one.
    package static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The service has no object at the path, or no such method there.
    package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
}

/// A value of the D-Bus type system, as written into a message and read from a reply. Unix file
/// descriptors (`h`) are not carried.
package indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`, as one run of bytes (paths and argv words, which need not be UTF-8).
    case bytes([UInt8])
    /// Any other array; its elements all have `elementSignature` (needed for an empty one).
    case array(elementSignature: String, [DBusValue])
    /// `a{KV}`: entries in order, keys of a basic type.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// Its D-Bus type signature (`a{sv}`).
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `a{sv}`, the dictionary of options and platform data that desktop interfaces take.
    package static func options(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// `aay` of byte strings each ended by a NUL, as GLib writes them (an argv, an environment).
    package static func byteStrings(_ strings: [[UInt8]]) -> DBusValue {
        .array(elementSignature: "ay", strings.map { .bytes($0 + [0]) })
    }
}

package struct DBusDictionaryEntry: Equatable, Sendable {
    package var key: DBusValue
    package var value: DBusValue

    package init(key: DBusValue, value: DBusValue) {
        (self.key, self.value) = (key, value)
    }
}
