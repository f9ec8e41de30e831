import CSystem
import Glibc

/// A numbered list on the controlling terminal. It reads and writes `/dev/tty`, so it works
/// when stdin and stdout are pipes. Keys are read one by one with echo off (typed characters
/// are drawn by the picker), so a single Esc cancels at once and Up/Down move a highlighted
/// row; the terminal's mode is put back on every way out, signals included. On a `TERM=dumb`
/// terminal it reads whole lines instead.
package struct TTYPicker: Picker {
    package static let device = "/dev/tty"

    private let environment: Environment

    package init(environment: Environment) {
        self.environment = environment
    }

    /// Whether this process has a controlling terminal to show the list on.
    package static func isAvailable() -> Bool {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    package func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        guard !request.candidates.isEmpty else { return .cancelled }
        let fd = open(TTYPicker.device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ChoosyError.noChoice(
                "the tty picker needs a terminal: cannot open \(TTYPicker.device): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let labels = ChoiceLines(request).labels
        let style = TerminalStyle.forStream(fd, environment: environment)
        if environment["TERM"] != "dumb" && choosy_terminal_enter_raw(fd) == 0 {
            defer { choosy_terminal_restore() }
            return keyByKey(fd: fd, menu: TTYMenu(request: request, labels: labels, arrowKeys: true), style: style)
        }
        return lineByLine(fd: fd, menu: TTYMenu(request: request, labels: labels, arrowKeys: false), style: style)
    }

    /// Redraws the whole list after every key, then erases it once there is an answer.
    private func keyByKey(fd: Int32, menu: TTYMenu, style: TerminalStyle) -> PickerAnswer {
        var menu = menu
        let reader = TTYKeyReader(fd: fd)
        var drawnLines = 0
        func erase() -> String {
            guard drawnLines > 0 else { return "" }
            return "\r" + (drawnLines > 1 ? "\u{1B}[\(drawnLines - 1)A" : "") + "\u{1B}[J"
        }
        while true {
            let width = terminalWidth(fd)
            let lines = menu.lines(style: style, width: width) + [String((TTYMenu.prompt + menu.typed).prefix(width - 1))]
            writeAll(fd: fd, Array((erase() + lines.joined(separator: "\n")).utf8))
            drawnLines = lines.count
            if let answer = menu.handle(reader.nextKey()) {
                writeAll(fd: fd, Array(erase().utf8))
                return answer
            }
        }
    }

    /// The terminal edits and echoes each line itself; a wrong line gets a hint and a new prompt.
    private func lineByLine(fd: Int32, menu: TTYMenu, style: TerminalStyle) -> PickerAnswer {
        var menu = menu
        let reader = TTYKeyReader(fd: fd)
        var text = menu.lines(style: style, width: terminalWidth(fd)).joined(separator: "\n") + "\n"
        while true {
            writeAll(fd: fd, Array((text + TTYMenu.prompt).utf8))
            guard let line = reader.nextLine() else {
                writeAll(fd: fd, Array("\n".utf8))
                return .cancelled
            }
            if let answer = menu.submit(line) { return answer }
            text = style.yellow(menu.hint ?? "") + "\n"
        }
    }

    private func terminalWidth(_ fd: Int32) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
