import Glibc

/// The version `--version` prints and the User-Agent carries.
package let choosyVersion = "0.1.0"

/// The text without leading and trailing spaces, tabs, CR and LF.
package func trimmed<S: StringProtocol>(_ text: S) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
    guard let first = text.firstIndex(where: { !isSpace($0) }),
        let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(text[first...last])
}

/// The parts one after the other, `separator` between them: `joined(separator:)` on an array
/// of strings is not specialized, and its first call in a process looks up the array's
/// associated types at run time, about 0.1 M instructions (doc/DEVELOPING.md, "Start-up").
package func concatenated(_ parts: [String], separator: String = "") -> String {
    var text = ""
    for (index, part) in parts.enumerated() {
        if index > 0 { text += separator }
        text += part
    }
    return text
}

/// Edit distance for "did you mean" suggestions: insertions, deletions, substitutions and
/// swaps of two neighbouring characters (`opne` → `open`) each count 1 (optimal string alignment).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased().unicodeScalars)
    let b = Array(b.lowercased().unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}

/// The closest of `candidates` to a mistyped `input`, if it is close enough to be a typo.
package func suggestion(for input: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(input, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let allowed = max(1, min(3, input.count / 3))
    return best.1 <= allowed ? best.0 : nil
}

/// ` (did you mean 'X'?)`, or nothing.
package func didYouMean(_ input: String, among candidates: [String]) -> String {
    didYouMean(suggestion(for: input, among: candidates))
}

/// ` (did you mean 'X'?)` for a suggestion, nothing for none.
package func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " (did you mean '\($0)'?)" } ?? ""
}

/// Appends `text` to `output` with each scalar that `escape` has a replacement for replaced by
/// it: the one loop behind every escaping format choosy writes (JSON strings, cache fields).
package func appendEscaped(_ text: String, to output: inout String, by escape: (Unicode.Scalar) -> String?) {
    for scalar in text.unicodeScalars {
        if let replacement = escape(scalar) {
            output += replacement
        } else {
            output.unicodeScalars.append(scalar)
        }
    }
}

/// Whether `text` holds `part`, compared byte for byte. `String.contains(_: String)` goes
/// through _StringProcessing, whose first use costs more than a whole `choosy url`.
package func holds(_ text: String, _ part: String) -> Bool {
    firstOffset(of: Array(part.utf8), in: Array(text.utf8[...]), from: 0) != nil
}

/// `text` with every `part` replaced by `replacement`, byte for byte (see `holds`).
package func replacingEvery(_ part: String, in text: String, with replacement: String) -> String {
    let bytes = Array(text.utf8)
    let needle = Array(part.utf8)
    guard !needle.isEmpty else { return text }
    var result: [UInt8] = []
    var start = 0
    while let found = firstOffset(of: needle, in: bytes, from: start) {
        result += bytes[start..<found] + replacement.utf8
        start = found + needle.count
    }
    result += bytes[start...]
    return String(decoding: result, as: UTF8.self)
}

private func firstOffset(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard needle.count <= bytes.count - start else { return nil }
    guard !needle.isEmpty else { return start }
    return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
}

/// `words` joined by spaces into lines of at most `width` columns (a longer word keeps a line
/// of its own); lines after the first start with `indent`.
package func wrapped(_ words: [String], width: Int, indent: String = "") -> String {
    var lines: [String] = []
    var line = ""
    for word in words {
        if line.isEmpty {
            line = word
        } else if line.count + 1 + word.count > width {
            lines.append(line)
            line = indent + word
        } else {
            line += " " + word
        }
    }
    return (lines + [line]).joined(separator: "\n")
}

/// `text` with spaces after it up to `width` characters, for a column.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// Whether every byte of `text` is ASCII: then a byte is a Character (but for CR LF, one
/// Character).
package func isASCII(_ text: String) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
}

/// Whether `text` holds `byte` (memchr).
package func holds(_ text: String, _ byte: UInt8) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { bytes in
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    } ?? text.utf8.contains(byte)
}

/// The strings in their order, each once. A few (an entry's schemes, the IDs of a program)
/// are compared with those before them; more, by a set: a hostile file may repeat one name
/// thousands of times, and comparing each with all before it would cost n² (doc/security.md).
package func uniqued(_ strings: [String]) -> [String] {
    guard strings.count > 1 else { return strings }
    guard strings.count > 16 else {
        // Most hold no repeat: then the same array, with nothing allocated.
        guard strings.indices.contains(where: { strings[..<$0].contains(strings[$0]) }) else { return strings }
        var kept: [String] = []
        for string in strings where !kept.contains(string) { kept.append(string) }
        return kept
    }
    var seen = Set<String>(minimumCapacity: strings.count)
    return strings.filter { seen.insert($0).inserted }
}
