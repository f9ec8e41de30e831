import Glibc

/// One `mime/` directory's `globs2` file (shared-mime-info spec, "The glob files"): lines of
/// `weight:type:pattern[:flags[:…]]`, `cs` among the comma-separated flags for a case-sensitive
/// pattern (a case-insensitive one is written lowercased). update-mime-database writes each
/// case-sensitive glob twice, with the flag and without, for older readers: a line repeating a
/// pattern and type already read is the same glob, as GLib reads it.
///
/// A file's name is looked up in one pass over the bytes, without building a table: a command
/// looks up one name, and what a line holds is only decoded when it matches that name. What the
/// pass gives is what GLib's lookup in the `mime.cache` of the same directory finds
/// (doc/spec-choices.md, "MIME types"); `MimeDatabase` puts the directories together.
struct MimeGlobs: Sendable {
    let bytes: [UInt8]

    /// A glob that matched: its type, weight and whether it is case-sensitive.
    struct Glob: Equatable, Sendable {
        var type: String
        var weight: Int
        var caseSensitive: Bool
        var pattern: String
    }

    /// What the lines say about one name, for each step of the lookup.
    struct Matches: Sendable {
        /// The first literal pattern equal to the lowercased name, whatever its case flag.
        var literalOfLowercased: Glob?
        /// The first literal pattern equal to the name as it is.
        var literal: Glob?
        /// The globs of the longest `*SUFFIX` pattern with a case-insensitive glob that the
        /// lowercased name ends with (only those case-insensitive globs).
        var suffixOfLowercased: [Glob] = []
        /// The globs of the longest `*SUFFIX` pattern the name as it is ends with.
        var suffix: [Glob] = []
        /// The other case-insensitive patterns that the lowercased name matches by fnmatch,
        /// in byte order of their patterns.
        var fullOfLowercased: [Glob] = []
        /// The other patterns that the name as it is matches, in byte order of their patterns.
        var full: [Glob] = []
    }

    private static let colon = UInt8(ascii: ":"), newline = UInt8(ascii: "\n"), star = UInt8(ascii: "*")

    /// How a pattern is looked up, as update-mime-database sorts them into the cache: no
    /// `*?[\` at all, a literal; `*` then none of them, a suffix; anything else, by fnmatch.
    private enum Kind { case literal, suffix, full }

    private static func kind(of pattern: ArraySlice<UInt8>) -> Kind {
        var kind = Kind.literal
        for (offset, byte) in pattern.enumerated() {
            switch byte {
            case star where offset == 0: kind = .suffix
            case star, UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "\\"): return .full
            default: continue
            }
        }
        return kind
    }

    func matches(of name: [UInt8]) -> Matches {
        let lowered = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        // Both forms as C strings once, for fnmatch; a name holding NUL matches no such pattern.
        let cName = name.contains(0) ? nil : name + [0]
        let cLowered = lowered.contains(0) ? nil : lowered + [0]
        let (last, lastLowered) = (name.last, lowered.last)
        var matches = Matches()
        // The suffix patterns that either form of the name ends with, each with its globs in
        // file order, as a node of the cache's suffix tree holds them.
        var suffixes: [(pattern: ArraySlice<UInt8>, globs: [Glob])] = []
        var seen: [(pattern: ArraySlice<UInt8>, type: ArraySlice<UInt8>)] = []
        var fullOfLowercased: [(ArraySlice<UInt8>, Glob)] = []
        var full: [(ArraySlice<UInt8>, Glob)] = []
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: MimeGlobs.newline, in: start..<bytes.count) ?? bytes.count
            defer { start = end + 1 }
            guard end > start, bytes[start] != UInt8(ascii: "#"),
                let firstColon = bytes.firstIndex(of: MimeGlobs.colon, in: start..<end),
                let secondColon = bytes.firstIndex(of: MimeGlobs.colon, in: (firstColon + 1)..<end), secondColon > firstColon + 1
            else { continue }
            let patternEnd = bytes.firstIndex(of: MimeGlobs.colon, in: (secondColon + 1)..<end) ?? end
            let pattern = bytes[(secondColon + 1)..<patternEnd]
            guard !pattern.isEmpty, !pattern.elementsEqual("__NOGLOBS__".utf8) else { continue }
            let kind = MimeGlobs.kind(of: pattern)
            // Only what may match this name is decoded.
            let suffix = pattern.dropFirst()
            let mayMatch: Bool
            switch kind {
            case .literal: mayMatch = pattern.elementsEqual(lowered) || pattern.elementsEqual(name)
            case .suffix:
                // Most suffixes end in another byte than the name: that test first.
                let end = suffix.last
                mayMatch =
                    (end == last || end == lastLowered) && MimeGlobs.isASCII(suffix)
                    && (lowered.ends(with: suffix) || name.ends(with: suffix))
            case .full: mayMatch = MimeGlobs.fnmatch(pattern, cLowered) || MimeGlobs.fnmatch(pattern, cName)
            }
            guard mayMatch else { continue }
            let type = bytes[(firstColon + 1)..<secondColon]
            // A line repeating a pattern and type is the same glob (the unflagged copy of a `cs` line).
            guard !seen.contains(where: { $0.pattern.elementsEqual(pattern) && $0.type.elementsEqual(type) }) else { continue }
            seen.append((pattern, type))
            let glob = Glob(
                type: String(decoding: type, as: UTF8.self), weight: MimeGlobs.weight(bytes[start..<firstColon]),
                caseSensitive: patternEnd < end && MimeGlobs.hasCaseSensitiveFlag(bytes[(patternEnd + 1)..<end]),
                pattern: String(decoding: pattern, as: UTF8.self))
            switch kind {
            case .literal:
                if matches.literalOfLowercased == nil && pattern.elementsEqual(lowered) { matches.literalOfLowercased = glob }
                if matches.literal == nil && pattern.elementsEqual(name) { matches.literal = glob }
            case .suffix:
                if let index = suffixes.firstIndex(where: { $0.pattern.elementsEqual(suffix) }) {
                    suffixes[index].globs.append(glob)
                } else {
                    suffixes.append((suffix, [glob]))
                }
            case .full:
                if !glob.caseSensitive && MimeGlobs.fnmatch(pattern, cLowered) { fullOfLowercased.append((pattern, glob)) }
                if MimeGlobs.fnmatch(pattern, cName) { full.append((pattern, glob)) }
            }
        }
        var longestOfLowercased = -1
        var longest = -1
        for (suffix, globs) in suffixes {
            let insensitive = globs.filter { !$0.caseSensitive }
            if suffix.count > longestOfLowercased && !insensitive.isEmpty && lowered.ends(with: suffix) {
                (longestOfLowercased, matches.suffixOfLowercased) = (suffix.count, insensitive)
            }
            if suffix.count > longest && name.ends(with: suffix) { (longest, matches.suffix) = (suffix.count, globs) }
        }
        matches.fullOfLowercased = MimeGlobs.inPatternOrder(fullOfLowercased)
        matches.full = MimeGlobs.inPatternOrder(full)
        return matches
    }

    /// The globs in byte order of their patterns, file order among equal ones (a stable sort).
    private static func inPatternOrder(_ globs: [(ArraySlice<UInt8>, Glob)]) -> [Glob] {
        globs.enumerated().sorted { left, right in
            if left.element.0.elementsEqual(right.element.0) { return left.offset < right.offset }
            return left.element.0.lexicographicallyPrecedes(right.element.0)
        }.map(\.element.1)
    }

    /// The leading decimal digits (as `atoi`), kept to the cache's eight bits of weight.
    private static func weight(_ digits: ArraySlice<UInt8>) -> Int {
        var weight = 0
        for byte in digits {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            weight = (weight * 10 + Int(byte - 0x30)) & 0xFFFF
        }
        return weight & 0xFF
    }

    /// Whether `cs` is one of the comma-separated flags (the field ends at the next colon).
    private static func hasCaseSensitiveFlag(_ field: ArraySlice<UInt8>) -> Bool {
        let flags = field.prefix { $0 != colon }
        return flags.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).contains { $0.elementsEqual("cs".utf8) }
    }

    private static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool { !bytes.contains { $0 >= 0x80 } }

    /// fnmatch(3) without flags, as GLib calls it: in the C locale choosy runs in, byte by byte.
    /// `name` ends with its NUL; nil for a name holding one.
    private static func fnmatch(_ pattern: ArraySlice<UInt8>, _ name: [UInt8]?) -> Bool {
        guard let name, !pattern.contains(0) else { return false }
        return (Array(pattern) + [0]).withUnsafeBufferPointer { pattern in
            name.withUnsafeBufferPointer { name in
                pattern.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pattern.count) { pattern in
                    name.baseAddress!.withMemoryRebound(to: CChar.self, capacity: name.count) { Glibc.fnmatch(pattern, $0, 0) == 0 }
                }
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: ArraySlice<UInt8>) -> Bool {
        suffix.count <= count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
