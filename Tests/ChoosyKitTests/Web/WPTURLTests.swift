import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// The URL test data of the WHATWG URL standard (Tests/Fixtures/wpt-url/urltestdata.json), the
/// cases that apply to choosy's links: every entry whose input is an absolute http(s) URL,
/// that is, whose scheme is http or https and whose result does not depend on its base (none,
/// one of another scheme, or two slashes after the scheme). Each must give the expected host
/// and port, or fail when the data says it fails; the path, query and fragment are compared
/// too. Entries of other schemes are skipped, as choosy reads only http(s) links this way.
@Suite struct WPTURLTests {
    /// The applicable cases this parser does not pass, each with why. A refusal here is a link
    /// choosy will not route (exit 2), never one it routes by another host.
    static let knownFailures: [String: String] = [:]

    private struct Case: Decodable {
        let input: String
        let base: String?
        let failure: Bool?
        let hostname: String?
        let port: String?
        let pathname: String?
        let search: String?
        let hash: String?
    }

    /// An entry of the data: a case, or a comment (a string).
    private struct Entry: Decodable {
        let testCase: Case?

        init(from decoder: Decoder) throws {
            testCase = (try? decoder.singleValueContainer().decode(String.self)) == nil ? try Case(from: decoder) : nil
        }
    }

    private static func applicableCases() throws -> [Case] {
        let path = Sandbox.packageRoot + "/Tests/Fixtures/wpt-url/urltestdata.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(replacingLoneSurrogates(in: text).utf8))
        return entries.compactMap(\.testCase).filter { testCase in
            // The URL standard's first steps: C0 controls and spaces around, tabs and newlines within.
            let input = String(
                String.UnicodeScalarView(
                    testCase.input.unicodeScalars
                        .drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
                        .filter { !["\t", "\n", "\r"].contains($0) }))
            guard let colon = input.firstIndex(of: ":"), ["http", "https"].contains(input[..<colon].lowercased()) else { return false }
            let scheme = input[..<colon].lowercased()
            let afterScheme = input[input.index(after: colon)...].prefix(2)
            let relativeToBase = testCase.base.map { $0.lowercased().hasPrefix(scheme + ":") } ?? false
            return !relativeToBase || (afterScheme.count == 2 && afterScheme.allSatisfy { $0 == "/" || $0 == "\\" })
        }
    }

    /// The data holds inputs with lone surrogates (`\uD800`), which a browser turns into U+FFFD
    /// before parsing (a URL is a USVString) and JSONDecoder refuses: they become `\uFFFD`.
    private static func replacingLoneSurrogates(in json: String) -> String {
        var output = ""
        var rest = Substring(json)
        func escape(_ text: Substring) -> UInt32? {
            text.count >= 6 && text.hasPrefix("\\u") ? UInt32(text.dropFirst(2).prefix(4), radix: 16) : nil
        }
        while let backslash = rest.firstIndex(of: "\\") {
            output += rest[..<backslash]
            rest = rest[backslash...]
            guard let unit = escape(rest) else {
                output += rest.prefix(2)
                rest = rest.dropFirst(2)
                continue
            }
            if (0xD800...0xDBFF).contains(unit), let low = escape(rest.dropFirst(6)), (0xDC00...0xDFFF).contains(low) {
                output += rest.prefix(12)
                rest = rest.dropFirst(12)
            } else {
                output += (0xD800...0xDFFF).contains(unit) ? "\\uFFFD" : rest.prefix(6)
                rest = rest.dropFirst(6)
            }
        }
        return output + rest
    }

    /// What the parser gives for `input`, in the data's terms, or nil for a failure.
    private static func parsed(_ input: String) -> [String]? {
        guard let url = try? WebURL(parsing: input) else { return nil }
        return [
            url.host.serialized, url.port.map(String.init) ?? "", "/" + url.pathSegments.joined(separator: "/"),
            url.query.flatMap { $0.isEmpty ? nil : "?" + $0 } ?? "", url.fragment.flatMap { $0.isEmpty ? nil : "#" + $0 } ?? "",
        ]
    }

    @Test func httpCasesOfTheURLStandardsTestData() throws {
        let cases = try Self.applicableCases()
        var failed: [String] = []
        for testCase in cases {
            let expected =
                testCase.failure == true
                ? nil
                : [
                    testCase.hostname ?? "", testCase.port ?? "", testCase.pathname ?? "", testCase.search ?? "", testCase.hash ?? "",
                ]
            let actual = Self.parsed(testCase.input)
            if actual != expected {
                failed.append(testCase.input)
                if Self.knownFailures[testCase.input] == nil {
                    Issue.record("\(testCase.input.debugDescription): expected \(expected ?? ["failure"]), got \(actual ?? ["failure"])")
                }
            }
        }
        for input in Self.knownFailures.keys where !failed.contains(input) {
            Issue.record("\(input.debugDescription) passes now: take it off knownFailures")
        }
        let passed = cases.count - failed.count
        #expect(cases.count == 352, "the data changed: check which cases apply")
        #expect(passed == cases.count - Self.knownFailures.count, "\(passed) of \(cases.count) pass")
    }

    /// The cases of toascii.json that Debian's ICU decides differently from the UTS #46 the
    /// data follows, each with why (doc/spec-choices.md lists them too).
    static let toASCIIDifferences: [String: String] = [
        "1.\u{064A}":
            "UTS #46 15.1 checks the bidi rule only in a name with a right-to-left label that is not all digits and dots; ICU 72 (Debian 12) still refuses the name '1.ي' for its leading digit label, which the current UTS #46 accepts"
    ]

    /// Tests/Fixtures/wpt-url/toascii.json: `https://INPUT/x` has the host OUTPUT, or fails
    /// when OUTPUT is null, as the web-platform-tests run it.
    @Test func toASCIICasesOfTheURLStandard() throws {
        struct ToASCIICase: Decodable {
            let input: String
            let output: String?
        }
        struct ToASCIIEntry: Decodable {
            let testCase: ToASCIICase?

            init(from decoder: Decoder) throws {
                testCase = (try? decoder.singleValueContainer().decode(String.self)) == nil ? try ToASCIICase(from: decoder) : nil
            }
        }
        let path = Sandbox.packageRoot + "/Tests/Fixtures/wpt-url/toascii.json"
        let cases = try JSONDecoder().decode([ToASCIIEntry].self, from: Data(contentsOf: URL(fileURLWithPath: path))).compactMap(\.testCase)
        #expect(cases.count == 43)
        var differing: [String] = []
        for testCase in cases {
            let host = (try? WebURL(parsing: "https://\(testCase.input)/x"))?.host.serialized
            guard host != testCase.output else { continue }
            differing.append(testCase.input)
            if Self.toASCIIDifferences[testCase.input] == nil {
                Issue.record("\(testCase.input.debugDescription): expected \(testCase.output ?? "failure"), got \(host ?? "failure")")
            }
        }
        for input in Self.toASCIIDifferences.keys where !differing.contains(input) {
            Issue.record("\(input.debugDescription) comes out right now: take it off toASCIIDifferences")
        }
    }
}
