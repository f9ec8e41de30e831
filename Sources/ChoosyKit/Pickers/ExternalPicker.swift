import Glibc

/// A picker that is another program (fzf, rofi, zenity, fuzzel, a command, …): the choice
/// lines (or the program's own rows) go to its stdin, and the line it prints on stdout is the
/// choice (see `ChoiceLines`). `Program` says how to start it and what it reads. It draws on
/// the terminal or the display itself, so it keeps choosy's process group (to stay in the
/// terminal's foreground) and gets no timeout: the user takes their time.
package struct ExternalPicker<Program: ExternalPickerProgram>: Picker {
    /// The program found on PATH; for a command picker, the shell command.
    package let executable: String
    private let environment: Environment
    private let runner: ProcessRunner
    private let extras: ExternalPickerExtras

    /// Name of the variable that carries the picker's title (documented for command pickers).
    static var titleVariable: String { "CHOOSY_PICKER_TITLE" }
    /// Name of the variable that carries the link the choice is for (SPEC §6.1).
    static var linkVariable: String { "CHOOSY_PICKER_LINK" }

    package init(executable: String, environment: Environment, runner: ProcessRunner, extras: ExternalPickerExtras = ExternalPickerExtras())
    {
        self.executable = executable
        self.environment = environment
        self.runner = runner
        self.extras = extras
    }

    package func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer {
        guard !request.candidates.isEmpty else { return .cancelled }
        // The title is shown, by the picker or by a command's script: never with a raw control
        // or format character (doc/security.md, "What choosy prints").
        let title = singleLine(request.title)
        let link = request.link.map(singleLine)
        var variables = environment
        variables[Self.titleVariable] = title
        variables[Self.linkVariable] = link
        Program.adjust(&variables.variables)
        // A graphical picker uses the activation token, when it shows itself (doc/desktop.md).
        let lent = Program.isGraphical && extras.activation?.lend(into: &variables) == true
        let process = ProcessRequest(
            argv: Program.argv(executable, title: title, link: link, size: PickerSize(request)),
            environment: variables,
            stdout: .capture,
            // A graphical picker's stderr tells a display it cannot open; it is shown under -v.
            stderr: Program.isGraphical ? .capture : Program.stderr
        )
        let result: ProcessResult
        var madeLines: ChoiceLines?
        do {
            // The picker starts first: its lines, and the site they name, are made while it
            // opens its window (bench/README.md, "The picker's first frame").
            result = try runner.run(process) {
                let lines = ChoiceLines(request)
                madeLines = lines
                return Program.input(lines, for: request, iconFile: { extras.iconFiles?.file(for: $0) })
            }
        } catch {
            throw ChoosyError.noChoice("cannot start the picker: \(error.description)")
        }
        // Every runner makes the input before it returns.
        guard let lines = madeLines else { throw ChoosyError.internal("\(Program.name) ran without its lines") }
        if Program.isGraphical {
            let messages = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
            for message in messages { extras.diagnostics?.explain("\(Program.name): \(message)") }
            if result.status != 0, let error = messages.first(where: Self.isDisplayError) {
                return .notShown("\(Program.name) could not open its display (\(singleLine(String(error.prefix(120)))))")
            }
            // A crash is no answer of the user's (wofi aborts when GTK finds no MIME database);
            // SIGINT and SIGTERM are, and stay a cancel.
            if Self.crashSignals.contains(result.status - 128) {
                return .notShown("\(Program.name) ended by signal \(result.status - 128) before a choice")
            }
            if Program.errorStatus == result.status {
                let detail = messages.last.map { ": " + singleLine(String($0.prefix(120))) } ?? ""
                return .notShown("\(Program.name) failed with status \(result.status)\(detail)")
            }
        }
        if Program.notRunStatuses.contains(result.status) {
            let why = result.status == 127 ? "not found" : "not executable"
            return .notShown("\(Program.name) '\(singleLine(executable))' could not be run (\(why): the shell's status \(result.status))")
        }
        if lent { extras.activation?.markUsed() }
        guard result.status == 0 else { return .cancelled }
        return lines.answer(line: Program.choiceLine(ChoiceLines.line(result.stdout)))
    }

    /// SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV.
    static var crashSignals: Set<Int32> { [SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV] }

    /// What GTK (zenity, wofi), rofi, fuzzel and tofi print when their display is not there;
    /// bemenu prints nothing, so only the socket check before it tells (doc/desktop.md).
    static func isDisplayError(_ message: Substring) -> Bool {
        let lowered = message.lowercased()
        return ["cannot open display", "failed to open display", "failed to connect to wayland", "couldn't connect to wayland"]
            .contains { lowered.contains($0) }
    }
}

/// What a graphical picker uses beyond its program: all optional, so that a command or fzf
/// picker needs none.
package struct ExternalPickerExtras: Sendable {
    /// Where the picker's messages go under -v.
    package var diagnostics: DiagnosticSink?
    /// The token a graphical picker takes when it can show itself.
    package var activation: ActivationToken?
    /// Icon files for a picker that takes only paths (wofi).
    package var iconFiles: IconFileFinder?

    package init(diagnostics: DiagnosticSink? = nil, activation: ActivationToken? = nil, iconFiles: IconFileFinder? = nil) {
        self.diagnostics = diagnostics
        self.activation = activation
        self.iconFiles = iconFiles
    }
}

/// How one external picker is started and what it reads; its answer is always a choice line.
package protocol ExternalPickerProgram: Sendable {
    /// The program's name, in messages.
    static var name: String { get }
    /// Its argv; `title` and `link` (the link the choice is for, SPEC §6.1) are as shown
    /// (`singleLine`), plain text that the program must not read as markup; `size` is what
    /// its list must hold.
    static func argv(_ executable: String, title: String, link: String?, size: PickerSize) -> [String]
    /// What the picker reads on stdin: by default the choice lines. `iconFile` finds an
    /// icon's file, for a picker that takes no icon names.
    static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8]
    /// Where its stderr goes when it is not graphical: by default choosy's own.
    static var stderr: ProcessRequest.Output { get }
    /// Whether it draws on a display (and can fail to open it): then its stderr is read.
    static var isGraphical: Bool { get }
    /// The choice line a line of its output stands for: by default the line itself.
    static func choiceLine(_ output: String) -> String
    /// Changes to the environment it runs in: by default none.
    static func adjust(_ variables: inout [String: String])
    /// The status it exits with when it stopped on an error, never a cancel: by default none.
    static var errorStatus: Int32? { get }
    /// The statuses that say it never ran, so it could not show itself: by default none.
    static var notRunStatuses: Set<Int32> { get }
}

extension ExternalPickerProgram {
    /// For a picker whose only place for a message is its prompt: the title, then the link.
    static func prompt(title: String, link: String?) -> String {
        link.map { "\(title) \($0)" } ?? title
    }

    package static func input(_ lines: ChoiceLines, for request: PickerRequest, iconFile: (String) -> String?) -> [UInt8] { lines.input }
    package static var stderr: ProcessRequest.Output { .inherit }
    package static var isGraphical: Bool { false }
    package static func choiceLine(_ output: String) -> String { output }
    package static func adjust(_ variables: inout [String: String]) {}
    package static var errorStatus: Int32? { nil }
    package static var notRunStatuses: Set<Int32> { [] }

    /// For a picker that decodes its title and rows in the locale's character set and stops
    /// before it shows when it cannot: under a locale that is not UTF-8 (`LANG=C`), choosy's
    /// UTF-8 text ("…", "—") is given to it as UTF-8; a UTF-8 locale is left alone.
    static func decodeAsUTF8(_ variables: inout [String: String]) {
        let characterSet = [variables["LC_ALL"], variables["LC_CTYPE"], variables["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lowered = characterSet.lowercased()
        guard !lowered.contains("utf-8") && !lowered.contains("utf8") else { return }
        variables["LC_ALL"] = nil
        variables["LC_CTYPE"] = "C.UTF-8"
    }
}
