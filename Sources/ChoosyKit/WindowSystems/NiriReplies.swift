/// What choosy reads in niri's replies (doc/running.md): each a line of JSON, `{"Ok": …}` or
/// `{"Err": "…"}`, in the shapes of niri's `niri-ipc/src/lib.rs` (`Response::Workspaces`,
/// `Response::Windows`, `Response::Handled`; `Tests/Fixtures/window-systems/niri/`).
package enum NiriReplies {
    package struct Window: Equatable, Sendable {
        package var id: UInt64
        package var pid: Int32?
        package var workspace: UInt64?
    }

    /// The ID of the focused workspace (there is one across all outputs), or nil for none.
    package static func focusedWorkspace(_ bytes: ArraySlice<UInt8>) throws(JSONError) -> UInt64? {
        guard let workspaces = try ok(bytes)["Workspaces"]?.elements else { throw JSONError(shape: "should be the workspaces") }
        return workspaces.first { $0["is_focused"]?.boolValue == true }.flatMap { identifier($0["id"]) }
    }

    package static func windows(_ bytes: ArraySlice<UInt8>) throws(JSONError) -> [Window] {
        guard let windows = try ok(bytes)["Windows"]?.elements else { throw JSONError(shape: "should be the windows") }
        return windows.compactMap { window in
            guard let id = identifier(window["id"]) else { return nil }
            let pid = window["pid"]?.int.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
            return Window(id: id, pid: pid, workspace: identifier(window["workspace_id"]))
        }
    }

    /// Whether an action's reply is `{"Ok":"Handled"}`.
    package static func handled(_ bytes: ArraySlice<UInt8>) -> Bool {
        (try? ok(bytes))?.stringValue == "Handled"
    }

    /// What an `Ok` reply holds; an `Err` reply throws its message.
    private static func ok(_ bytes: ArraySlice<UInt8>) throws(JSONError) -> JSONValue {
        let reply = try JSONReader.parse(bytes)
        if let value = reply["Ok"] { return value }
        throw JSONError(shape: "is an error: \(reply["Err"]?.stringValue ?? "no Ok")")
    }

    /// A u64 ID, written as a JSON integer.
    private static func identifier(_ value: JSONValue?) -> UInt64? {
        guard case .number(let text) = value, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(text)
    }
}
