/// A local file that `choosy handle` (or `why`) is given: a path, absolute or relative to the
/// working directory, or a `file:` URL of no host or `localhost` (RFC 8089). An argument that
/// starts like a URL of another scheme (`mailto:`) is a link, not a file; anything else is a
/// path, whatever its first character (a path starting with `-` comes after `--`).
package struct LocalFile: Equatable, Sendable {
    /// The absolute path, as bytes (a file's name need not be UTF-8), with `.`, `..` and
    /// repeated `/` resolved by name, as GIO makes a path given on a command line absolute.
    package let path: [UInt8]

    /// The path as text, for messages (bytes that are not UTF-8 shown as U+FFFD; `path` is what
    /// reaches an app).
    package var text: String { String(decoding: path, as: UTF8.self) }

    /// The `file://` URL of the path, as GLib writes it: every byte but the unreserved ones,
    /// the sub-delimiters, `:`, `@` and `/` percent-encoded (a space as `%20`, `#` as `%23`).
    package var url: String { "file://" + PercentEncoding.encode(bytes: path, keeping: LocalFile.keptInPath) }

    private static let keptInPath = Set("!$&'()*+,;=:@/".utf8)

    /// The file `argument` names, or nil when it is a link of another scheme. A `file:` URL
    /// that names no local file (another host, a query or fragment, a bad `%` escape, a NUL)
    /// and an empty argument are refused (status 2), and so is a relative path without a
    /// working directory (one that was removed).
    package init?(argument: [UInt8], workingDirectory: [UInt8]?) throws(ChoosyError) {
        let shown = String(decoding: argument.prefix(80), as: UTF8.self)
        guard !argument.isEmpty, !argument.contains(0) else { throw .usage("'\(shown)' names no file") }
        var path = argument
        if let scheme = LocalFile.scheme(of: argument) {
            guard scheme == "file" else { return nil }
            path = try LocalFile.path(ofFileURL: argument, shown: shown)
        }
        if path.first != UInt8(ascii: "/") && workingDirectory == nil {
            throw .usage("'\(shown)' is relative to a working directory that is gone")
        }
        self.path = LocalFile.absolute(path, in: workingDirectory ?? [])
    }

    /// The scheme an argument starts with, lowercased (`ALPHA *( ALPHA / DIGIT / "+" / "-" /
    /// "." ) ":"`, RFC 3986), or nil.
    private static func scheme(of argument: [UInt8]) -> String? {
        guard let colon = argument.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(argument[0]),
            argument[..<colon].allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        return String(decoding: argument[..<colon], as: UTF8.self).lowercased()
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// The path of `file:/p`, `file:///p` or `file://localhost/p`, percent-decoded.
    private static func path(ofFileURL url: [UInt8], shown: String) throws(ChoosyError) -> [UInt8] {
        var rest = url.dropFirst("file:".count)
        guard !rest.contains(UInt8(ascii: "?")), !rest.contains(UInt8(ascii: "#")) else {
            throw .usage("'\(shown)': a file: URL with a query or a fragment names no file (write '#' in a name as %23)")
        }
        if rest.starts(with: "//".utf8) {
            let authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") }
            guard authority.isEmpty || String(decoding: authority, as: UTF8.self).lowercased() == "localhost" else {
                throw .usage("'\(shown)' is a file on another host: choosy opens local files")
            }
            rest = rest.dropFirst(2 + authority.count)
        }
        guard rest.first == UInt8(ascii: "/"), let path = PercentEncoding.decodeBytes(String(decoding: rest, as: UTF8.self)),
            !path.contains(0)
        else { throw .usage("'\(shown)' is no valid file: URL") }
        return path
    }

    /// `path` made absolute against `directory`, `.` and empty components dropped and `..`
    /// taking the one before it away (never above `/`).
    private static func absolute(_ path: [UInt8], in directory: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let whole = path.first == slash ? path : directory + [slash] + path
        var components: [ArraySlice<UInt8>] = []
        for component in whole.split(separator: slash) {
            if component.elementsEqual(".".utf8) { continue }
            if component.elementsEqual("..".utf8) {
                _ = components.popLast()
                continue
            }
            components.append(component)
        }
        return components.isEmpty ? [slash] : Array(components.map { [slash] + $0 }.joined())
    }
}
