@testable import ChoosyKit

// Catalog files come from a server and from the user's own directory. Decoding must survive
// any bytes and keep only what is safe to use (keys that cannot be paths); merging with the
// bundled catalog must give one entry per key; every app URL it yields must be buildable.
// A validator (`ETag`, `Last-Modified`) the same bytes would be is kept only without control
// characters, and the cache's metadata line holding it stays one line that reads back as itself.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    checkValidatorStorage(String(decoding: input.bytes.prefix(2 * HTTPValidator.maximumLength), as: UTF8.self))
    let diagnostics = RecordingDiagnostics(verbose: false)
    guard let records = try? CatalogDecoder.decode(input.bytes, source: "fuzz", diagnostics: diagnostics) else { return 0 }
    invariant(diagnostics.warnings.count <= 1, "more than one warning for one file")

    var byKey: [String: [AppTypeRecord]] = [:]
    for record in records {
        invariant(isValidTypeKey(record.key), "invalid key '\(record.key)' got through")
        byKey[record.key, default: []].append(record)
    }
    for (key, served) in byKey {
        let bundled =
            BundledCatalog.json(for: key).flatMap {
                try? CatalogDecoder.decode(Array($0.utf8), source: "bundled", diagnostics: RecordingDiagnostics(verbose: false))
            }?.filter { $0.key == key } ?? []
        for sources in [served, bundled + served, served + bundled] {
            guard let type = CatalogMerger.merge(sources) else {
                invariant(false, "no type from \(sources.count) records of '\(key)'")
                continue
            }
            invariant(type.key == key, "merging '\(key)' gave '\(type.key)'")
            invariant(Set(type.apps.map(\.key)).count == type.apps.count, "duplicate app keys")
            invariant(Set(type.actions.map(\.key)).count == type.actions.count, "duplicate action keys")
            invariant(Set(type.parameters.map(\.key)).count == type.parameters.count, "duplicate parameter keys")
            let parameters = Dictionary(type.parameters.map { ($0.key, "a b&c=d?e#f{{g}}") }) { first, _ in first }
            for app in type.apps {
                invariant(!app.key.isEmpty, "an app without a key")
                _ = (app.scheme, app.isWebApp)
                for action in app.actions {
                    let url = app.url(for: action.key, parameters: parameters)
                    _ = LaunchableURL.problem(with: url)
                }
            }
        }
    }
    return 0
}

private func checkValidatorStorage(_ text: String) {
    guard let validator = HTTPValidator.usable(text) else { return }
    invariant(
        validator.utf8.count <= HTTPValidator.maximumLength && !validator.utf8.contains { $0 < 0x20 || $0 == 0x7F },
        "the validator \(text.debugDescription) would be sent back")
    let metadata = CatalogCache.Metadata(fetchedAt: 1, url: "https://example.org/", etag: validator, lastModified: validator)
    let line = Array(metadata.line.utf8)
    invariant(!line.contains(0x0A), "the metadata line of the validator \(text.debugDescription) is not one line")
    invariant(
        (try? CatalogCache.Metadata(line: line[...])) == metadata, "the validator \(text.debugDescription) does not read back as itself")
}
