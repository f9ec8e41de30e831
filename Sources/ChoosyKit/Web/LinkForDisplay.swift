/// A link as a person is shown it, in a picker or in `choosy history` (SPEC §6.1): an http(s)
/// link as a browser's address bar shows it (the URL standard's serialization, without the
/// user name and password that can dress up another host), its host in Unicode followed by its
/// ASCII form in square brackets when it has IDNA labels (`https://bücher.example
/// [xn--bcher-kva.example]/`), so that a look-alike host shows what it is; any other link as it
/// was given. Every control and format character is escaped (`singleLine`), and a link longer
/// than `longest` characters is cut in the middle, at `…`, between two characters (never inside
/// an escape), keeping its start (scheme and host) and its end.
package enum LinkForDisplay {
    package static let longest = 80

    package static func text(_ link: String) -> String {
        guard let url = try? WebURL(parsing: link) else { return cut(singleLine(link)) }
        let host = url.host.serialized
        let unicode = url.host.unicodeName
        let start = url.scheme.rawValue + "://" + singleLine(unicode ?? host) + (url.port.map { ":\($0)" } ?? "")
        let rest = singleLine(String(url.href.dropFirst(url.origin.count)))
        let note = unicode.map { _ in " [\(host)]" } ?? ""
        let whole = start + rest
        guard whole.count > longest else { return start + note + rest }
        let shown = cut(whole)
        // The ASCII form goes after the host when the cut left the host whole, else at the end.
        return shown.hasPrefix(start) ? start + note + shown.dropFirst(start.count) : shown + note
    }

    /// `text` (shown already: escaped) cut in the middle to `longest` characters, at `…`.
    static func cut(_ text: String) -> String {
        guard text.count > longest else { return text }
        let characters = Array(text)
        let kept = longest - 1
        var head = (kept + 1) / 2
        var tail = kept - head
        // An escape (`\u{1B}`) is one piece: the cut moves out of it, to before it.
        head = pieceStart(characters, at: head)
        tail = characters.count - pieceEnd(characters, at: characters.count - tail)
        return String(characters[..<head]) + "…" + String(characters[(characters.count - tail)...])
    }

    /// Where the piece holding position `index` starts: `index`, or the start of the escape
    /// `\u{…}` it falls inside.
    private static func pieceStart(_ characters: [Character], at index: Int) -> Int {
        guard let escape = escape(around: index, in: characters) else { return index }
        return escape.lowerBound
    }

    /// Where the piece holding position `index` ends.
    private static func pieceEnd(_ characters: [Character], at index: Int) -> Int {
        guard let escape = escape(around: index, in: characters) else { return index }
        return escape.upperBound
    }

    /// The escape `\u{HEX}` that position `index` falls strictly inside, if any.
    private static func escape(around index: Int, in characters: [Character]) -> Range<Int>? {
        guard index > 0, index < characters.count else { return nil }
        // An escape is at most `\u{10FFFF}`, 10 characters.
        var start = index - 1
        while start >= 0 && index - start <= 10 {
            if characters[start] == "\\", start + 2 < characters.count, characters[start + 1] == "u", characters[start + 2] == "{",
                let close = characters[(start + 3)...].prefix(7).firstIndex(of: "}"),
                characters[(start + 3)..<close].allSatisfy(\.isHexDigit), close >= index
            {
                return start..<(close + 1)
            }
            start -= 1
        }
        return nil
    }
}
