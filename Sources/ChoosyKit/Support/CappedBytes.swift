/// Bytes kept up to a limit: what comes after is counted as discarded, not stored, so that a
/// stream of any length (a hook running `exec yes`) costs at most `limit` bytes of memory.
package struct CappedBytes: Equatable, Sendable {
    package let limit: Int
    package private(set) var bytes: [UInt8] = []
    /// Whether anything past the limit was discarded.
    package private(set) var truncated = false

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    package mutating func append(_ chunk: some Collection<UInt8>) {
        let room = limit - bytes.count
        if chunk.count > room {
            truncated = true
            bytes += chunk.prefix(room)
        } else {
            bytes += chunk
        }
    }
}
