/// Text from outside (a link, a file name, an app's or a catalog's name, a server's message) as
/// choosy shows it, wherever that is: a terminal line, `--json` meant to be read, a
/// notification, a picker's rows and title (doc/security.md, "What choosy prints").
///
/// Each character that could drive a terminal, reorder or hide the text around it, or start a
/// new line is written `\u{XX}`, its code in upper-case hex between braces: the control
/// characters (C0, DEL, C1), the format characters (bidi overrides and isolates such as U+202E,
/// zero-width characters, the byte order mark) and the line and paragraph separators. The
/// braces end the escape, so nothing after it reads as part of it (TAB then `b` is `\u{9}b`,
/// never `\x9b`). Every other character is shown as itself.
///
/// What that guarantees, and the fuzz target `display-text` checks: nothing escaped is left in
/// the result; the result is the same every time, and shown again it does not change (a part
/// escaped early, a name inside a message, stays as it was); and two texts that differ are
/// shown differently unless one of them already holds the text of an escape (`\u{`): no
/// invisible character can make one name or link look like another. Text is never cut or
/// trimmed here; a caller that fits it to a width cuts the result, and may cut only between the
/// pieces `escape` gives.
package enum DisplayText {
    /// Whether `scalar` is written as an escape rather than as itself.
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// How `scalar` is shown: `\u{XX}` for one that `isEscaped`, nil for one shown as itself.
    package static func escape(_ scalar: Unicode.Scalar) -> String? {
        isEscaped(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
    }

    /// Whether `text` is shown exactly as it is: it holds nothing that is escaped.
    package static func isShownAsIs(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return true }
        return !text.unicodeScalars.contains(where: isEscaped)
    }

    /// The text shown (`singleLine`), for a program that reads Pango markup (zenity's `--text`,
    /// rofi's `-mesg`, a notification's body): `&`, `<` and `>` as entities, so that nothing
    /// in it is read as a tag or an entity (quotes matter only inside a tag).
    package static func pangoMarkup(_ text: String) -> String {
        var markup = ""
        appendEscaped(singleLine(text), to: &markup) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            default: nil
            }
        }
        return markup
    }
}

/// `text` as choosy shows it (see `DisplayText`): on one line, so that a newline inside a value
/// cannot forge further lines, and with no character that could drive the terminal or hide
/// what is around it.
package func singleLine(_ text: String) -> String {
    if DisplayText.isShownAsIs(text) { return text }
    var shown = ""
    appendEscaped(text, to: &shown, by: DisplayText.escape)
    return shown
}
