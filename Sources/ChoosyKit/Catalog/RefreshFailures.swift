/// What the background refreshes could not do (SPEC §7, doc/configuration.md "The catalog"):
/// nothing started in the background writes to the terminal once the command that started
/// it has returned, so a detached `choosy __refresh` keeps its failures in
/// `$XDG_STATE_HOME/choosy/refresh-failures.json`, and they are said once, later: by the next
/// command run with `-v`, by `choosy update` (`sayOnce`), and by `choosy why` (`summary`,
/// which writes nothing). A later background refresh that succeeds forgets its type's failure.
package struct RefreshFailures: Sendable {
    /// One type (or the link-cleaning rules) that a background refresh could not refresh.
    package struct Failure: Equatable, Sendable {
        /// An app type key, or `CleaningRulesRefresher.refreshWord` for the link-cleaning rules.
        package var key: String
        package var reason: String
        /// When it failed (seconds since the epoch).
        package var time: Double
    }

    package let path: String
    private let fileSystem: FileSystem
    private let clock: Clock

    package init(environment: Environment, fileSystem: FileSystem, clock: Clock) {
        path = joinPath(environment.stateHome, "choosy/refresh-failures.json")
        self.fileSystem = fileSystem
        self.clock = clock
    }

    /// The failures kept and not yet said, oldest first. A file that cannot be read holds none:
    /// it only ever delays a message.
    package func unsaid() -> [Failure] {
        guard fileSystem.info(path)?.kind == .regular, let bytes = try? fileSystem.read(path, limit: 1 << 20),
            let failures = (try? JSONReader.parse(bytes))?["failures"]?.elements
        else { return [] }
        return failures.compactMap { failure in
            guard let key = failure["key"]?.stringValue, let reason = failure["reason"]?.stringValue,
                let time = failure["time"]?.double
            else { return nil }
            return Failure(key: key, reason: reason, time: time)
        }
    }

    /// Keeps what one background refresh found: each failure (replacing an older one of the same
    /// type), and a success forgets its type's failure.
    package func record(_ outcomes: [(key: String, outcome: CatalogRefresher.Outcome)]) {
        let failed = outcomes.contains { outcome in
            if case .failed = outcome.outcome { return true }
            return false
        }
        // Successes alone change nothing when nothing is kept: no file, no lock, no directory.
        guard failed || fileSystem.info(path) != nil else { return }
        let now = clock.now()
        update { failures in
            for (key, outcome) in outcomes {
                failures.removeAll { $0.key == key }
                if case .failed(let reason) = outcome { failures.append(Failure(key: key, reason: reason, time: now)) }
            }
        }
    }

    /// The failures in one line, or nil when there are none: the types, the last one's reason,
    /// and how long ago.
    package func summary() -> String? {
        let failures = unsaid()
        guard let first = failures.first else { return nil }
        let last = failures.reduce(first) { latest, failure in failure.time >= latest.time ? failure : latest }
        let names = failures.map { Self.name(of: $0.key) }.joined(separator: ", ")
        let ago = Self.duration(max(0, clock.now() - last.time))
        return "the background refresh of \(names) failed \(ago) ago: \(singleLine(last.reason)); the data already here was kept"
    }

    /// Says the failures in one line, if there are any, and forgets them.
    package func sayOnce(_ say: (String) -> Void) {
        guard let summary = summary() else { return }
        say(summary)
        update { $0.removeAll() }
    }

    /// How a failure's key is named: `app type 'browser'`, or the link-cleaning rules.
    static func name(of key: String) -> String {
        key == CleaningRulesRefresher.refreshWord ? "the link-cleaning rules" : "app type '\(key)'"
    }

    /// `42 s`, `7 min`, `3 h`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 90 { return "\(Int(seconds)) s" }
        if seconds < 90 * 60 { return "\(Int(seconds / 60)) min" }
        return "\(Int(seconds / 3600)) h"
    }

    /// Changes the kept failures under the file's lock; the file goes when none is left.
    private func update(_ change: (inout [Failure]) -> Void) {
        guard let lock = try? fileSystem.lock(path + ".lock", timeout: 5) else { return }
        defer { lock.unlock() }
        var failures = unsaid()
        let before = failures
        change(&failures)
        guard failures != before else { return }
        guard !failures.isEmpty else {
            fileSystem.remove(path)
            return
        }
        let json = JSONValue.object([
            (
                "failures",
                .array(
                    failures.map { failure in
                        .object([("key", .string(failure.key)), ("reason", .string(failure.reason)), ("time", .double(failure.time))])
                    })
            )
        ])
        try? fileSystem.writeAtomically(Array((json.rendered(indented: true) + "\n").utf8), to: path, permissions: 0o600)
    }
}
