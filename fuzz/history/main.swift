import Foundation

@testable import ChoosyKit

// The history file (doc/configuration.md, "History") may hold anything: a line torn by a
// killed writer, another program's bytes, a newer choosy's members. For any file:
// - reading never fails: at most 100 entries, each from a whole line (one ending in a newline);
// - keeping a link always succeeds and leaves a file of whole JSON lines, at most 100, mode
//   0600, the kept link the newest entry; the lines it kept are the newest whole lines of the
//   input that were there before, in order (or the input was moved aside, kept byte for byte);
// - an entry read from a line renders to a line that reads back as the same entry.
//
// Input: the file's bytes, then (after 0xFF) a link to keep.

private let directory: String = {
    let path = NSTemporaryDirectory() + "choosy-fuzz-history-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let file = Array(input.bytes.prefix { $0 != 0xFF })
    let link = input.field(1)
    let fileSystem = LocalFileSystem()
    let environment = Environment(["HOME": directory, "XDG_STATE_HOME": directory])
    let warnings = CorruptFileWarnings(diagnostics: RecordingDiagnostics(verbose: false))
    let history = LinkHistory(environment: environment, fileSystem: fileSystem, warnings: warnings, clock: SystemClock(), userID: getuid())
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/choosy")) ?? [] {
        unlink(directory + "/choosy/" + name)
    }
    try! fileSystem.writeAtomically(file, to: history.path, permissions: 0o600)

    let read = history.entries()
    invariant(read.count <= LinkHistory.capacity, "\(read.count) entries read")
    for entry in read {
        let line = Array((entry.json.rendered() + "\n").utf8)
        let again = try? HistoryEntry(json: JSONReader.parse(line.dropLast()))
        invariant(again == entry, "\(entry) does not read back from its line")
    }

    let kept = HistoryEntry(time: 1_800_000_000, command: .handle, link: link, type: "browser", choice: "firefox", outcome: .opened)
    do {
        try history.keep(kept)
    } catch {
        // Only a link longer than any line kept is refused.
        invariant(Array((kept.json.rendered() + "\n").utf8).count > LinkHistory.longestLine, "keeping failed: \(error)")
        return 0
    }
    let after = try! fileSystem.read(history.path, limit: JSONReader.ownFileLimit)
    invariant(after.last == 0x0A, "the file does not end with a whole line")
    let lines = after.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    invariant(lines.count <= LinkHistory.capacity, "\(lines.count) lines kept")
    invariant(Array(lines.last ?? []) == Array(kept.json.rendered().utf8), "the kept link is not the last line")
    invariant(history.entries().first == kept, "the kept link is not the newest entry")
    invariant(fileSystem.info(history.path)?.permissions == 0o600, "the history is not 0600")
    // What was kept of the input: its newest whole lines, in order, or nothing when it was moved aside.
    let before = Array(lines.dropLast().map(Array.init))
    if !before.isEmpty {
        let whole = file.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
        invariant(Array(whole.suffix(before.count)) == before, "the lines kept are not the input's newest")
    }
    return 0
}
