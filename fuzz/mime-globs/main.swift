@testable import ChoosyKit

// A `globs2` file is written by update-mime-database, but a user's or a package's database may
// hold anything. Any bytes and any file name are looked up without a crash, the same way twice;
// every glob found is a line of the file that matches the name as its kind says (a literal
// equal to it, in any case unless `cs`; a suffix it ends with; else a pattern fnmatch takes);
// the directories put together give at most ten globs, each type once, heaviest first.
//
// Input fields, split by 0xFF as bytes: two globs2 files (two directories), then the name.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMimeGlobs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = (data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        .split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
    let files = [fields.first ?? [], fields.count > 1 ? fields[1] : []].map { MimeGlobs(bytes: $0) }
    let name = fields.count > 2 ? fields[2] : []
    let lowered = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }

    let matches = files.map { $0.matches(of: name) }
    for (file, found) in zip(files, matches) {
        let again = file.matches(of: name)
        invariant(
            again.literal == found.literal && again.suffix == found.suffix && again.full == found.full
                && again.literalOfLowercased == found.literalOfLowercased && again.suffixOfLowercased == found.suffixOfLowercased
                && again.fullOfLowercased == found.fullOfLowercased, "a lookup is not deterministic")
        let lines = file.bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        func isLine(_ glob: MimeGlobs.Glob) -> Bool {
            lines.contains { $0.contains(":" + glob.type + ":" + glob.pattern) }
        }
        let all =
            [found.literal, found.literalOfLowercased].compactMap { $0 } + found.suffix + found.suffixOfLowercased + found.full
            + found.fullOfLowercased
        for glob in all {
            invariant(isLine(glob), "\(glob) is no line of the file")
            invariant(!glob.type.isEmpty && !glob.pattern.isEmpty, "an empty type or pattern")
            invariant((0...255).contains(glob.weight), "weight \(glob.weight) out of the cache's range")
        }
        invariant(found.literal.map { $0.pattern.utf8.elementsEqual(name) } ?? true, "a literal that is not the name")
        invariant(
            found.literalOfLowercased.map { $0.pattern.utf8.elementsEqual(lowered) } ?? true, "a literal that is not the lowercased name")
        for glob in found.suffix {
            invariant(
                glob.pattern.hasPrefix("*") && name.ends(with: Array(glob.pattern.utf8.dropFirst())),
                "\(glob.pattern) does not end the name")
        }
        for glob in found.suffixOfLowercased {
            invariant(
                !glob.caseSensitive && lowered.ends(with: Array(glob.pattern.utf8.dropFirst())),
                "\(glob.pattern) does not end the lowercased name")
        }
        invariant(found.fullOfLowercased.allSatisfy { !$0.caseSensitive }, "a case-sensitive pattern matched the lowercased name")
    }
    let combined = MimeDatabase.combined(matches)
    invariant(combined.count <= 10, "more than ten globs")
    invariant(Set(combined.map(\.type)).count == combined.count, "a type twice")
    invariant(zip(combined, combined.dropFirst()).allSatisfy { $0.weight >= $1.weight }, "not heaviest first")
    return 0
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        suffix.count <= count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
