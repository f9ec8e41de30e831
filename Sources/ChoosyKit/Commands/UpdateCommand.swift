/// `choosy update [TYPE…]`: downloads the catalog of these types (or of every known type) now,
/// ignoring the cache's age.
struct UpdateCommand: ChoosyCommand {
    static let grammar = CommandGrammar.Command(
        "update", "download the catalog now",
        arguments: [.any("TYPE", .appType)],
        help:
            "Downloads the catalog of the given types (default: every known type, and the link-cleaning rules) now, ignoring the cache's age. Exit 4 when a download failed."
    )

    struct Report: Sendable {
        var key: String
        var outcome: CatalogRefresher.Outcome
    }

    let types: [String]

    init(_ line: ParsedCommandLine) { types = line.arguments }

    /// Exit 4 when any failed (a type the server does not have is an answer, not a failure).
    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let reports = try Self.update(types, in: context.choosy())
        let failed = reports.contains { report in
            if case .failed = report.outcome { return true }
            return false
        }
        return CommandOutput(Self.text(reports, style: context.style), status: (failed ? ExitStatus.unavailable : .ok).rawValue)
    }

    /// Also the library's `registerAppTypes(_:)`.
    static func update(_ inputs: [String], in choosy: Choosy) throws(ChoosyError) -> [Report] {
        guard !choosy.isOffline else { throw .unavailable("cannot update while offline (--offline or CHOOSY_OFFLINE)") }
        let catalog = try choosy.catalog()
        var keys: [String] = []
        for input in inputs {
            let lowered = input.lowercased()
            if isValidTypeKey(lowered) {
                keys.append(lowered)
            } else {
                keys.append(try catalog.resolve(input))
            }
        }
        var reports = catalog.update(keys).map { Report(key: $0.key, outcome: $0.outcome) }
        if inputs.isEmpty {
            let outcome = choosy.cleaningRulesRefresher().refresh(onlyIfStale: false, diagnostics: choosy.diagnostics)
            report(outcome, in: choosy)
            reports.append(Report(key: rulesName, outcome: outcome))
        }
        return reports
    }

    /// How `update` and the background refresh name the link-cleaning rules.
    static let rulesName = "link-cleaning rules"

    /// What a download of the link-cleaning rules says besides `update`'s line: one warning
    /// when it failed (the rules already here stand), a line under -v when the server has none.
    static func report(_ outcome: CatalogRefresher.Outcome, in choosy: Choosy) {
        switch outcome {
        case .failed(let reason):
            choosy.diagnostics.warning("could not refresh the \(rulesName): \(reason); keeping the rules already here")
        case .notFound: choosy.diagnostics.explain("the server has no \(rulesName); the bundled ones stand")
        case .updated, .notModified, .alreadyFresh: break
        }
    }

    static func text(_ reports: [Report], style: TerminalStyle) -> String {
        reports.map { report in
            switch report.outcome {
            case .updated, .alreadyFresh: return "\(report.key): \(style.green("updated"))"
            case .notModified: return "\(report.key): up to date"
            case .notFound: return "\(report.key): not on the server (the other sources stand)"
            case .failed(let reason): return "\(report.key): \(style.red("failed")) (\(singleLine(reason)))"
            }
        }.joined(separator: "\n") + (reports.isEmpty ? "" : "\n")
    }
}
