import ChoosyKit
import Foundation
import Glibc

/// Installed apps and pickers for end-to-end tests of the real `choosy` binary: desktop
/// entries whose programs are recorders, and a `CMD` picker script that logs what it was shown.
extension Sandbox {
    /// Installs the app `id` (a desktop file ID) whose program is recorder `program`, run as
    /// `program %u`; returns the recorder's path (its argv[0] in recorded runs).
    @discardableResult
    package func installApp(_ id: String, name: String, program: String, mimeTypes: [String] = [], extra: String = "") -> String {
        let path = recorder(program)
        let mimeLine = mimeTypes.isEmpty ? "" : "MimeType=" + mimeTypes.map { $0 + ";" }.joined() + "\n"
        desktopEntry(id, application(name: name, exec: "\(program) %u", mimeLine + extra))
        return path
    }

    /// Removes an installed entry of `$XDG_DATA_HOME/applications`.
    package func uninstallApp(_ id: String) {
        try? FileManager.default.removeItem(atPath: dataHome + "/applications/" + id)
    }

    /// The recorded URLs (argv without argv[0]) of recorder `program`, once `count` runs finished.
    package func launched(_ program: String, count: Int = 1) -> [[String]] {
        waitForRuns(program, count: count).map { Array($0.dropFirst()) }
    }

    /// The environment of a desktop where no picker can be shown: no picker command, and a
    /// `PATH` of the sandbox's bin and the few tools its recorders use, without rofi, zenity or
    /// fzf (the tests run choosy in a new session, with no terminal).
    package func withoutPickers(_ extra: [String: String] = [:]) -> [String: String] {
        let tools = root + "/tools"
        try? FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        for tool in ["date", "mv", "cat", "sh"] {
            try? FileManager.default.createSymbolicLink(atPath: tools + "/" + tool, withDestinationPath: "/bin/" + tool)
        }
        return ["CHOOSY_PICKER": "", "PATH": bin + ":" + tools].merging(extra) { $1 }
    }

    // MARK: The CMD picker

    /// A `CMD` picker that logs each invocation (its title and the lines it read on stdin) and
    /// prints `$PICK` (nothing when unset: a cancel), then exits with `$PICK_STATUS` (default 0).
    /// Returns its path, for `--picker` or `CHOOSY_PICKER`.
    @discardableResult
    package func pickerScript() -> String {
        write(
            bin + "/picker",
            """
            #!/bin/sh
            n=$(date +%s%N)-$$
            { printf 'title=%s\\n' "$CHOOSY_PICKER_TITLE"; cat; } > "\(records)/picker.$n.tmp"
            mv "\(records)/picker.$n.tmp" "\(records)/picker.$n.log"
            if [ -n "$PICK" ]; then printf '%s\\n' "$PICK"; fi
            exit "${PICK_STATUS:-0}"

            """, mode: 0o755)
    }

    package struct PickerInvocation: Equatable {
        package var title: String
        package var lines: [String]

        package init(title: String, lines: [String]) {
            self.title = title
            self.lines = lines
        }
    }

    /// Every invocation of the picker script so far, oldest first. The picker runs while
    /// choosy waits for it, so its log is complete when choosy has returned.
    package var pickerInvocations: [PickerInvocation] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? [])
            .filter { $0.hasPrefix("picker.") && $0.hasSuffix(".log") }
            .sorted()
        return files.map { file in
            let text = String(decoding: FileManager.default.contents(atPath: records + "/" + file) ?? Data(), as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let title = lines.isEmpty ? "" : String(lines.removeFirst().dropFirst("title=".count))
            return PickerInvocation(title: title, lines: lines)
        }
    }

    /// The choice lines offered for `names`, in order (doc/desktop.md, "Pickers"); for a web link, with
    /// the *always for SITE* lines of its registrable domain `site`.
    package static func choiceLines(_ names: String..., always: Bool = true, site: String? = nil) -> [String] {
        names.flatMap { name in
            always ? [name, name + " (always)"] + (site.map { [name + " (always for \($0))"] } ?? []) : [name]
        }
    }

    // MARK: Files

    /// Every file below the sandbox's config and cache homes (relative paths), to show that a
    /// command wrote nothing.
    package var writtenFiles: [String] {
        [configHome, cacheHome].flatMap { directory in
            ((FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []).filter { relative in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
                return !isDirectory.boolValue
            }.map { directory.dropFirst(root.count + 1) + "/" + $0 }
        }.sorted()
    }

    /// Decodes one JSON object printed by `--json`.
    package static func jsonObject(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
