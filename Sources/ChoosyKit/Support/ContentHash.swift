/// A 64-bit hash of a file's bytes, for a cache that stands for as long as the file it was
/// made from keeps its bytes (the parsed cleaning rules, the site rule index). It reads eight
/// bytes at a time: FNV-1a byte by byte cost more than a cached command's own work. Each step
/// is a bijection of the state, so two texts of one length that differ in a single word never
/// collide; it is no defence against someone choosing texts, who could write the cache anyway.
package enum ContentHash {
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
            hash = mix(hash, last)
        }
        return mix(hash, 0)
    }

    package static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let multiplied = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return multiplied ^ (multiplied >> 29)
    }
}
