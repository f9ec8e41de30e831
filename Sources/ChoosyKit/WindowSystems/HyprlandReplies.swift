/// What choosy reads in Hyprland's replies (doc/running.md): `j/activeworkspace` and
/// `j/clients`, in the shapes Hyprland's own `src/debug/HyprCtl.cpp` writes them
/// (`Tests/Fixtures/window-systems/hyprland/`, with where each comes from).
package enum HyprlandReplies {
    package struct Client: Equatable, Sendable {
        /// `0x` and hex digits, as Hyprland writes a window's address.
        package var address: String
        package var pid: Int32?
        package var workspace: Int?
    }

    /// The ID of the active workspace of the focused monitor.
    package static func activeWorkspace(_ bytes: [UInt8]) throws(JSONError) -> Int {
        guard let id = try JSONReader.parse(bytes)["id"]?.int else { throw JSONError(shape: "should be a workspace with an id") }
        return id
    }

    /// The windows (clients), each with a well-formed address; others are left out.
    package static func clients(_ bytes: [UInt8]) throws(JSONError) -> [Client] {
        guard let clients = try JSONReader.parse(bytes).elements else { throw JSONError(shape: "should be an array of clients") }
        return clients.compactMap { client in
            guard let address = client["address"]?.stringValue, isAddress(address) else { return nil }
            let pid = client["pid"]?.int.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
            return Client(address: address, pid: pid, workspace: client["workspace"]?["id"]?.int)
        }
    }

    /// `0x` and 1 to 16 hex digits: what goes into a `focuswindow address:` command.
    package static func isAddress(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst(2)
        return text.hasPrefix("0x") && (1...16).contains(digits.count)
            && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }

    /// Whether a `dispatch` reply says it was done: Hyprland answers `ok`.
    package static func dispatched(_ bytes: [UInt8]) -> Bool {
        bytes == Array("ok".utf8)
    }
}
