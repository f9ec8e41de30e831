/// What choosy reads in the replies of i3 and sway (doc/running.md): the focused workspace of
/// GET_WORKSPACES, the windows of GET_TREE, RUN_COMMAND's success. The shapes are those of
/// i3's "IPC interface" document and sway-ipc(7); `Tests/Fixtures/window-systems/` holds
/// replies of the real i3 and sway.
package enum I3Replies {
    /// A window of the tree: its container's ID, the pid sway gives (i3 gives none), the X
    /// window i3 gives (and sway for an Xwayland one).
    package struct Window: Equatable, Sendable {
        package var container: Int
        package var pid: Int32?
        package var xWindow: UInt32?
        package var onWorkspace: String?
    }

    /// The name of the focused workspace, from GET_WORKSPACES' array.
    package static func focusedWorkspace(_ payload: ArraySlice<UInt8>) throws(JSONError) -> String? {
        guard let workspaces = try JSONReader.parse(payload).elements else { throw JSONError(shape: "should be an array of workspaces") }
        return workspaces.first { $0["focused"]?.boolValue == true }?["name"]?.stringValue
    }

    /// Every window of GET_TREE's tree, with the name of the workspace it is on.
    package static func windows(_ payload: ArraySlice<UInt8>) throws(JSONError) -> [Window] {
        let tree = try JSONReader.parse(payload)
        guard tree.members != nil else { throw JSONError(shape: "should be a tree of containers") }
        var windows: [Window] = []
        collect(tree, workspace: nil, into: &windows)
        return windows
    }

    /// A node with a process or an X window is a window; a workspace node names the ones below it.
    private static func collect(_ node: JSONValue, workspace: String?, into windows: inout [Window]) {
        var workspace = workspace
        let type = node["type"]?.stringValue
        if type == "workspace" { workspace = node["name"]?.stringValue }
        if type == "con" || type == "floating_con", let container = node["id"]?.int {
            let pid = node["pid"]?.int.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
            let xWindow = node["window"]?.int.flatMap { UInt32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
            if pid != nil || xWindow != nil {
                windows.append(Window(container: container, pid: pid, xWindow: xWindow, onWorkspace: workspace))
            }
        }
        for children in ["nodes", "floating_nodes"] {
            for child in node[children]?.elements ?? [] { collect(child, workspace: workspace, into: &windows) }
        }
    }

    /// Whether RUN_COMMAND's reply says every command succeeded.
    package static func commandSucceeded(_ payload: ArraySlice<UInt8>) -> Bool {
        guard let results = (try? JSONReader.parse(payload))?.elements, !results.isEmpty else { return false }
        return results.allSatisfy { $0["success"]?.boolValue == true }
    }
}
