/// The bytes of the arguments choosy was given that are not valid UTF-8. Swift's strings
/// replace such bytes with U+FFFD, yet a link must reach its app byte for byte
/// (doc/security.md, "Links byte for byte"): an argument that the app would get exactly as
/// choosy read it gets the bytes it was given instead.
package struct GivenBytes: Sendable {
    /// Each repaired argument (and the value of a repaired `KEY=VALUE` parameter) with the
    /// bytes it came from; nil when two different givens repair to the same text, which then
    /// cannot tell which was meant.
    private var originals: [String: [UInt8]?] = [:]

    package static let none = GivenBytes([])

    /// `arguments`: the command line's arguments as bytes, as the kernel passed them.
    package init(_ arguments: [[UInt8]]) {
        for bytes in arguments {
            remember(bytes)
            // `open TYPE ACTION url=…` launches the parameter's value alone.
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) { remember(Array(bytes[(equals + 1)...])) }
        }
    }

    private mutating func remember(_ bytes: [UInt8]) {
        let repaired = String(decoding: bytes, as: UTF8.self)
        guard !repaired.utf8.elementsEqual(bytes) else { return }
        if let known = originals[repaired], known != bytes {
            originals[repaired] = .some(nil)
        } else {
            originals[repaired] = bytes
        }
    }

    /// The bytes given for `argument`, when it is a repaired given argument.
    package func original(of argument: String) -> [UInt8]? {
        originals[argument] ?? nil
    }

    /// The arguments of `argv` to pass as other bytes than their UTF-8, by index.
    package func originals(in argv: [String]) -> [Int: [UInt8]] {
        guard !originals.isEmpty else { return [:] }
        var found: [Int: [UInt8]] = [:]
        for (index, argument) in argv.enumerated() {
            if let bytes = original(of: argument) { found[index] = bytes }
        }
        return found
    }
}
