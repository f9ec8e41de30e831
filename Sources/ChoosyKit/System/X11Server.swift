import CSystem
import Glibc

/// An X server, for what its window manager says through EWMH properties and client messages
/// (doc/running.md). A protocol: the composition root makes the one that loads libxcb, and
/// the readers of the window systems take it.
package protocol X11Server: Sendable {
    /// Connects to `display` (`DISPLAY`'s value) and finds its default screen's root window.
    func connect(_ display: String, before deadline: Deadline) throws(X11Error) -> any X11Connection
}

/// One connection to an X server.
package protocol X11Connection: AnyObject, Sendable {
    /// The root window of the screen `DISPLAY` names.
    var root: UInt32 { get }
    /// For each window, in order, the 32-bit values of each property (at most `limit` each),
    /// all asked at once: nil where the window lacks it, is gone, or the server knows no atom
    /// of that name, or the values are not 32 bits wide.
    func values(of properties: [String], on windows: [UInt32], limit: Int, before deadline: Deadline) throws(X11Error) -> [[[UInt32]?]]
    /// Sends a 32-bit client message of type `type` about `window` to the root window, as a
    /// pager does (EWMH: SubstructureNotify and SubstructureRedirect), and waits until the
    /// server has it.
    func sendToRoot(_ type: String, window: UInt32, data: [UInt32], before deadline: Deadline) throws(X11Error)
}

package struct X11Error: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
}

/// Through libxcb (Debian's libxcb1), loaded with dlopen by the first connection
/// (SharedLibrary). libxcb's calls wait with no timeout of their own, so each runs on a
/// thread of its own that the caller leaves behind at its deadline (`boundedCall`).
package struct XCBServer: X11Server {
    package init() {}

    private typealias ConnectFunction = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    private typealias ConnectionFunction = @convention(c) (OpaquePointer?) -> Int32
    private typealias DisconnectFunction = @convention(c) (OpaquePointer?) -> Void
    private typealias SetupFunction = @convention(c) (OpaquePointer?) -> UnsafeRawPointer?
    private typealias RootsFunction = @convention(c) (UnsafeRawPointer?) -> choosy_xcb_screen_iterator
    private typealias NextScreenFunction = @convention(c) (UnsafeMutablePointer<choosy_xcb_screen_iterator>?) -> Void
    private typealias InternAtomFunction = @convention(c) (OpaquePointer?, UInt8, UInt16, UnsafePointer<CChar>?) -> choosy_xcb_cookie
    private typealias ReplyFunction =
        @convention(c) (OpaquePointer?, choosy_xcb_cookie, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> UnsafeMutableRawPointer?
    private typealias GetPropertyFunction =
        @convention(c) (OpaquePointer?, UInt8, UInt32, UInt32, UInt32, UInt32, UInt32) -> choosy_xcb_cookie
    private typealias PropertyValueFunction = @convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?
    private typealias PropertyLengthFunction = @convention(c) (UnsafeRawPointer?) -> Int32
    private typealias SendEventFunction = @convention(c) (OpaquePointer?, UInt8, UInt32, UInt32, UnsafePointer<CChar>?) -> choosy_xcb_cookie
    private typealias InputFocusFunction = @convention(c) (OpaquePointer?) -> choosy_xcb_cookie

    private struct Library: @unchecked Sendable {
        let connect: ConnectFunction, hasError: ConnectionFunction, disconnect: DisconnectFunction, flush: ConnectionFunction
        let setup: SetupFunction, roots: RootsFunction, nextScreen: NextScreenFunction
        let internAtom: InternAtomFunction, internAtomReply: ReplyFunction
        let getProperty: GetPropertyFunction, getPropertyReply: ReplyFunction
        let propertyValue: PropertyValueFunction, propertyLength: PropertyLengthFunction
        let sendEvent: SendEventFunction, getInputFocus: InputFocusFunction, getInputFocusReply: ReplyFunction
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libxcb", sonames: ["libxcb.so.1"], package: "libxcb1", neededFor: "to ask an X11 window manager which windows are where")
        return Library(
            connect: try library.function("xcb_connect"), hasError: try library.function("xcb_connection_has_error"),
            disconnect: try library.function("xcb_disconnect"), flush: try library.function("xcb_flush"),
            setup: try library.function("xcb_get_setup"), roots: try library.function("xcb_setup_roots_iterator"),
            nextScreen: try library.function("xcb_screen_next"),
            internAtom: try library.function("xcb_intern_atom"), internAtomReply: try library.function("xcb_intern_atom_reply"),
            getProperty: try library.function("xcb_get_property"), getPropertyReply: try library.function("xcb_get_property_reply"),
            propertyValue: try library.function("xcb_get_property_value"),
            propertyLength: try library.function("xcb_get_property_value_length"),
            sendEvent: try library.function("xcb_send_event"), getInputFocus: try library.function("xcb_get_input_focus"),
            getInputFocusReply: try library.function("xcb_get_input_focus_reply")
        )
    }.mapError { X11Error(description: $0.description) }

    /// The server said nothing in time.
    private static let timedOut = X11Error(description: "did not answer in time")

    package func connect(_ display: String, before deadline: Deadline) throws(X11Error) -> any X11Connection {
        let xcb = try Self.library.get()
        let opened = boundedCall(before: deadline) { () -> Swift.Result<XCBConnection, X11Error> in
            var screen: Int32 = 0
            let connection = xcb.connect(display, &screen)
            guard let connection, xcb.hasError(connection) == 0 else {
                if let connection { xcb.disconnect(connection) }
                return .failure(X11Error(description: "cannot connect to DISPLAY=\(display)"))
            }
            var screens = xcb.roots(xcb.setup(connection))
            var index: Int32 = 0
            while index < screen, screens.rem > 0 {
                xcb.nextScreen(&screens)
                index += 1
            }
            guard screens.rem > 0, let data = screens.data else {
                xcb.disconnect(connection)
                return .failure(X11Error(description: "DISPLAY=\(display) has no screen \(screen)"))
            }
            // xcb_screen_t begins with its root window (xproto.h).
            let root = data.load(as: UInt32.self)
            return .success(XCBConnection(xcb: xcb, connection: connection, root: root))
        }
        guard let opened else { throw Self.timedOut }
        return try opened.get()
    }

    /// One connection; libxcb may be called from any thread, one call at a time here.
    private final class XCBConnection: X11Connection, @unchecked Sendable {
        private let xcb: Library
        private let connection: OpaquePointer
        let root: UInt32
        /// Atoms by name, 0 for a name the server does not know; touched only by the bounded calls.
        private var atoms: [String: UInt32] = [:]
        /// A call outlived its deadline and may still be using the connection: no other starts.
        private var abandoned = false

        init(xcb: Library, connection: OpaquePointer, root: UInt32) {
            self.xcb = xcb
            self.connection = connection
            self.root = root
        }

        deinit {
            xcb.disconnect(connection)
        }

        /// The atoms of `names`, interned (only if they exist: a name no client uses is no property anywhere).
        private func intern(_ names: [String]) -> [UInt32] {
            let missing = names.filter { atoms[$0] == nil }
            let cookies = missing.map { name in
                name.withCString { xcb.internAtom(connection, 1, UInt16(strlen($0)), $0) }
            }
            for (name, cookie) in zip(missing, cookies) {
                let reply = xcb.internAtomReply(connection, cookie, nil)
                // xcb_intern_atom_reply_t: the atom follows the 8-byte reply header.
                atoms[name] = reply.map { $0.load(fromByteOffset: 8, as: UInt32.self) } ?? 0
                free(reply)
            }
            return names.map { atoms[$0] ?? 0 }
        }

        func values(of properties: [String], on windows: [UInt32], limit: Int, before deadline: Deadline) throws(X11Error)
            -> [[[UInt32]?]]
        {
            guard !abandoned else { throw XCBServer.timedOut }
            let result = boundedCall(before: deadline) { [self] () -> [[[UInt32]?]]? in
                let atoms = intern(properties)
                guard xcb.hasError(connection) == 0 else { return nil }
                // Every request first, then every reply: one round trip for all the windows.
                let cookies = windows.map { window in
                    atoms.map { atom in atom == 0 ? nil : xcb.getProperty(connection, 0, window, atom, 0, 0, UInt32(limit)) }
                }
                let values = cookies.map { row in
                    row.map { cookie -> [UInt32]? in
                        guard let cookie, let reply = xcb.getPropertyReply(connection, cookie, nil) else { return nil }
                        defer { free(reply) }
                        // xcb_get_property_reply_t: the format (8, 16 or 32 bits) is its second byte.
                        guard reply.load(fromByteOffset: 1, as: UInt8.self) == 32, let value = xcb.propertyValue(reply) else { return nil }
                        let count = Int(xcb.propertyLength(reply)) / 4
                        return (0..<min(count, limit)).map { value.load(fromByteOffset: $0 * 4, as: UInt32.self) }
                    }
                }
                return xcb.hasError(connection) == 0 ? values : nil
            }
            guard let result else {
                abandoned = true
                throw XCBServer.timedOut
            }
            guard let values = result else { throw X11Error(description: "the X server closed the connection") }
            return values
        }

        func sendToRoot(_ type: String, window: UInt32, data: [UInt32], before deadline: Deadline) throws(X11Error) {
            guard !abandoned else { throw XCBServer.timedOut }
            let sent = boundedCall(before: deadline) { [self] () -> Bool in
                guard let atom = intern([type]).first, atom != 0 else { return false }
                // xcb_client_message_event_t: type 33, format 32, sequence, window, message
                // type, then five 32-bit values (32 bytes in all).
                var event = [UInt8](repeating: 0, count: 32)
                event[0] = 33
                event[1] = 32
                func put(_ value: UInt32, at offset: Int) {
                    withUnsafeBytes(of: value) { event.replaceSubrange(offset..<(offset + 4), with: $0) }
                }
                put(window, at: 4)
                put(atom, at: 8)
                for (index, value) in data.prefix(5).enumerated() { put(value, at: 12 + index * 4) }
                // SubstructureNotify (1 << 19) | SubstructureRedirect (1 << 20).
                _ = event.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { xcb.sendEvent(connection, 0, root, 0x18_0000, $0.baseAddress) }
                }
                // A round trip: once its reply is here, the server has handled the event too.
                free(xcb.getInputFocusReply(connection, xcb.getInputFocus(connection), nil))
                return xcb.hasError(connection) == 0
            }
            guard let sent else {
                abandoned = true
                throw XCBServer.timedOut
            }
            guard sent else { throw X11Error(description: "the window manager knows no \(type), or the X server closed the connection") }
        }
    }
}
