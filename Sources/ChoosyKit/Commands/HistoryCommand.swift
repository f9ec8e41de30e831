/// `choosy history [N] [--json] [--clear]`: the links given to `handle`, `route` and `again`,
/// newest first, with what became of each (SPEC §6.1); `choosy again N` opens one again.
struct HistoryCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "history", "links given to choosy, newest first",
        arguments: [.optional("N", .text)],
        options: [CommandGrammar.json, .flag("--clear", "empty the history") { $0.clear = true }],
        misuse: "history takes at most one number, e.g. 'choosy history 10'",
        help:
            "Lists the last N links (all it keeps, 100, without N) that handle, route and again were given, newest first: when, the app type, the choice that opened it or what became of it (cancelled, no picker, nothing by a site rule's --none, failed), the link and where it came from. 'choosy again N' opens the N-th again with the picker. Links opened in a private window and dry runs are not kept; \"history\": false in config.json keeps none. --clear empties it."
    )

    /// nil: every entry.
    let count: Int?
    let clear: Bool

    init(_ line: ParsedCommandLine) throws(ChoosyError) {
        count = try line.arguments.first.map { word throws(ChoosyError) in try Self.number(word, for: "history") }
        clear = line.options.clear
        if clear && (count != nil || line.options.json) { throw .usage("history --clear takes no N and no --json") }
    }

    /// N of `history N` and `again N`: a whole number from 1.
    static func number(_ word: String, for command: String) throws(ChoosyError) -> Int {
        guard let number = Int(word), number >= 1, word.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .usage("\(command) takes a number from 1 (the newest link), not '\(singleLine(word))'")
        }
        return number
    }

    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        let history = choosy.history()
        if clear {
            try history.clear()
            return CommandOutput(context.interactive ? "Cleared the history.\n" : "")
        }
        guard choosy.configuration().history else {
            try history.clear()
            let said = "the history is off (\"history\": false in \(Configuration.path(environment: choosy.environment)))"
            return CommandOutput(context.options.json ? "[]\n" : "", standardError: "choosy: \(singleLine(said))\n")
        }
        let entries = Array(history.entries().prefix(count ?? LinkHistory.capacity))
        if context.options.json {
            let listed = entries.enumerated().map { number, entry in Self.json(entry, number: number + 1) }
            return CommandOutput(JSONValue.array(listed).rendered() + "\n")
        }
        return CommandOutput(Self.text(entries, style: context.style))
    }

    // MARK: Output

    /// One line each: its number, the local time, the type, what became of it, the link and
    /// where it came from.
    static func text(_ entries: [HistoryEntry], style: TerminalStyle) -> String {
        let numberWidth = String(entries.count).count
        let typeWidth = entries.map { singleLine($0.type ?? "-").count }.max() ?? 0
        let outcomes = entries.map(outcome)
        let outcomeWidth = outcomes.map(\.count).max() ?? 0
        var lines: [String] = []
        for (index, entry) in entries.enumerated() {
            let number = String(index + 1)
            let source = entry.source.map { style.dim("  from \(singleLine($0))") } ?? ""
            lines.append(
                String(repeating: " ", count: numberWidth - number.count) + number + "  " + style.dim(Timestamp.local(entry.time)) + "  "
                    + pad(singleLine(entry.type ?? "-"), typeWidth) + "  " + pad(outcomes[index], outcomeWidth) + "  "
                    + LinkForDisplay.text(entry.link) + source)
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// What became of it, in a word or two: the choice that opened it, or why none did.
    private static func outcome(_ entry: HistoryEntry) -> String {
        switch entry.outcome {
        case .opened: singleLine(entry.choice ?? "opened")
        case .cancelled: "cancelled"
        case .noPicker: "no picker"
        case .openedNothing: "nothing (rule)"
        case .failed: "failed"
        }
    }

    static func json(_ entry: HistoryEntry, number: Int) -> JSONValue {
        .object([
            ("number", .int(number)), ("time", .string(Timestamp.utc(entry.time))), ("link", .string(entry.link)),
            ("command", .string(entry.command.rawValue)), ("type", .optional(entry.type)), ("choice", .optional(entry.choice)),
            ("outcome", .string(entry.outcome.rawValue)), ("source", .optional(entry.source)),
        ])
    }

    // MARK: Keeping

    /// Keeps a link given to `handle`, `route` or `again` and what became of it, opened or not
    /// (SPEC §6.1): not in a dry run, not when it opened in a private window, and nothing with
    /// `"history": false`, which removes the file. It is kept after the app was started, so the
    /// link never waits on it; a history that cannot be kept is one warning. `source`: the
    /// source kept before (`again`), else the one the plan looked for (a rule's `--from`, `-v`,
    /// `--json`), else `CHOOSY_SOURCE`'s: `/proc` is not read for the history alone.
    static func keep(
        _ link: String, command: HistoryEntry.Command, _ outcome: Result<OpenResult, ChoosyError>, options: OpenOptions,
        source given: String? = nil, in choosy: Choosy
    ) {
        guard !options.dryRun else { return }
        let history = choosy.history()
        guard choosy.configuration().history else {
            try? history.clear()
            return
        }
        var entry = HistoryEntry(time: Int(choosy.clock.now()), command: command, link: link, outcome: .failed)
        switch outcome {
        case .success(let result):
            if options.privateWindow || result.privateWindow { return }
            entry.outcome = result.nothingByRule != nil ? .openedNothing : .opened
            entry.type = result.via?.type ?? result.type
            entry.choice = result.nothingByRule == nil ? (result.via?.app ?? result.app) : nil
            entry.source = given ?? result.source ?? choosy.declaredSource
        case .failure(let error):
            entry.outcome = error.unpicked != nil ? .noPicker : error.status == .noChoice ? .cancelled : .failed
            entry.source = given ?? choosy.declaredSource
        }
        do throws(ChoosyError) {
            try history.keep(entry)
        } catch {
            // The link opened; a history that cannot be written is said only when asked.
            choosy.diagnostics.explain("the link was not kept in the history: \(error.message)")
        }
    }
}
