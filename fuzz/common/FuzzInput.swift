/// A fuzz input as text fields separated by 0xFF, a byte that no UTF-8 text holds: seeds stay
/// readable, and a field can still hold any character (NUL, newlines). Invalid UTF-8 inside a
/// field becomes U+FFFD, as it does when text reaches choosy through argv.
struct FuzzInput {
    let bytes: [UInt8]
    let fields: [String]

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        fields = bytes.split(separator: 0xFF, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Field `index`, or "" when the input has fewer.
    func field(_ index: Int) -> String {
        index < fields.count ? fields[index] : ""
    }
}
