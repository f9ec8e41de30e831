@testable import ChoosyKit

// A hook's or custom action's output is whatever the script prints, cut at a limit
// (doc/security.md, "Hooks"). The first two bytes choose the limit and the size of the chunks
// the output arrives in, as reads from a pipe would; the rest is the output. What is kept is
// the output's first bytes up to the limit, however it arrives; every assignment read from it
// is one whole line of it with a key, in order, split at its first `=`, and a line the cut fell
// inside is left out.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHookOutput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard input.bytes.count >= 2 else { return 0 }
    let limit = Int(input.bytes[0]) * 4
    let chunkSize = Int(input.bytes[1]) + 1
    let output = Array(input.bytes.dropFirst(2))

    var capped = CappedBytes(limit: limit)
    var offset = 0
    while offset < output.count {
        capped.append(output[offset..<min(offset + chunkSize, output.count)])
        offset += chunkSize
    }
    invariant(capped.bytes == Array(output.prefix(limit)), "the bytes kept are not the first \(limit)")
    invariant(capped.truncated == (output.count > limit), "truncated says \(capped.truncated) for \(output.count) bytes over \(limit)")

    let assignments = HookOutput.assignments(in: capped.bytes, truncated: capped.truncated)
    invariant(
        HookOutput.assignments(in: capped.bytes, truncated: capped.truncated).elementsEqual(assignments) { $0 == $1 },
        "reading is deterministic")
    let text = String(decoding: capped.bytes, as: UTF8.self)
    var lines = text.split(whereSeparator: \.isNewline).map(String.init)[...]
    // The line the cut fell inside is no line the script meant.
    if capped.truncated, let last = text.last, !last.isNewline { lines = lines.dropLast() }
    let meant = lines.filter { line in line.firstIndex(of: "=").map { $0 > line.startIndex } ?? false }
    invariant(assignments.map { $0.0 + "=" + $0.1 } == meant, "the assignments are not the lines with a key, in order")
    for (key, value) in assignments {
        invariant(!key.isEmpty && !key.contains("="), "the key '\(key)' is empty or holds '='")
        invariant(!(key + value).contains(where: \.isNewline), "a line break in '\(key)=\(value)'")
    }
    return 0
}
