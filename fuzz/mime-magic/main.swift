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
    for (index, rule) in magic.rules.enumerated() {
        invariant(rule.offset + rule.rangeLength + rule.valueCount <= magic.extent, "a rule beyond the extent")
        invariant(magic.mask(of: rule).map { $0.count == rule.valueCount } ?? true, "a mask of another length than its value")
        invariant(rule.end > index && rule.end <= magic.rules.count, "a rule's nested rules end before it or past the last")
        invariant(magic.rules[(index + 1)..<rule.end].allSatisfy { $0.indent > rule.indent }, "a nested rule not indented deeper")
    }
    let again = MimeMagic(parsing: written(magic))
    func shape(_ magic: MimeMagic) -> [[String]] {
        [
            magic.sections.map { "\($0.priority) \($0.type) \($0.rules)" },
            magic.rules.map { "\($0.indent) \($0.offset) \($0.rangeLength) \($0.end)" },
            magic.rules.map { "\(Array(magic.value(of: $0))) \(magic.mask(of: $0).map(Array.init) ?? [])" },
        ]
    }
    invariant(shape(again) == shape(magic), "the sections do not read back as written")

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
    for section in magic.sections {
        bytes += Array("[\(section.priority):\(section.type)]\n".utf8)
        for rule in magic.rules[section.rules] {
            if rule.indent > 0 { bytes += Array(String(rule.indent).utf8) }
            bytes += Array(">\(rule.offset)=".utf8) + [UInt8(rule.valueCount >> 8), UInt8(rule.valueCount & 0xFF)] + magic.value(of: rule)
            if let mask = magic.mask(of: rule) { bytes += [UInt8(ascii: "&")] + mask }
            if rule.rangeLength != 1 { bytes += Array("+\(rule.rangeLength)".utf8) }
            bytes.append(0x0A)
        }
    }
    return bytes
}
