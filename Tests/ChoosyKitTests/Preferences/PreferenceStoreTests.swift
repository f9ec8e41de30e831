import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct PreferenceStoreTests {
    let sandbox = Sandbox()
    let diagnostics = RecordingDiagnostics()
    /// One command's: each corrupt file is reported once, however many stores read it.
    let warnings: CorruptFileWarnings

    init() {
        warnings = CorruptFileWarnings(diagnostics: diagnostics)
    }

    func store() -> PreferenceStore {
        PreferenceStore(
            environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), warnings: warnings,
            clock: FixedClock(time: 1_800_000_000))
    }

    @Test func remembersPerTypeAndSurvivesANewStore() throws {
        try store().update("browser") {
            $0.defaultApp = "firefox"
            $0.seen = ["firefox", "chromium"]
        }
        try store().update("email") { $0.defaultApp = "thunderbird" }
        #expect(store().preference(for: "browser") == TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium"]))
        #expect(store().preference(for: "email").defaultApp == "thunderbird")
        #expect(store().preference(for: "maps") == TypePreference())
        try store().resetAll()
        #expect(store().all().isEmpty)
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
        try store().update("browser") {
            $0.defaultApp = "firefox"
            $0.seen = ["firefox", "chromium"]
        }
        try store().update("email") { $0.seen = ["thunderbird"] }
        #expect(
            sandbox.read(sandbox.configHome + "/choosy/preferences.json") == """
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

    /// Files that read (as they did with `JSONDecoder`), and files that read as empty and stay
    /// where they are until a change moves them aside.
    @Test func readsTheShapeItWritesAndAnyOtherAsEmptyUntilAChangeMovesItAside() throws {
        let path = sandbox.configHome + "/choosy/preferences.json"
        let readable: [(String, [String: TypePreference])] = [
            (
                #"{"version":1,"types":{"browser":{"default":"firefox","seen":["firefox","chromium"]},"email":{"seen":["thunderbird"]}}}"#,
                [
                    "browser": TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium"]),
                    "email": TypePreference(seen: ["thunderbird"]),
                ]
            ),
            (
                "{\n  \"types\" : {\n    \"a\" : {\n      \"default\" : null,\n      \"seen\" : null\n    }\n  },\n  \"version\" : 3\n}\n",
                ["a": TypePreference()]
            ),
            (#"{"version":1,"types":{"a":{}}}"#, ["a": TypePreference()]),
            (#"{"version":1,"types":{}}"#, [:]),
            (
                #"{"version":1,"types":{"a":{"default":"x","extra":[1,{"y":true}]}},"other":"z"}"#,
                [
                    "a": {
                        var kept = TypePreference(defaultApp: "x")
                        kept.unknownMembers = UnknownJSONMembers(members: [
                            ("extra", .array([.number("1"), .object([("y", .bool(true))])]))
                        ])
                        return kept
                    }()
                ]
            ),
            (#"{"version":-2,"types":{"a":{"default":"\u00e9"}}}"#, ["a": TypePreference(defaultApp: "é")]),
            (#"{"version":1.0,"types":{"a":{"default":"x"},"a":{"default":5}}}"#, ["a": TypePreference(defaultApp: "x")]),
        ]
        for (document, types) in readable {
            sandbox.write(path, document)
            #expect(store().all() == types, "\(document)")
            #expect(sandbox.exists(path), "\(document)")
        }
        for document in [
            #"{"version":"1","types":{}}"#, #"{"version":1.5,"types":{}}"#, #"{"version":1,"types":{"a":{"default":5}}}"#,
            #"{"version":1,"types":{"a":{"seen":[1]}}}"#, #"{"version":1,"types":{"a":{"seen":["x",null]}}}"#,
            #"{"version":1,"types":{"a":[]}}"#, #"{"version":1,"types":null}"#, #"{"version":1}"#, #"{"types":{}}"#,
            #"{"version":1,"types":{},}"#,
        ] {
            sandbox.write(path, document)
            #expect(store().all() == [:], "\(document)")
            #expect(sandbox.read(path) == document, "a read moves nothing: \(document)")
            try store().update("browser") { $0.defaultApp = "firefox" }
            #expect(store().all() == ["browser": TypePreference(defaultApp: "firefox")], "\(document)")
            try FileManager.default.removeItem(atPath: path)
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy").filter {
            $0.hasPrefix("preferences.json.corrupt-")
        }
        #expect(aside.count == 10, "each corrupt file is kept: \(aside)")
    }

    @Test func aCorruptFileIsReportedOnceAndMovedAsideOnlyByAChange() throws {
        let path = sandbox.write(sandbox.configHome + "/choosy/preferences.json", "{\"types\": {\"browser\": ")
        #expect(store().preference(for: "browser") == TypePreference())
        #expect(store().preference(for: "email") == TypePreference())
        #expect(
            diagnostics.warnings == [
                "\(path) is corrupt (line 1, column 23: expected a value, found the end of the text): going on with no remembered apps; the next command that changes it moves it aside"
            ])
        #expect(sandbox.exists(path) && !sandbox.exists(path + ".corrupt-1800000000"))
        try store().update("browser") { $0.defaultApp = "firefox" }
        #expect(
            diagnostics.warnings.count == 2
                && diagnostics.warnings[1].hasPrefix(
                    "\(path) was corrupt: moved it to \(path).corrupt-1800000000 and started with no remembered apps (")
        )
        #expect(sandbox.read(path + ".corrupt-1800000000") == "{\"types\": {\"browser\": ")
        #expect(store().preference(for: "browser").defaultApp == "firefox")
    }

    /// A newer choosy's members survive a rewrite by this one, at every level.
    @Test func aRewriteKeepsTheMembersItDoesNotKnow() throws {
        let path = sandbox.write(
            sandbox.configHome + "/choosy/preferences.json",
            #"{"version":1,"types":{"browser":{"default":"firefox","seen":["firefox"],"since":"2030-01-01","why":{"a":[1,2]}}},"sync":{"id":7}}"#
        )
        try store().update("email") { $0.defaultApp = "thunderbird" }
        try store().update("browser") { $0.seen = ["firefox", "chromium"] }
        let written = try #require(sandbox.read(path))
        let json = try JSONReader.parse(Array(written.utf8))
        #expect(json["sync"] == .object([("id", .number("7"))]))
        #expect(json["types"]?["browser"]?["since"] == .string("2030-01-01"))
        #expect(json["types"]?["browser"]?["why"] == .object([("a", .array([.number("1"), .number("2")]))]))
        #expect(json["types"]?["browser"]?["seen"] == .strings(["firefox", "chromium"]))
        #expect(json["types"]?["email"]?["default"] == .string("thunderbird"))
    }

    /// A file of a newer version is read as far as understood and never changed or moved.
    @Test func aNewerFileIsReadAsFarAsUnderstoodAndNeverRewritten() throws {
        let document = #"{"version":2,"types":{"browser":{"default":"firefox"},"maps":{"default":{"app":"gnome-maps"}}}}"#
        let path = sandbox.write(sandbox.configHome + "/choosy/preferences.json", document)
        #expect(store().all() == ["browser": TypePreference(defaultApp: "firefox")])
        #expect(
            diagnostics.warnings.count == 1
                && diagnostics.warnings[0].contains("was written by a newer choosy (version 2; this one knows version 1)"))
        #expect(
            throws: ChoosyError.corrupt(
                "\(path) was written by a newer choosy (version 2; this one knows version 1): it is left as it is and nothing was changed")
        ) {
            try store().update("browser") { $0.defaultApp = "chromium" }
        }
        #expect(sandbox.read(path) == document)
        let broken = #"{"version":9,"types":[]}"#
        sandbox.write(path, broken)
        #expect(throws: ChoosyError.self) { try store().resetAll() }
        #expect(sandbox.read(path) == broken, "a newer file that does not read is not moved aside either")
    }
}

struct FixedClock: Clock {
    var time: Double
    func now() -> Double { time }
}
