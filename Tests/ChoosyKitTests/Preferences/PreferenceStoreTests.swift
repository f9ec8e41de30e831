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

    @Test func theFileHasTheLayoutJSONEncoderGaveIt() throws {
        try store().update("browser") { $0.defaultApp = "firefox"; $0.seen = ["firefox", "chromium"] }
        try store().update("email") { $0.seen = ["thunderbird"] }
        #expect(sandbox.read(sandbox.configHome + "/choosy/preferences.json") == """
            {
              "types" : {
                "browser" : {
                  "default" : "firefox",
                  "seen" : [
                    "firefox",
                    "chromium"
                  ]
                },
                "email" : {
                  "seen" : [
                    "thunderbird"
                  ]
                }
              },
              "version" : 1
            }

            """)
    }

    /// Files that read (as they did with `JSONDecoder`), and files that are moved aside.
    @Test func readsTheShapeItWritesAndMovesAsideAnyOther() throws {
        let path = sandbox.configHome + "/choosy/preferences.json"
        let readable: [(String, [String: TypePreference])] = [
            (#"{"version":1,"types":{"browser":{"default":"firefox","seen":["firefox","chromium"]},"email":{"seen":["thunderbird"]}}}"#,
             ["browser": TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium"]), "email": TypePreference(seen: ["thunderbird"])]),
            ("{\n  \"types\" : {\n    \"a\" : {\n      \"default\" : null,\n      \"seen\" : null\n    }\n  },\n  \"version\" : 3\n}\n", ["a": TypePreference()]),
            (#"{"version":1,"types":{"a":{}}}"#, ["a": TypePreference()]),
            (#"{"version":1,"types":{}}"#, [:]),
            (#"{"version":1,"types":{"a":{"default":"x","extra":[1,{"y":true}]}},"other":"z"}"#, ["a": TypePreference(defaultApp: "x")]),
            (#"{"version":-2,"types":{"a":{"default":"\u00e9"}}}"#, ["a": TypePreference(defaultApp: "é")]),
            (#"{"version":1.0,"types":{"a":{"default":"x"},"a":{"default":5}}}"#, ["a": TypePreference(defaultApp: "x")]),
        ]
        for (document, types) in readable {
            sandbox.write(path, document)
            #expect(try store().all() == types, "\(document)")
            #expect(sandbox.exists(path), "\(document)")
        }
        for document in [
            #"{"version":"1","types":{}}"#, #"{"version":1.5,"types":{}}"#, #"{"version":1,"types":{"a":{"default":5}}}"#,
            #"{"version":1,"types":{"a":{"seen":[1]}}}"#, #"{"version":1,"types":{"a":{"seen":["x",null]}}}"#,
            #"{"version":1,"types":{"a":[]}}"#, #"{"version":1,"types":null}"#, #"{"version":1}"#, #"{"types":{}}"#,
            #"{"version":1,"types":{},}"#,
        ] {
            sandbox.write(path, document)
            #expect(try store().all() == [:], "\(document)")
            #expect(!sandbox.exists(path), "\(document)")
        }
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
