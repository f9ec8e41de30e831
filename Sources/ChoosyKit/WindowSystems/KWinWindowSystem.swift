/// KDE Plasma's KWin, over the session bus (doc/running.md, "KDE Plasma"). KWin answers no
/// D-Bus request for its windows; its scripts see them. So choosy writes a small KWin script to
/// a file of the runtime directory, loads it (`org.kde.kwin.Scripting.loadScript`), runs it,
/// and waits for the script's `callDBus` to call choosy's own connection back with what it
/// found, as JSON; then it unloads the script and removes the file. Focusing is a second
/// script, which sets the active window. Plasma 6 names a loaded script's object
/// `/Scripting/Script<id>`, Plasma 5 `/<id>`; the scripts read either's API (`windowList` and
/// `activeWindow`, or `clientList` and `activeClient`).
package struct KWinWindowSystem: WindowSystem {
    package let name = "KWin"
    let bus: MessageBus
    let fileSystem: FileSystem
    /// `$XDG_RUNTIME_DIR`: the user's own directory, where the script's file is written.
    let runtimeDirectory: String
    /// choosy's process ID, which makes the script's file and plugin name its own.
    let processID: Int32

    static let service = "org.kde.KWin"
    /// Where the scripts call choosy back.
    static let callbackPath = "/org/choosy/KWin"
    static let callbackInterface = "org.choosy.KWin"

    package func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow] {
        let answer = try run(Self.windowsScript, member: "Windows", before: deadline)
        return try WindowSystemError.asking { try KWinReplies.windows(answer) }
    }

    package func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError) {
        let script = replacingEvery("WINDOW", in: Self.focusScript, with: Self.literal(window.id))
        guard try run(script, member: "Focused", before: deadline) == "1" else {
            throw WindowSystemError("has no window \(singleLine(window.id)) to focus")
        }
    }

    /// Loads, runs and unloads `script` (with `CALLBACK` made choosy's unique name), and
    /// returns the one string it called `member` back with.
    private func run(_ script: String, member: String, before deadline: Deadline) throws(WindowSystemError) -> String {
        let unique: String
        do {
            unique = try bus.uniqueName()
        } catch {
            throw WindowSystemError("could not be asked (\(error))")
        }
        let text = replacingEvery(
            "CALLBACK", in: replacingEvery("MEMBER", in: script, with: Self.literal(member)), with: Self.literal(unique))
        let path = joinPath(runtimeDirectory, "choosy-kwin-\(processID).js")
        let plugin = "choosy-\(processID)-\(member)"
        do {
            try fileSystem.writeAtomically(Array(text.utf8), to: path, permissions: 0o600)
        } catch {
            throw WindowSystemError("could not be asked (its script could not be written: \(error))")
        }
        defer { fileSystem.remove(path) }
        func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [], timeout: Double? = nil)
            throws(DBusError) -> [DBusValue]
        {
            try bus.call(
                DBusMethodCall(destination: Self.service, path: path, interface: interface, member: member, arguments: arguments),
                timeout: timeout ?? max(Double(deadline.remainingMilliseconds) / 1000, 0.001))
        }
        do {
            guard
                case .int32(let id)? = try call("/Scripting", "org.kde.kwin.Scripting", "loadScript", [.string(path), .string(plugin)])
                    .first,
                id >= 0
            else { throw DBusError(message: "KWin would not load the script") }
            // A script left loaded would run again with the next script KWin starts.
            defer { _ = try? call("/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(plugin)], timeout: 0.05) }
            do {
                _ = try call("/Scripting/Script\(id)", "org.kde.kwin.Script", "run")
            } catch {
                guard [DBusError.unknownObject, DBusError.unknownMethod].contains(error.name) else { throw error }
                _ = try call("/\(id)", "org.kde.kwin.Script", "run")
            }
            guard
                let arguments = try bus.nextCall(
                    to: Self.callbackPath, interface: Self.callbackInterface, member: member, before: deadline)
            else { throw DBusError(message: "its script did not call back in time") }
            guard arguments.count == 1, case .string(let answer) = arguments[0] else {
                throw DBusError(message: "its script called back with something else than one string")
            }
            return answer
        } catch {
            throw WindowSystemError("could not be asked (\(error))")
        }
    }

    /// `text` as a JavaScript string literal (JSON's string syntax is one).
    private static func literal(_ text: String) -> String { JSONValue.string(text).rendered() }

    /// Calls back `Windows` with `{"desktop": ID, "windows": [{"pid", "id", "desktops", "all"}]}`:
    /// the current virtual desktop and each normal window's process, internal ID and desktops.
    static let windowsScript = """
        (function () {
          var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
          var current = workspace.currentDesktop;
          var desktop = current !== null && typeof current === "object" ? String(current.id) : String(current);
          var windows = [];
          for (var i = 0; i < list.length; i++) {
            var w = list[i];
            if (!w.normalWindow) continue;
            var desktops = [];
            if (w.desktops !== undefined) {
              for (var j = 0; j < w.desktops.length; j++) desktops.push(String(w.desktops[j].id));
            } else if (w.desktop !== undefined) {
              desktops.push(String(w.desktop));
            }
            windows.push({pid: w.pid, id: String(w.internalId), desktops: desktops, all: w.onAllDesktops === true || w.desktop === -1});
          }
          callDBus(CALLBACK, "/org/choosy/KWin", "org.choosy.KWin", MEMBER, JSON.stringify({desktop: desktop, windows: windows}));
        })();
        """

    /// Makes the window whose internal ID is `WINDOW` the active one, and calls back `Focused`
    /// with "1", or "0" when there is no such window.
    static let focusScript = """
        (function () {
          var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
          var found = "0";
          for (var i = 0; i < list.length; i++) {
            if (String(list[i].internalId) !== WINDOW) continue;
            if ("activeWindow" in workspace) workspace.activeWindow = list[i]; else workspace.activeClient = list[i];
            found = "1";
          }
          callDBus(CALLBACK, "/org/choosy/KWin", "org.choosy.KWin", MEMBER, found);
        })();
        """
}
