import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

@Suite struct BundledTemplateBinaryTests {
    static let bundled: [AppType] = BundledCatalog.allJSON.compactMap { json in
        CatalogMerger.merge((try? CatalogDecoder.decode(Array(json.utf8), source: "bundled", diagnostics: RecordingDiagnostics())) ?? [])
    }

    /// Every bundled template through `choosy url TYPE ACTION KEY=VALUE… --app APP`, with every
    /// app installed: the printed URL is the spec's, and the parameters of other apps and actions
    /// are not passed.
    @Test(arguments: bundled.map(\.key))
    func everyBundledTemplateThroughTheBinary(typeKey: String) throws {
        let sandbox = Sandbox()
        let type = try #require(BundledTemplateBinaryTests.bundled.first { $0.key == typeKey })
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
                let arguments =
                    ["url", type.key, action.key, "--app", app.key] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let output = sandbox.choosy(arguments)
                #expect(output.status == 0, "\(arguments): \(output.stderr)")
                parameters["not_a_parameter_of_anyone"] = nil
                #expect(output.stdout == SpecURL.fill(action.urlFormat, parameters) + "\n", "\(type.key)/\(app.key)/\(action.key)")
            }
        }
    }
}
