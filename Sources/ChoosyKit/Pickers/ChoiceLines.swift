/// The line protocol every external picker speaks (doc/desktop.md, "Pickers"): for each candidate its
/// label (*just once*) and, when remembering is allowed, its label followed by ` (always)`
/// and, for a web link, by ` (always for SITE)`. The picker prints back the line it chose.
package struct ChoiceLines: Sendable {
    /// One per candidate: the display name as shown (`singleLine`), with ` [<app key>]`
    /// added when another candidate has the same name.
    package let labels: [String]
    /// The lines in the order they are offered, with the answer each one stands for.
    package let choices: [Choice]

    package struct Choice: Equatable, Sendable {
        package var line: String
        package var answer: PickerAnswer
    }

    package static let alwaysSuffix = " (always)"

    package static func alwaysForSiteSuffix(_ site: String) -> String { " (always for \(site))" }

    package init(_ request: PickerRequest) {
        labels = Self.labels(of: request.candidates)
        var choices: [Choice] = []
        for (index, label) in labels.enumerated() {
            choices.append(Choice(line: label, answer: .justOnce(index)))
            if request.allowAlways {
                choices.append(Choice(line: label + ChoiceLines.alwaysSuffix, answer: .always(index)))
            }
            if let site = request.site {
                choices.append(
                    Choice(line: label + ChoiceLines.alwaysForSiteSuffix(singleLine(site)), answer: .alwaysForSite(index)))
            }
        }
        self.choices = choices
    }

    package var lines: [String] { choices.map(\.line) }

    /// The label of each candidate: its name as shown, with ` [<app key>]` when another has the same name.
    static func labels(of candidates: [PickerCandidate]) -> [String] {
        let names = candidates.map { ChoiceLines.shownName($0) }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return zip(names, candidates).map { name, candidate in
            counts[name, default: 0] > 1 ? "\(name) [\(singleLine(candidate.appKey))]" : name
        }
    }

    /// The lines as a picker reads them on stdin: each one newline-terminated.
    package var input: [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    /// The answer a picker gave: its output when it exited with 0, else a cancel. One
    /// trailing newline (and CR) is ignored; empty or unknown output is a cancel.
    package func answer(output: [UInt8], status: Int32) -> PickerAnswer {
        guard status == 0 else { return .cancelled }
        return answer(line: ChoiceLines.line(output))
    }

    /// A picker's output without its one trailing newline (and CR).
    static func line(_ output: [UInt8]) -> String {
        // Bytes, not Characters: "\r\n" is a single Character.
        var bytes = output[...]
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines in rofi's dmenu protocol, which fuzzel speaks too: each row's options after
    /// a NUL, here `\0icon\x1f<name or path>` for the candidate's icon.
    package func inputWithIcons(for request: PickerRequest) -> [UInt8] {
        var input = ""
        for choice in choices {
            input += choice.line
            if let icon = request.icon(for: choice.answer) { input += "\0icon\u{1F}\(icon)" }
            input += "\n"
        }
        return Array(input.utf8)
    }

    package func answer(line: String) -> PickerAnswer {
        guard !line.isEmpty else { return .cancelled }
        return choices.first { $0.line == line }?.answer ?? .cancelled
    }

    /// The name without the blanks around it, as shown (`singleLine`: a name from a desktop
    /// entry or a catalog may hold newlines or escape sequences, which would break the line
    /// protocol or drive the terminal); a blank name falls back to the app key.
    private static func shownName(_ candidate: PickerCandidate) -> String {
        let name = trimmed(candidate.displayName)
        return singleLine(name.isEmpty ? candidate.appKey : name)
    }
}
