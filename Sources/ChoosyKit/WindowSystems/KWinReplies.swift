/// What choosy reads in the answer of its KWin script (`KWinWindowSystem.windowsScript`):
/// `{"desktop": ID, "windows": [{"pid": N, "id": "{UUID}", "desktops": [ID…], "all": BOOL}]}`,
/// the current virtual desktop's ID and each normal window with its process, KWin's internal ID
/// and its virtual desktops (Plasma 6 gives desktops string IDs, Plasma 5 numbers; both are
/// written as strings). KWin's own scripting API is documented in KWin's
/// `src/scripting/workspace_wrapper.h` and `src/window.h` (`Tests/Fixtures/window-systems/kwin/`).
package enum KWinReplies {
    /// The windows, each on the current desktop when one of its desktops is the current one or
    /// it is on all of them. Windows with no positive pid or an ID that is no UUID's text are
    /// left out: the ID goes back into the focus script.
    package static func windows(_ text: String) throws(JSONError) -> [SessionWindow] {
        guard text.utf8.count <= I3WindowSystem.replyLimit else { throw JSONError(shape: "is too long") }
        let reply = try JSONReader.parse(Array(text.utf8)[...])
        guard let current = reply["desktop"]?.stringValue, let windows = reply["windows"]?.elements else {
            throw JSONError(shape: "should be the desktop and the windows")
        }
        return windows.compactMap { window in
            guard let id = window["id"]?.stringValue, isWindowID(id) else { return nil }
            let pid = window["pid"]?.int.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
            let desktops = window["desktops"]?.elements?.compactMap(\.stringValue) ?? []
            let here = window["all"]?.boolValue == true || desktops.contains(current)
            return SessionWindow(id: id, pid: pid, onCurrentWorkspace: here)
        }
    }

    /// `{8-4-4-4-12 hex digits}`, as KWin writes a window's `internalId`.
    static func isWindowID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 38, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return false }
        for (offset, byte) in bytes.enumerated().dropFirst().dropLast() {
            if [9, 14, 19, 24].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte.hexDigitValue != nil else { return false }
            }
        }
        return true
    }
}
