@testable import ChoosyKit

// A `magic` file is binary, written by update-mime-database, but a database may hold anything.
// Any bytes parse without a crash into sections whose rules read back as themselves when
// written again in the spec's format; matching any data is deterministic, looks at no byte past
// the file's extent, and more data never makes a later section match first.
//
// Input fields, split by 0xFF as bytes: the magic file (its header added when missing, so
// that the fuzzer reaches the sections), the data to match.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMimeMagic(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let separator = bytes.lastIndex(of: 0xFF) ?? bytes.count
    var file = Array(bytes[..<separator])
    let sample = separator < bytes.count ? Array(bytes[(separator + 1)...]) : []
    if !file.starts(with: MimeMagic.header) { file = MimeMagic.header + file }

    let magic = MimeMagic(parsing: file)
    for rule in magic.rules {
        invariant(rule.offset + rule.rangeLength + rule.value.count <= magic.extent, "a rule beyond the extent")
        invariant(rule.mask.map { $0.count == rule.value.count } ?? true, "a mask of another length than its value")
    }
    let again = MimeMagic(parsing: written(magic))
    invariant(
        again.sections.map(\.priority) == magic.sections.map(\.priority) && again.sections.map(\.type) == magic.sections.map(\.type)
            && again.sections.map(\.rules) == magic.sections.map(\.rules)
            && again.rules.map(\.value) == magic.rules.map(\.value) && again.rules.map(\.mask) == magic.rules.map(\.mask)
            && again.rules.map(\.offset) == magic.rules.map(\.offset) && again.rules.map(\.rangeLength) == magic.rules.map(\.rangeLength)
            && again.rules.map(\.children) == magic.rules.map(\.children), "the sections do not read back as written")

    let found = magic.firstMatch(sample)
    invariant(magic.firstMatch(sample) == found, "matching is not deterministic")
    invariant(magic.match(sample)?.type == found.map { magic.sections[$0].type }, "match is not the first matching section")
    invariant(magic.firstMatch(Array(sample.prefix(magic.extent))) == found, "a byte past the extent counted")
    invariant((magic.firstMatch(sample + [0, 0xFF, 0x41]) ?? Int.max) <= (found ?? Int.max), "more data made a later section match")
    return 0
}

/// The sections in the spec's format, as update-mime-database writes them.
private func written(_ magic: MimeMagic) -> [UInt8] {
    var bytes = MimeMagic.header
    func write(_ index: Int, indent: Int) {
        let rule = magic.rules[index]
        if indent > 0 { bytes += Array(String(indent).utf8) }
        bytes += Array(">\(rule.offset)=".utf8) + [UInt8(rule.value.count >> 8), UInt8(rule.value.count & 0xFF)] + rule.value
        if let mask = rule.mask { bytes += [UInt8(ascii: "&")] + mask }
        if rule.rangeLength != 1 { bytes += Array("+\(rule.rangeLength)".utf8) }
        bytes.append(0x0A)
        for child in rule.children { write(child, indent: indent + 1) }
    }
    for section in magic.sections {
        bytes += Array("[\(section.priority):\(section.type)]\n".utf8)
        for rule in section.rules { write(rule, indent: 0) }
    }
    return bytes
}
