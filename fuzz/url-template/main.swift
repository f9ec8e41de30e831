@testable import ChoosyKit

// URL templates come from catalogs (a server), values from any caller. A value must never add
// structure to the URL, and every value must be recoverable from its encoding.
//
// Input fields: the template, then parameter keys and values, alternating.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let format = input.field(0)
    var values: [String: String] = [:]
    var index = 1
    while index < input.fields.count {
        values[input.field(index)] = input.field(index + 1)
        index += 2
    }

    let template = URLTemplate(format)
    let url = template.fill(values)
    invariant(template.fill(values) == url, "filling is deterministic")
    for value in values.values {
        let encoded = PercentEncoding.encode(value)
        invariant(encoded.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") }, "'\(encoded)' is not encoded")
        invariant(PercentEncoding.decode(encoded) == value, "'\(value)' does not survive encoding")
    }

    // The same values made harmless (non-empty ones become "v", so the same query items are
    // dropped) give the same structure: no value added a `?`, `&`, `=` or `#`. A placeholder
    // at the very start is verbatim by design (it supplies a whole URL), so its key keeps its
    // value in both.
    let leading =
        format.hasPrefix("{{")
        ? template.placeholders.first.flatMap { key in
            format.hasPrefix("{{\(key)}}") ? key : nil
        } : nil
    var harmless = values.mapValues { $0.isEmpty ? "" : "v" }
    if let leading { harmless[leading] = values[leading] }
    let skeleton = template.fill(harmless)
    for separator: Character in ["?", "&", "=", "#"] {
        invariant(
            url.count(of: separator) == skeleton.count(of: separator),
            "a value changed the number of '\(separator)' in \(url)")
    }

    // The whole path from a catalog app: its URL, and whether it may be launched.
    let app = App(key: "fuzz", name: "Fuzz", urlScheme: "fuzz:", actions: [AppAction(key: "act", urlFormat: format)])
    invariant(app.url(for: "act", parameters: values) == url, "App.url differs from the template")
    invariant(app.url(for: "other", parameters: values) == "fuzz:", "an unsupported action is not the bare scheme")
    _ = app.parameterKeys(for: "act")
    _ = LaunchableURL.problem(with: url)
    return 0
}

extension String {
    fileprivate func count(of character: Character) -> Int {
        reduce(0) { $0 + ($1 == character ? 1 : 0) }
    }
}
