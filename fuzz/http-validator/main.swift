@testable import ChoosyKit

// A server's `ETag` and `Last-Modified` are stored in the catalog cache's metadata line and
// sent back in the next request (doc/security.md). Whatever a server sent, and whatever a
// cache file (an older choosy's, a hand edit) holds, no validator with a control character or
// over `HTTPValidator.maximumLength` is kept or sent, and a metadata line that holds one
// stays one line that reads back as itself. The input is a metadata line, then after 0xFF a
// validator as a server sends it.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPValidator(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let line = Array(input.field(0).utf8)
    if let stored = try? CatalogCache.Metadata(line: line[...]) {
        // Read from a file: what would be sent back is only what `usable` keeps.
        for value in [stored.etag, stored.lastModified] { check(HTTPValidator.usable(value), from: value ?? "") }
        let written = Array(stored.line.utf8)
        invariant(!written.contains(0x0A), "a stored metadata line is not one line")
        invariant((try? CatalogCache.Metadata(line: written[...])) == stored, "a stored metadata line does not read back as itself")
    }
    let sent = input.field(1)
    guard let validator = HTTPValidator.usable(sent) else { return 0 }
    check(validator, from: sent)
    invariant(validator == sent, "usable changed \(sent.debugDescription)")
    let metadata = CatalogCache.Metadata(fetchedAt: 1, url: "https://example.org/", etag: validator, lastModified: validator)
    let written = Array(metadata.line.utf8)
    invariant(!written.contains(0x0A), "the metadata line of \(sent.debugDescription) is not one line")
    invariant(
        (try? CatalogCache.Metadata(line: written[...])) == metadata, "the validator \(sent.debugDescription) does not read back as itself")
    return 0
}

private func check(_ validator: String?, from text: String) {
    guard let validator else { return }
    invariant(validator.utf8.count <= HTTPValidator.maximumLength, "a validator of \(validator.utf8.count) bytes would be sent")
    invariant(
        !validator.utf8.contains { $0 < 0x20 || $0 == 0x7F },
        "the validator \(text.debugDescription) would be sent back with a control character")
}
