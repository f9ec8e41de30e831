import ChoosyKit
import Foundation
import Testing

/// doc/choosy.1 renders without a single warning and has every section a man page needs.
@Suite struct ManPageTests {
    let sandbox = Sandbox()
    let page = Sandbox.packageRoot + "/doc/choosy.1"

    @Test func rendersWithoutWarnings() {
        let output = sandbox.run(["/bin/sh", "-c", "MANWIDTH=80 man -l \"$0\" 2>&1 >/dev/null", page])
        #expect(output.status == 0)
        #expect(output.stdout == "")
        // groff's own checks, all warnings on.
        let strict = sandbox.run(["/usr/bin/groff", "-man", "-ww", "-z", page])
        #expect(strict.status == 0 && strict.stderr == "", "\(strict.stderr)")
    }

    @Test func hasEverySection() {
        let rendered = sandbox.run(["/usr/bin/man", "-l", page], environment: ["MANWIDTH": "80"]).stdout
        let headings = rendered.split(separator: "\n").filter { $0.first?.isUppercase == true }.map(String.init)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(headings.contains(section), "\(section)")
        }
    }

    /// Every command and option completion offers is documented.
    @Test func documentsTheWholeCommandLine() {
        let source = sandbox.read(page) ?? ""
        for command in CommandGrammar.commands.map(\.name) {
            #expect(source.contains(".B \(command)"), "\(command)")
        }
        for option in CommandGrammar.options.map(\.name) {
            #expect(source.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option)")
        }
    }
}
