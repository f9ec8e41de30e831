import ChoosyKit
import ChoosyTestSupport
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
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO",
        ] {
            #expect(headings.contains(section), "\(section)")
        }
    }

    /// The SYNOPSIS is the table's, command by command (`...` for `…`).
    @Test func theSynopsisIsTheGrammars() {
        let synopses = ManPage(source: sandbox.read(page) ?? "").section("SYNOPSIS")
            .split(whereSeparator: { $0 == ".br" })
            .map { lines in lines.map(ManPage.text).filter { !$0.isEmpty }.joined(separator: " ") }
        #expect(synopses == CommandTable.grammar.commands.map { $0.synopsis.replacingOccurrences(of: "…", with: "...") })
    }

    /// COMMANDS describes each command, in the table's order; OPTIONS each option, once.
    @Test func commandsAndOptionsAreTheGrammars() {
        let manPage = ManPage(source: sandbox.read(page) ?? "")
        let commands = manPage.tags(of: "COMMANDS").map { String($0.prefix { $0 != " " }) }
        #expect(commands == CommandTable.grammar.commands.map(\.name))
        let options = manPage.tags(of: "OPTIONS")
        let declared = Set((CommandTable.grammar.options + CommandGrammar.insteadOfCommand).map(\.label))
        #expect(options.count == declared.count && Set(options) == declared, "\(options)")
    }

    /// EXIT STATUS says what `ExitStatus` says, status by status: the one table there is.
    @Test func theExitStatusesAreTheCodes() {
        let lines = Array(ManPage(source: sandbox.read(page) ?? "").section("EXIT STATUS"))
        var described: [(String, String)] = []
        for index in lines.indices.dropLast() where lines[index] == ".TP" {
            let text = lines[(index + 2)...].prefix { $0 != ".TP" && $0 != ".PP" }.map(ManPage.text)
            described.append((ManPage.text(lines[index + 1]), text.joined(separator: " ").replacingOccurrences(of: " ,", with: ",")))
        }
        #expect(described.map(\.0) == ExitStatus.allCases.map { String($0.rawValue) })
        #expect(described.map(\.1) == ExitStatus.allCases.map(\.meaning))
    }

    /// The licence is MIT everywhere it is stated: LICENSE, the Debian copyright file (as
    /// `Expat`), the man page and the README.
    @Test func theLicenceIsMITEverywhere() {
        let root = Sandbox.packageRoot
        #expect(sandbox.read(root + "/LICENSE")?.hasPrefix("MIT License\n") == true)
        let copyright = sandbox.read(root + "/packaging/deb/copyright") ?? ""
        #expect(copyright.contains("Files: *\nCopyright: 2026 the choosy authors\nLicense: Expat\n"))
        #expect(ManPage(source: sandbox.read(page) ?? "").section("COPYRIGHT").joined(separator: " ").contains("MIT licence"))
        #expect(sandbox.read(root + "/README.md")?.contains("[MIT licence](LICENSE)") == true)
    }
}

/// Just enough of man(7) to read what a section says: font macros and escapes dropped.
private struct ManPage {
    let lines: [String]

    init(source: String) {
        lines = source.split(separator: "\n").map(String.init)
    }

    /// The source lines of section `name`.
    func section(_ name: String) -> ArraySlice<String> {
        guard let start = lines.firstIndex(of: ".SH \(name)") else { return [] }
        let rest = lines[(start + 1)...]
        return rest.prefix { !$0.hasPrefix(".SH ") }
    }

    /// The text of the line after each `.TP` of section `name`.
    func tags(of name: String) -> [String] {
        let lines = Array(section(name))
        return lines.indices.dropLast().filter { lines[$0] == ".TP" }.map { Self.text(lines[$0 + 1]) }
    }

    /// What a line shows: `.B` and `.I` join their arguments with spaces, `.BR` and the other
    /// alternating macros without; other requests (`.br`, `.nh`) show nothing.
    static func text(_ line: String) -> String {
        guard line.hasPrefix(".") else { return unescaped(line) }
        let macro = line.prefix { $0 != " " }
        let arguments = Self.arguments(line.dropFirst(macro.count))
        switch macro {
        case ".B", ".I": return unescaped(arguments.joined(separator: " "))
        case ".BR", ".RB", ".IR", ".RI", ".BI", ".IB": return unescaped(arguments.joined())
        default: return ""
        }
    }

    /// Words split at spaces, `"…"` kept whole.
    private static func arguments(_ text: Substring) -> [String] {
        var arguments: [String] = []
        var current: String?
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                current = current ?? ""
            } else if character == " " && !quoted {
                if let word = current { arguments.append(word) }
                current = nil
            } else {
                current = (current ?? "") + String(character)
            }
        }
        return arguments + (current.map { [$0] } ?? [])
    }

    private static func unescaped(_ text: String) -> String {
        var text = text
        for font in ["\\fB", "\\fI", "\\fR", "\\fP", "\\&"] {
            text = text.replacingOccurrences(of: font, with: "")
        }
        return text.replacingOccurrences(of: "\\-", with: "-")
    }
}
