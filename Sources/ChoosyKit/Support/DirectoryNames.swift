import Glibc

/// The names in a directory (without `.` and `..`), as bytes in one buffer: a desktop index
/// rebuild lists thousands of names, and making and sorting a String for each cost it more
/// than the rest of listing.
package struct DirectoryNames: Sendable {
    /// Every name, one after the other.
    private var bytes: [UInt8] = []
    /// Where each name is in `bytes`, in the directory's order.
    private var ranges: [Range<Int>] = []
    /// Whether every name is ASCII: then byte order is String order.
    package private(set) var isASCII = true

    package init() {}

    package init(_ names: [String]) {
        for name in names { name.utf8.withContiguousStorageIfAvailable { append($0) } ?? append(Array(name.utf8)) }
    }

    package var count: Int { ranges.count }

    package mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
        ranges.append(bytes.count..<(bytes.count + name.count))
        bytes.append(contentsOf: name)
        if isASCII, name.contains(where: { $0 >= 0x80 }) { isASCII = false }
    }

    private mutating func append(_ name: [UInt8]) {
        name.withUnsafeBufferPointer { append($0) }
    }

    /// The names in the directory's order.
    package var strings: [String] { ranges.map(string) }

    /// Where each name that `included` keeps (given where it is) is in byte order
    /// (`string(at:)` gives it), which is String order when they are all ASCII. Sorted by their
    /// first eight bytes as one big-endian number, then by memcmp where those are equal:
    /// sorting them as Strings cost more than the rest of listing, and the names left out
    /// first are not sorted at all (most of a directory of 30,000 entries, for a rebuild).
    package func byteOrder(including included: (Int) -> Bool = { _ in true }) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                let common = min(a.count, b.count)
                let comparison = common == 0 ? 0 : memcmp(base! + a.lowerBound, base! + b.lowerBound, common)
                return comparison != 0 ? comparison < 0 : a.count < b.count
            }
            func leadingBytes(_ range: Range<Int>) -> UInt64 {
                var number: UInt64 = 0
                for index in 0..<8 { number = number << 8 | UInt64(index < range.count ? buffer[range.lowerBound + index] : 0) }
                return number
            }
            // Zeros after a short name put it before the longer names it begins.
            return ranges.indices.filter(included).map { (leadingBytes(ranges[$0]), $0) }
                .sorted { a, b in a.0 != b.0 ? a.0 < b.0 : precedes(ranges[a.1], ranges[b.1]) }
                .map(\.1)
        }
    }

    /// The name at `index` of the directory's order.
    package func string(at index: Int) -> String {
        string(ranges[index])
    }

    /// The bytes of the name at `index`, without making a String of them.
    package func withName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[ranges[index]])) }
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}
