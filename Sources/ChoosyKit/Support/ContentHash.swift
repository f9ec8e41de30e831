/// A 64-bit hash of a file's bytes, for a cache that stands for as long as the file it was
/// made from keeps its bytes (the parsed cleaning rules, the site rule index). It reads eight
/// bytes at a time: FNV-1a byte by byte cost more than a cached command's own work. Each step
/// is a bijection of its state, and the states are combined by steps that are bijections of
/// each, so two texts of one length that differ in a single word never collide; it is no
/// defence against someone choosing texts, who could write the cache anyway.
package enum ContentHash {
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        // Four words a step, each into a state of its own: the multiplies do not wait on each
        // other, and the loop runs a quarter as often (half the instructions of one state).
        var states: (UInt64, UInt64, UInt64, UInt64) = (
            0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count), 0x8422_2325_cbf2_9ce4, 0x9ce4_8422_2325_cbf2, 0x2325_cbf2_9ce4_8422
        )
        var offset = 0
        while bytes.count - offset >= 32 {
            states.0 = mix(states.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            states.1 = mix(states.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            states.2 = mix(states.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            states.3 = mix(states.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = mix(mix(mix(states.0, states.1), states.2), states.3)
        while bytes.count - offset >= 8 {
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
