import CSystem
import Glibc

extension Array where Element == UInt8 {
    /// The first index of `byte` in `range`, by memchr: the caches' lines are found in files
    /// of tens of KiB this way at a fraction of a byte-by-byte loop's cost.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        search(byte, in: range) { memchr($0, $1, $2) }
    }

    /// The last index of `byte` in `range`, by memrchr.
    func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        search(byte, in: range) { choosy_memrchr($0, $1, $2) }
    }

    private func search(
        _ byte: UInt8, in range: Range<Int>, by find: (UnsafeRawPointer, Int32, Int) -> UnsafeMutableRawPointer?
    ) -> Int? {
        guard !range.isEmpty else { return nil }
        return withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            guard let found = find(base + range.lowerBound, Int32(byte), range.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }
}
