/// The state of the tty picker's numbered list: what is typed, which row is highlighted,
/// the last hint, and the lines that show it. Pure, so that every key can be tested.
struct TTYMenu {
    let title: String
    /// The link the choice is for, on its own line under the title (SPEC §6.1).
    let link: String?
    let labels: [String]
    let defaults: [Bool]
    let allowAlways: Bool
    /// The site of `N@` (always for this site), when it is offered.
    let site: String?
    /// Up/Down move a highlighted row and Enter on nothing picks it; without them (line by
    /// line input) only typed numbers count.
    let arrowKeys: Bool
    private(set) var highlighted = 0
    private(set) var typed = ""
    private(set) var hint: String?

    /// More than any list needs; keeps the prompt on one line.
    private static let maximumTyped = 8

    init(request: PickerRequest, labels: [String], arrowKeys: Bool) {
        title = singleLine(request.title)
        link = request.link.map(singleLine)
        self.labels = labels
        defaults = request.candidates.map(\.isDefault)
        allowAlways = request.allowAlways
        site = request.site.map(singleLine)
        self.arrowKeys = arrowKeys
    }

    /// Applies one key press; returns the answer once there is one.
    mutating func handle(_ key: TTYKey) -> PickerAnswer? {
        switch key {
        case .text(let character):
            hint = nil
            if typed.count < TTYMenu.maximumTyped { typed.append(character) }
            // Typing a number moves the highlight to it, so what Enter will pick is visible.
            if let index = index(typedNumber: typed.hasSuffix("!") || typed.hasSuffix("@") ? String(typed.dropLast()) : typed) {
                highlighted = index
            }
        case .backspace:
            hint = nil
            if !typed.isEmpty { typed.removeLast() }
        case .up, .down:
            guard arrowKeys else { return nil }
            hint = nil
            typed = ""
            let step = key == .up ? -1 : 1
            highlighted = (highlighted + step + labels.count) % labels.count
        case .enter:
            let line = typed
            typed = ""
            return submit(line)
        case .escape, .interrupt, .endOfInput:
            return .cancelled
        case .ignored:
            break
        }
        return nil
    }

    /// Evaluates a typed line: `N`, `N!`, `N@`, `q`, or (with arrow keys) nothing, `!` or `@`
    /// for the highlighted row. Anything else sets a hint and returns nil.
    mutating func submit(_ line: String) -> PickerAnswer? {
        let text = line.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
        if text == "q" || text == "Q" || text.contains("\u{1B}") { return .cancelled }
        let always = text.hasSuffix("!")
        let forSite = text.hasSuffix("@")
        let numberText = always || forSite ? String(text.dropLast()) : text
        let chosen = numberText.isEmpty && arrowKeys ? highlighted : index(typedNumber: numberText)
        guard let chosen else {
            hint =
                labels.count == 1
                ? "Not a choice: type 1, then Enter."
                : "Not a choice: type a number from 1 to \(labels.count), then Enter."
            return nil
        }
        if always && !allowAlways {
            hint = "Always is not offered here: type the number alone."
            return nil
        }
        if forSite && site == nil {
            hint =
                allowAlways
                ? "Always for a site is offered for web links only: type N or N!." : "Always is not offered here: type the number alone."
            return nil
        }
        highlighted = chosen
        hint = nil
        if forSite { return .alwaysForSite(chosen) }
        return always ? .always(chosen) : .justOnce(chosen)
    }

    static let prompt = "Choice: "

    /// What the picker shows above the prompt, one string per terminal line, each shorter
    /// than `width`.
    func lines(style: TerminalStyle, width: Int) -> [String] {
        let room = max(width - 1, 10)
        var lines = [style.bold(fitted(title, room))]
        if let link { lines.append(fitted(link, room)) }
        let numberWidth = String(labels.count).count
        for (index, label) in labels.enumerated() {
            let number = String(index + 1)
            let marker = arrowKeys && index == highlighted ? "> " : "  "
            var row = marker + String(repeating: " ", count: numberWidth - number.count) + number + "  " + label
            if defaults[index] { row += "  (default)" }
            row = fitted(row, room)
            lines.append(arrowKeys && index == highlighted ? style.reverse(row) : row)
        }
        if let hint {
            lines.append(style.yellow(fitted(hint, room)))
        } else {
            // Whole on an 80-column terminal: a part that does not fit goes to the next line.
            lines += Self.wrapped(help, room).map { style.dim(fitted($0, room)) }
        }
        return lines
    }

    private var help: [String] {
        var parts = [labels.count == 1 ? "1 Enter: just once" : "1-\(labels.count) Enter: just once"]
        if allowAlways { parts.append("N! Enter: always") }
        if let site { parts.append("N@ Enter: always for \(site)") }
        if arrowKeys { parts.append("Up/Down then Enter") }
        parts.append(arrowKeys ? "q or Esc: cancel" : "q Enter: cancel")
        return parts
    }

    /// `parts` joined by ", " into lines of at most `room` characters (a comma ending all but
    /// the last), a part never split.
    static func wrapped(_ parts: [String], _ room: Int) -> [String] {
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, last.count + 2 + part.count < room {
                lines[lines.count - 1] = last + ", " + part
            } else {
                if !lines.isEmpty { lines[lines.count - 1] += "," }
                lines.append(part)
            }
        }
        return lines
    }

    private func index(typedNumber text: String) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(text), (1...labels.count).contains(number)
        else { return nil }
        return number - 1
    }

    /// Cut to `room` characters so no line wraps (a wrapped line would throw off the redraw).
    private func fitted(_ text: String, _ room: Int) -> String {
        text.count <= room ? text : String(text.prefix(room - 1)) + "~"
    }
}
