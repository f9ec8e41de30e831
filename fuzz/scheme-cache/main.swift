@testable import ChoosyKit

// The desktop index cache and the program map (`SchemeCache`) are choosy's own files, but a
// disk, a crash or a hand can damage them. Any bytes are read or refused, never a crash. A
// well-formed file as choosy writes it reads back the same after encoding again, and looking a
// scheme up in it without checking the whole file (`init(decodingStampsOf:)`, with or without
// the stamps of another checked map) answers as the checked file does.
//
// Input fields, split by 0xFF as bytes (a cache may hold any): a cache file, another cache file
// (the map whose stamps were checked), the schemes to look up, one a line.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchemeCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = (data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        .split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
    let file = fields.first ?? []
    let other = fields.count > 1 ? fields[1] : []
    var schemes = (fields.count > 2 ? fields[2] : []).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }

    let checked = SchemeCache(decoding: other)
    let strict = SchemeCache(decoding: file)
    let lazy = SchemeCache(decodingStampsOf: file)
    let lazyWithStamps = SchemeCache(decodingStampsOf: file, sameAs: checked)
    for scheme in schemes {
        _ = lazy?.ids(forScheme: scheme)
        _ = lazyWithStamps?.ids(forScheme: scheme)
    }
    guard let strict else { return 0 }
    let encoded = strict.encoded()
    guard let again = SchemeCache(decoding: encoded) else {
        invariant(false, "an encoded cache does not read back")
        return 0
    }
    invariant(again.handlers == strict.handlers && again.roots == strict.roots, "encoding changed the map")
    // Only a file as choosy writes it has its `S` lines last, which the lookup relies on.
    guard encoded == file else { return 0 }
    schemes += strict.handlers.keys
    for reader in [lazy, lazyWithStamps] {
        guard let reader else {
            invariant(false, "a cache as choosy writes it is refused by the lookup")
            return 0
        }
        for scheme in schemes {
            invariant(reader.ids(forScheme: scheme) == strict.ids(forScheme: scheme), "the lookup of \(scheme.debugDescription) differs")
        }
    }
    return 0
}
