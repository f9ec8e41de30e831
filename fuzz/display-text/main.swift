@testable import ChoosyKit

// Everything choosy shows from outside (a link, a name, a server's message) goes through
// `singleLine` (DisplayText): on a terminal line, in `--json` (as JSON's own escapes), in a
// notification or a picker (Pango markup where the program reads it). For any text:
// - nothing escaped is left: no control character (C0, DEL, C1, so no ESC and no raw byte
//   below 0x20), no format character (bidi overrides, zero-width), no line or paragraph
//   separator;
// - the same text is always shown the same, and shown again it does not change (idempotent);
// - text with nothing to escape is shown as it is;
// - injective where it matters, which is what was chosen: two texts are shown alike (byte for
//   byte) only when they are the same or one of them already holds the text of an escape
//   (`\u{`); checked by reading the escapes back, which gives the text whole, and on the two
//   fields directly;
// - its Pango markup holds no `<` or `>` and no `&` but of an entity, and reads back as the
//   text shown;
// - as a JSON string it holds nothing escaped raw, and reads back as the text;
// - as the link a picker shows (`LinkForDisplay`) it holds nothing escaped raw, is the same
//   every time, and is at most 80 characters but for an IDNA host's ASCII form in brackets
//   (at most 255 more); text that is no link and needs no cut is shown as `singleLine` shows it.
//
// Input fields: a text, then another text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDisplayText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = input.field(0)
    let shown = singleLine(text)
    invariant(!shown.unicodeScalars.contains(where: DisplayText.isEscaped), "\(text.debugDescription) is shown with a raw character")
    invariant(!shown.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "\(text.debugDescription) is shown with a raw control byte")
    invariant(same(singleLine(text), shown), "\(text.debugDescription) is shown two ways")
    invariant(same(singleLine(shown), shown), "\(text.debugDescription) shown again changes: \(shown.debugDescription)")
    invariant(DisplayText.isShownAsIs(text) == same(shown, text), "\(text.debugDescription): isShownAsIs is wrong")
    if !holdsEscapeText(text) {
        invariant(same(readBack(shown), text), "\(text.debugDescription) does not read back from \(shown.debugDescription)")
        let other = input.field(1)
        if !same(other, text) && !holdsEscapeText(other) {
            invariant(!same(singleLine(other), shown), "\(text.debugDescription) and \(other.debugDescription) are shown alike")
        }
    }

    let markup = DisplayText.pangoMarkup(text)
    invariant(!markup.contains("<") && !markup.contains(">"), "markup of \(text.debugDescription) holds a tag: \(markup.debugDescription)")
    invariant(same(unmarked(markup), shown), "markup of \(text.debugDescription) does not read back: \(markup.debugDescription)")

    let link = LinkForDisplay.text(text)
    invariant(
        !link.unicodeScalars.contains(where: DisplayText.isEscaped), "\(text.debugDescription) is shown as a link with a raw character")
    invariant(same(LinkForDisplay.text(text), link), "\(text.debugDescription) is shown as a link two ways")
    invariant(link.count <= LinkForDisplay.longest + 255, "\(text.debugDescription) is shown as a link of \(link.count) characters")
    if (try? WebURL(parsing: text)) == nil && shown.count <= LinkForDisplay.longest {
        invariant(same(link, shown), "\(text.debugDescription), no link, is shown as a link otherwise: \(link.debugDescription)")
    }

    let json = JSONValue.string(text).rendered()
    invariant(!json.unicodeScalars.contains(where: DisplayText.isEscaped), "JSON of \(text.debugDescription) holds a raw character")
    invariant((try? JSONReader.parse(Array(json.utf8))) == .string(text), "JSON of \(text.debugDescription) does not read back")
    return 0
}

private func holdsEscapeText(_ text: String) -> Bool {
    holds(text, "\\u{")
}

/// The text an escape-free text was shown as, by reading each `\u{HEX}` back as its character.
private func readBack(_ shown: String) -> String? {
    var scalars = String.UnicodeScalarView()
    var rest = Substring(shown).unicodeScalars[...]
    while let scalar = rest.first {
        rest = rest.dropFirst()
        guard scalar == "\\", rest.starts(with: "u{".unicodeScalars) else {
            scalars.append(scalar)
            continue
        }
        rest = rest.dropFirst(2)
        guard let close = rest.firstIndex(of: "}"), let value = UInt32(String(rest[..<close]), radix: 16),
            let escaped = Unicode.Scalar(value), DisplayText.isEscaped(escaped)
        else { return nil }
        scalars.append(escaped)
        rest = rest[rest.index(after: close)...]
    }
    return String(scalars)
}

/// Markup with its three entities read back; nil when an `&` starts anything else. By byte:
/// a combining mark after `;` makes one Character of them, which `hasPrefix` would not see.
private func unmarked(_ markup: String) -> String? {
    var bytes: [UInt8] = []
    var rest = Array(markup.utf8)[...]
    let entities: [([UInt8], UInt8)] = [(Array("&amp;".utf8), 0x26), (Array("&lt;".utf8), 0x3C), (Array("&gt;".utf8), 0x3E)]
    while let byte = rest.first {
        guard byte == 0x26 else {
            bytes.append(byte)
            rest = rest.dropFirst()
            continue
        }
        guard let (entity, character) = entities.first(where: { rest.starts(with: $0.0) }) else { return nil }
        bytes.append(character)
        rest = rest.dropFirst(entity.count)
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Equal byte for byte: `==` on strings holds canonically equivalent ones equal.
private func same(_ a: String?, _ b: String) -> Bool {
    a.map { Array($0.utf8) == Array(b.utf8) } ?? false
}
