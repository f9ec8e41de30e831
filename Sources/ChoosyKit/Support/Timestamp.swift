import Glibc

/// Times as the history shows them (SPEC §6.1): seconds since the Unix epoch, in words.
package enum Timestamp {
    /// `2026-12-05 14:03`, in the local time zone (`TZ`, else `/etc/localtime`), for people.
    package static func local(_ seconds: Int) -> String {
        format(seconds, "%Y-%m-%d %H:%M", local: true)
    }

    /// `2026-12-05T13:03:09Z`, RFC 3339 in UTC, for `--json`.
    package static func utc(_ seconds: Int) -> String {
        format(seconds, "%Y-%m-%dT%H:%M:%SZ", local: false)
    }

    private static func format(_ seconds: Int, _ pattern: String, local: Bool) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard (local ? localtime_r(&time, &parts) : gmtime_r(&time, &parts)) != nil else { return String(seconds) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
