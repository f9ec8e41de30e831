import ChoosyKit
import Glibc

/// Calls the library for one invocation and prints what it returns.
struct CommandRunner {
    let invocation: Invocation
    let environment: Environment

    /// The exit status: route passes on its handler's, which may be any code.
    func run() throws(ChoosyError) -> Int32 {
        switch invocation.command {
        case .help(let topic):
            writeStandardOutput(try HelpText.text(for: topic))
            return 0
        case .version:
            writeStandardOutput("choosy \(choosyVersion)\n")
            return 0
        case .completions(let shell):
            guard let script = CompletionScript.text(for: shell) else { throw .usage("completions needs one of: bash, zsh, fish") }
            writeStandardOutput(script)
            return 0
        default:
            break
        }
        let choosy = makeChoosy()
        // Kept to the end of the process, which exits right after this returns: releasing all
        // it read, object by object, is work nobody sees (a few percent of a command).
        _ = Unmanaged.passRetained(choosy)
        defer { choosy.finish() }
        // A config file that cannot be read is reported by every command, not only those that
        // happen to need one of its settings (and stops none of them).
        _ = choosy.configuration()
        let interactive = isatty(1) == 1
        let formatter = OutputFormatter(style: TerminalStyle.forStream(1, environment: environment), json: invocation.options.json)
        let options = invocation.options.open
        switch invocation.command {
        case .open(let type, let action, let parameters):
            let result = try choosy.open(OpenRequest(type: type, action: action, parameters: parameters, options: options))
            writeStandardOutput(formatter.opened(result, dryRun: options.dryRun))
        case .url(let type, let action, let parameters):
            let result = try choosy.open(OpenRequest(type: type, action: action, parameters: parameters, options: options, purpose: .url))
            writeStandardOutput(formatter.url(result))
        case .reset(let type?):
            let forgotten = try choosy.reset(type)
            if interactive { writeStandardOutput(forgotten.map { "Forgot \($0) as the default.\n" } ?? "There was no default.\n") }
        case .reset(nil):
            try choosy.resetAll()
            if interactive { writeStandardOutput("Forgot every default.\n") }
        case .showDefault(let type):
            if let app = try choosy.defaultApp(type) { writeStandardOutput(app + "\n") }
        case .setDefault(let type, let app):
            try choosy.setDefaultApp(type, app: app)
        case .list(let type):
            writeStandardOutput(formatter.list(try choosy.list(type), single: type != nil))
        case .describe(let type):
            let (described, links) = try choosy.describe(type)
            writeStandardOutput(formatter.describe(described, links: links, entries: choosy.installedEntries(of: described)))
        case .update(let types):
            let reports = try choosy.update(types)
            writeStandardOutput(formatter.update(reports))
            let failed = reports.contains { report in
                if case .failed = report.outcome { return true }
                return false
            }
            return (failed ? ExitStatus.unavailable : .ok).rawValue
        case .refresh(let types):
            try choosy.refreshInBackground(types)
        case .handle(let url):
            switch try choosy.handle(url, options: options) {
            case .opened(let result): writeStandardOutput(formatter.opened(result, dryRun: options.dryRun))
            case .routed(let report): return finish(report)
            }
        case .route(let url):
            return finish(try choosy.route(url, options: options))
        case .install(let defaultHandler):
            let installer = choosy.linkHandlerInstaller()
            let mimeTypes = try installer.install(defaultHandler: defaultHandler)
            writeStandardOutput("Wrote \(installer.entryPath)\nchoosy now handles: \(mimeTypes.map { $0.replacingPrefix("x-scheme-handler/", with: "") + ":" }.joined(separator: " "))\n")
        case .uninstall:
            let installer = choosy.linkHandlerInstaller()
            writeStandardOutput(try installer.uninstall() ? "Removed \(installer.entryPath) and restored the previous link handlers.\n" : "choosy was not installed.\n")
        case .addRule(let site, let target):
            let (rule, replaced) = try choosy.addRule(site, target: target)
            if interactive { writeStandardOutput((replaced ? "Replaced the rule of " : "Added a rule: links of ") + "\(rule.site.text) open with \(rule.targetDescription).\n") }
        case .listRules:
            writeStandardOutput(formatter.rules(try choosy.listRules()))
        case .removeRule(let site):
            let rule = try choosy.removeRule(site)
            if interactive { writeStandardOutput("Removed the rule of \(rule.site.text) (\(rule.targetDescription)).\n") }
        case .testRule(let url):
            writeStandardOutput(formatter.ruleTest(try choosy.testRule(url)))
        case .complete(let words):
            writeStandardOutput(choosy.complete(words).map { $0.line + "\n" }.joined())
        case .completions, .help, .version:
            break // answered above, without a Choosy
        }
        return 0
    }

    /// Prints what `route` needs said and turns its status into the exit status.
    private func finish(_ report: RouteReport) -> Int32 {
        let result = report.result
        if invocation.options.open.dryRun, let callback = result.callbackURL { writeStandardOutput(callback + "\n") }
        if let message = result.message { writeStandardError("choosy: \(singleLine(message))\n") }
        return result.status
    }

    private func makeChoosy() -> Choosy {
        var settings = Choosy.Settings(executable: currentExecutable())
        settings.verbose = invocation.options.verbose
        settings.offline = invocation.options.offline
        settings.dryRun = invocation.options.open.dryRun
        let diagnostics = StandardErrorDiagnostics(
            verbose: invocation.options.verbose, style: TerminalStyle.forStream(2, environment: environment)
        )
        return Choosy(environment: environment, settings: settings, diagnostics: diagnostics)
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
