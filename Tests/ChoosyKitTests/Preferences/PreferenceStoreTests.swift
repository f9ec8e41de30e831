@testable import ChoosyKit
import Foundation
import Testing

@Suite struct PreferenceStoreTests {
    let sandbox = Sandbox()
    let diagnostics = RecordingDiagnostics()

    func store() -> PreferenceStore {
        PreferenceStore(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), diagnostics: diagnostics, clock: FixedClock(time: 1_800_000_000))
    }

    @Test func remembersPerTypeAndSurvivesANewStore() throws {
        try store().update("browser") { $0.defaultApp = "firefox"; $0.seen = ["firefox", "chromium"] }
        try store().update("email") { $0.defaultApp = "thunderbird" }
        #expect(try store().preference(for: "browser") == TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium"]))
        #expect(try store().preference(for: "email").defaultApp == "thunderbird")
        #expect(try store().preference(for: "maps") == TypePreference())
        try store().resetAll()
        #expect(try store().all().isEmpty)
    }

    @Test func theFileIsPrivateAndValidJSON() throws {
        try store().update("browser") { $0.defaultApp = "firefox" }
        let path = sandbox.configHome + "/choosy/preferences.json"
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect((object?["types"] as? [String: Any])?["browser"] != nil)
    }

    @Test func aCorruptFileIsMovedAsideAndReported() throws {
        let path = sandbox.write(sandbox.configHome + "/choosy/preferences.json", "{\"types\": {\"browser\": ")
        #expect(try store().preference(for: "browser") == TypePreference())
        #expect(diagnostics.warnings.count == 1)
        #expect(diagnostics.warnings.first?.contains("preferences.json.corrupt-1800000000") == true)
        #expect(sandbox.read(path + ".corrupt-1800000000") == "{\"types\": {\"browser\": ")
        try store().update("browser") { $0.defaultApp = "firefox" }
        #expect(try store().preference(for: "browser").defaultApp == "firefox")
    }
}

struct FixedClock: Clock {
    var time: Double
    func now() -> Double { time }
}
