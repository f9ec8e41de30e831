import ChoosyKit
import Foundation
import Testing

/// `choosy why` beside the dry run it explains (SPEC §7.1): both come from one plan, so they
/// must name the same app, URL and argv.
extension Sandbox {
    /// Runs `arguments` (a `handle …` or `open …` command line) as given, then with `--dry-run
    /// --json`, and as `why … --json`; expects the same app, URL and argv from the last two, and
    /// that `why` left the home tree as it was. Returns the first run.
    @discardableResult
    package func dryRunBesideWhy(
        _ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Output {
        let given = choosy(arguments, environment: environment)
        let words = arguments.filter { $0 != "--dry-run" && $0 != "--json" }
        guard let command = words.firstIndex(where: { $0 == "handle" || $0 == "open" }) else {
            Issue.record("no handle or open in \(arguments)", sourceLocation: sourceLocation)
            return given
        }
        var asked = words
        asked[command] = "why"
        let before = TreeSnapshot(home)
        let explained = choosy(asked + ["--json"], environment: environment)
        #expect(TreeSnapshot(home).changes(since: before) == [], "why wrote", sourceLocation: sourceLocation)
        let planned = choosy(words + ["--dry-run", "--json"], environment: environment)
        #expect(explained.status == planned.status, "\(explained.stderr)", sourceLocation: sourceLocation)
        guard planned.status == 0 else { return given }
        let plan = Sandbox.jsonObject(planned.stdout)
        let why = Sandbox.jsonObject(explained.stdout)
        #expect(why?["app"] as? String == plan?["app"] as? String, "app: \(explained.stdout)", sourceLocation: sourceLocation)
        #expect(why?["url"] as? String == plan?["url"] as? String, "url: \(explained.stdout)", sourceLocation: sourceLocation)
        #expect(why?["argv"] as? [String] == plan?["argv"] as? [String], "argv: \(explained.stdout)", sourceLocation: sourceLocation)
        return given
    }
}
