import Foundation

@testable import ChoosyKit

// `mimeapps.list` is the user's, edited by every desktop tool. install and uninstall
// (doc/desktop.md) must survive any bytes in it, take choosy out of every association line
// and leave every other line as it was, byte for byte.

private let directory: String = {
    let path = NSTemporaryDirectory() + "choosy-fuzz-mimeapps-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMimeAppsList(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let fileSystem = LocalFileSystem()
    let environment = Environment(["HOME": directory, "XDG_CONFIG_HOME": directory])
    let editor = MimeAppsEditor(environment: environment, fileSystem: fileSystem)
    let original = input.bytes
    try! fileSystem.writeAtomically(original, to: editor.path, permissions: 0o644)
    let choosy = LinkHandlerInstaller.entryID

    // install, then uninstall with what install recorded.
    guard let previous = try? editor.replaceDefaults(["x-scheme-handler/https": [choosy], "x-scheme-handler/geo": [choosy]]) else {
        return 0
    }
    let restoring = ["x-scheme-handler/https", "x-scheme-handler/geo"].reduce(into: [String: (ids: [String], line: String?)]()) {
        $0[$1] = (previous.listed[$1] ?? [], previous.lines[$1])
    }
    invariant((try? editor.withdraw(choosy, restoring: restoring)) == true, "install's lines are not withdrawn")
    let after = try! fileSystem.read(editor.path, limit: KeyFile.sizeLimit)

    // Without choosy in the input: every line is an original one, in order, or a restored
    // one; and a second uninstall finds nothing of choosy's.
    guard !String(decoding: original, as: UTF8.self).contains("choosy") else { return 0 }
    let lines = { (bytes: [UInt8]) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init) }
    var remaining = lines(original)[...]
    for line in lines(after) {
        if let found = remaining.firstIndex(of: line) {
            remaining = remaining[(found + 1)...]
            continue
        }
        let text = String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
        // install may have added the group (after a blank line), and uninstall keeps it.
        invariant(
            text.isEmpty || text == "[Default Applications]" || previous.lines.values.contains(text)
                || text.hasPrefix("x-scheme-handler/https=") || text.hasPrefix("x-scheme-handler/geo="),
            "a line not from the input: \(line)")
    }
    invariant((try? editor.withdraw(choosy, restoring: [:])) == false, "choosy is still named after uninstall")
    return 0
}
