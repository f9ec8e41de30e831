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

        var failed: Bool {
            if case .failed = outcome { return true }
            return false
        }
    }

    let types: [String]

    init(_ line: ParsedCommandLine) { types = line.arguments }

    /// Exit 4 when any failed (a type the server does not have is an answer, not a failure).
    func run(in context: CommandContext) throws(ChoosyError) -> CommandOutput {
        let choosy = try context.choosy()
        choosy.refreshFailures().sayOnce(choosy.diagnostics.warning)
        let reports = try Self.update(types, in: choosy)
        let failed = reports.contains(where: \.failed)
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
            switch outcome {
            // One warning a command: the catalog's, when it gave one.
            case .failed(let reason) where !reports.contains(where: \.failed):
                choosy.diagnostics.warning("could not refresh the \(rulesName): \(reason); keeping the rules already here")
            case .notFound: choosy.diagnostics.explain("the server has no \(rulesName); the bundled ones stand")
            case .failed, .updated, .notModified, .alreadyFresh: break
            }
            reports.append(Report(key: rulesName, outcome: outcome))
        }
        return reports
    }

    /// How `update` names the link-cleaning rules.
    static let rulesName = "link-cleaning rules"

    /// One line per type, but one for all those that failed for the same cause (a server that
    /// cannot be reached fails every type alike), after the others.
    static func text(_ reports: [Report], style: TerminalStyle) -> String {
        var lines: [String] = []
        var failures: [(reasons: [String], keys: [String])] = []
        for report in reports {
            switch report.outcome {
            case .updated, .alreadyFresh: lines.append("\(report.key): \(style.green("updated"))")
            case .notModified: lines.append("\(report.key): up to date")
            case .notFound: lines.append("\(report.key): not on the server (the other sources stand)")
            case .failed(let reason):
                if let index = failures.firstIndex(where: { cause(of: $0.reasons[0]) == cause(of: reason) }) {
                    failures[index].reasons.append(reason)
                    failures[index].keys.append(report.key)
                } else {
                    failures.append(([reason], [report.key]))
                }
            }
        }
        for (reasons, keys) in failures {
            let reason = reasons.count == 1 ? reasons[0] : cause(of: reasons[0])
            lines.append("\(keys.joined(separator: ", ")): \(style.red("failed")) (\(singleLine(reason)))")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A download's failure without the address it names first (`<URL>: Couldn't connect to
    /// server`), which differs for each type.
    static func cause(of reason: String) -> String {
        guard reason.hasPrefix("http://") || reason.hasPrefix("https://") else { return reason }
        let bytes = Array(reason.utf8)
        guard let colon = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: " ") })
        else { return reason }
        return String(decoding: bytes[(colon + 2)...], as: UTF8.self)
    }
}
