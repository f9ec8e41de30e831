/// What a hook or custom action prints on stdout: its `KEY=VALUE` lines, in order, split at
/// the first `=`; every other line is ignored. Each stream is read up to `limit` bytes
/// (doc/security.md), so what is parsed here is never larger.
package enum HookOutput {
    /// Bytes kept of each of a script's streams; the rest is discarded with one warning.
    package static let limit = 1 << 20

    /// The assignments in `output`. When the output was cut at the limit (`truncated`), its
    /// last line, unless the cut fell just after a line end, is a value cut short: it is left
    /// out rather than passed on as if the script had meant it.
    package static func assignments(in output: [UInt8], truncated: Bool = false) -> [(String, String)] {
        let text = String(decoding: output, as: UTF8.self)
        // `\r\n` is one Character, so lines are split on newlines of every kind.
        var lines = text.split(whereSeparator: \.isNewline)
        if truncated, let last = text.last, !last.isNewline { lines.removeLast() }
        return lines.compactMap { line in
            guard let equals = line.firstIndex(of: "="), equals > line.startIndex else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    /// The streams named in the one warning about discarded output, or nil when none was cut.
    package static func truncatedStreams(stdout: Bool, stderr: Bool) -> String? {
        switch (stdout, stderr) {
        case (true, true): "stdout and stderr"
        case (true, false): "stdout"
        case (false, true): "stderr"
        case (false, false): nil
        }
    }
}
