import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Every URL template of the bundled catalog and of the upstream choosy-data fixtures, filled
/// with values that hold URL structure, percent signs, placeholders and non-ASCII text, and
/// compared with doc/spec-choices.md as written independently below (the bundled ones again
/// through the real binary in `BundledTemplateBinaryTests`).
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
        #expect(
            SpecURL.fill(tweetbot, ["profile_screenname": "Substantial", "callback_url": "choosy:"])
                == "tweetbot:///user_profile/Substantial?callback_url=choosy%3A")
        #expect(SpecURL.fill(tweetbot, ["profile_screenname": "Substantial"]) == "tweetbot:///user_profile/Substantial")
        #expect(SpecURL.fill("{{url}}", ["url": "https://a.b/?c=d e"]) == "https://a.b/?c=d e")
        #expect(SpecURL.fill("echofon:///user_timeline?{{name}}", [:]) == "echofon:///user_timeline")
        #expect(SpecURL.fill("x://y?a=&b={{b}}&c", ["b": "é"]) == "x://y?b=%C3%A9&c")
    }

}
