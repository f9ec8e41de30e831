import ChoosyKit
import Foundation
import Testing

/// Every URL template of the bundled catalog and of the upstream choosy-data fixtures, filled
/// with values that hold URL structure, percent signs, placeholders and non-ASCII text, and
/// compared with doc/spec-choices.md as written independently below; then the bundled ones again through
/// the real binary (`choosy url … --app`).
@Suite struct CatalogTemplateTests {
    /// One value per troublesome character, then all of them at once.
    static let values = [
        "a&b", "k=v", "#top", "why?", "a/b", "two words", "100%", "%41", "{{x}}", "{{text}}",
        "Grüße, 日本 👍", "+1", "a;b,c:d@e", "",
        "a&b=c#d?e/f g%h{{url}}é 👍",
    ]

    static let bundled: [AppType] = BundledCatalog.allJSON.compactMap { json in
        CatalogMerger.merge((try? CatalogDecoder.decode(Array(json.utf8), source: "bundled", diagnostics: RecordingDiagnostics())) ?? [])
    }

    /// (where, template) for every action of every app.
    static var templates: [(String, String)] {
        let sources: [(String, [AppType])] = [("bundled", bundled), ("upstream", upstreamTypes())]
        return sources.flatMap { source, types in
            types.flatMap { type in
                type.apps.flatMap { app in app.actions.map { ("\(source) \(type.key)/\(app.key)/\($0.key)", $0.urlFormat) } }
            }
        }
    }

    @Test func theCatalogsHaveTemplatesToCheck() {
        #expect(CatalogTemplateTests.bundled.count >= 10)
        #expect(CatalogTemplateTests.templates.filter { $0.0.hasPrefix("bundled") }.count >= 60)
        #expect(CatalogTemplateTests.templates.filter { $0.0.hasPrefix("upstream") }.count >= 50)
    }

    @Test func everyTemplateFilledWithEveryValueIsTheSpecsURL() {
        var checked = 0
        for (name, format) in CatalogTemplateTests.templates {
            let template = URLTemplate(format)
            let keys = template.placeholders
            var cases: [[String: String]] = [[:]]
            for value in CatalogTemplateTests.values {
                cases.append(Dictionary(uniqueKeysWithValues: keys.map { ($0, value) }))
            }
            // Each parameter alone: the others' query items are dropped.
            for key in keys {
                cases.append([key: "only \(key)&"])
            }
            for values in cases {
                let url = template.fill(values)
                #expect(url == SpecURL.fill(format, values), "\(name): \(format) with \(values)")
                checked += 1
            }
        }
        #expect(checked > 1500)
    }

    @Test func theReferenceAgreesWithTheSpecsExamples() {
        let tweetbot = "tweetbot:///user_profile/{{profile_screenname}}?callback_url={{callback_url}}"
        #expect(SpecURL.fill(tweetbot, ["profile_screenname": "Substantial", "callback_url": "choosy:"])
            == "tweetbot:///user_profile/Substantial?callback_url=choosy%3A")
        #expect(SpecURL.fill(tweetbot, ["profile_screenname": "Substantial"]) == "tweetbot:///user_profile/Substantial")
        #expect(SpecURL.fill("{{url}}", ["url": "https://a.b/?c=d e"]) == "https://a.b/?c=d e")
        #expect(SpecURL.fill("echofon:///user_timeline?{{name}}", [:]) == "echofon:///user_timeline")
        #expect(SpecURL.fill("x://y?a=&b={{b}}&c", ["b": "é"]) == "x://y?b=%C3%A9&c")
    }

    /// Every bundled template through `choosy url TYPE ACTION KEY=VALUE… --app APP`, with every
    /// app installed: the printed URL is the spec's, and the parameters of other apps and actions
    /// are not passed.
    @Test(arguments: bundled.map(\.key))
    func everyBundledTemplateThroughTheBinary(typeKey: String) throws {
        let sandbox = Sandbox()
        let type = try #require(CatalogTemplateTests.bundled.first { $0.key == typeKey })
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        for app in type.apps {
            if let id = app.desktopIDs.first, !sandbox.exists(sandbox.dataHome + "/applications/" + id) {
                sandbox.desktopEntry(id, sandbox.application(name: app.name, exec: "firefox %u"))
            }
        }
        let value = "a&b=c#d?e/f g%h{{url}}é 👍"
        for app in type.apps {
            for action in app.actions {
                let keys = URLTemplate(action.urlFormat).placeholders
                var parameters = Dictionary(uniqueKeysWithValues: keys.map { ($0, value) })
                // A leading placeholder supplies the whole URL, and only a real one is launched.
                if action.urlFormat.hasPrefix("{{"), let first = keys.first {
                    parameters[first] = "https://example.org/" + value
                }
                parameters["not_a_parameter_of_anyone"] = "x"
                let arguments = ["url", type.key, action.key, "--app", app.key] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let output = sandbox.choosy(arguments)
                #expect(output.status == 0, "\(arguments): \(output.stderr)")
                parameters["not_a_parameter_of_anyone"] = nil
                #expect(output.stdout == SpecURL.fill(action.urlFormat, parameters) + "\n", "\(type.key)/\(app.key)/\(action.key)")
            }
        }
    }
}

/// doc/spec-choices.md written out plainly, independently of `URLTemplate`: placeholders are replaced by
/// markers that hold none of `? & = #`, the template's structure is read from that text, and
/// the markers are replaced by the (encoded) values last.
enum SpecURL {
    static func fill(_ format: String, _ values: [String: String]) -> String {
        // {{key}} with a non-empty key without braces is a placeholder; anything else is text.
        var keys: [String] = []
        var marked = ""
        var rest = Substring(format)
        while let open = rest.range(of: "{{") {
            marked += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            if let close = after.range(of: "}}"), !after[..<close.lowerBound].isEmpty,
               !after[..<close.lowerBound].contains("{"), !after[..<close.lowerBound].contains("}") {
                keys.append(String(after[..<close.lowerBound]))
                marked += "\u{1}\(keys.count - 1)\u{2}"
                rest = after[close.upperBound...]
            } else {
                marked += "{{"
                rest = after
            }
        }
        marked += rest

        func substitute(_ text: Substring, verbatimAtStart: Bool = false) -> String {
            var result = ""
            var text = text
            var first = true
            while let start = text.firstIndex(of: "\u{1}") {
                let end = text.firstIndex(of: "\u{2}")!
                result += text[..<start]
                let value = values[keys[Int(text[text.index(after: start)..<end])!]] ?? ""
                result += first && verbatimAtStart && start == text.startIndex && result.isEmpty ? value : encode(value)
                first = false
                text = text[text.index(after: end)...]
            }
            return result + text
        }

        var beforeQuery = Substring(marked)
        var query: Substring?
        var fragment: Substring?
        if let question = beforeQuery.firstIndex(of: "?") {
            query = beforeQuery[beforeQuery.index(after: question)...]
            beforeQuery = beforeQuery[..<question]
            if let hash = query!.firstIndex(of: "#") {
                fragment = query![query!.index(after: hash)...]
                query = query![..<hash]
            }
        }
        var url = substitute(beforeQuery, verbatimAtStart: true)
        if let query {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).compactMap { item -> String? in
                if let equals = item.firstIndex(of: "=") {
                    let value = substitute(item[item.index(after: equals)...])
                    return value.isEmpty ? nil : substitute(item[..<equals]) + "=" + value
                }
                let filled = substitute(item)
                return filled.isEmpty ? nil : filled
            }
            if !items.isEmpty { url += "?" + items.joined(separator: "&") }
        }
        if let fragment {
            let filled = substitute(fragment)
            let onlyPlaceholders = fragment.split(separator: "\u{1}").allSatisfy { $0.isEmpty || $0.hasSuffix("\u{2}") && $0.dropLast().allSatisfy(\.isNumber) }
            if !(filled.isEmpty && onlyPlaceholders && !fragment.isEmpty) { url += "#" + filled }
        }
        return url
    }

    /// RFC 3986: every UTF-8 byte but `A-Z a-z 0-9 - . _ ~` as `%XX`.
    static func encode(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}
