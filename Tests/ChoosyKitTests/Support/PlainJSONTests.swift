@testable import ChoosyKit
import Foundation
import Testing

/// PlainJSON answers only where JSONDecoder could not answer differently; everything that
/// reads it must give what JSONDecoder gives.
@Suite struct PlainJSONTests {
    func parse(_ text: String) -> PlainJSON? { PlainJSON.parse(Array(text.utf8)) }

    /// The same document made non-plain (a `\u` escape in an extra member of its first
    /// object), so that readers fall back to JSONDecoder, which ignores the extra member.
    func throughJSONDecoder(_ text: String) -> [UInt8] {
        guard let brace = text.firstIndex(of: "{") else { return Array(text.utf8) }
        var forced = text
        let empty = text[text.index(after: brace)...].first { !" \n\r\t".contains($0) } == "}"
        forced.insert(contentsOf: "\"zz_force_jsondecoder\": \"\\u0041\"" + (empty ? "" : ", "), at: forced.index(after: brace))
        #expect(PlainJSON.parse(Array(forced.utf8)) == nil)
        return Array(forced.utf8)
    }

    @Test func readsPlainDocuments() {
        #expect(parse(#" [ {"a": "x\"\\\/\b\f\n\r\t y", "b": [1, -20, 0, true, false, null], "c": {}, "é": "ü"}, [], "" ] "#) == .array([
            .object([
                "a": .string("x\"\\/\u{8}\u{C}\n\r\t y"),
                "b": .array([.integer(1), .integer(-20), .integer(0), .bool(true), .bool(false), .null]),
                "c": .object([:]),
                "é": .string("ü"),
            ]),
            .array([]),
            .string(""),
        ]))
        #expect(parse("{\"version\" : 1,\n  \"types\" : {\n\n  }\r\n}\n") == .object(["version": .integer(1), "types": .object([:])]))
        #expect(parse("999999999999999") == .integer(999_999_999_999_999))
        #expect(parse("-0") == .integer(0))
        #expect(parse("[0.5, -2.25, 1795956967.25, 1e-07, 100.0]") == .array([.double(0.5), .double(-2.25), .double(1_795_956_967.25), .double(1e-07), .double(100)]))
    }

    @Test(arguments: [
        "", " ", "[", "[1,]", "[1 2]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1}x", "[] []", "'a'",
        "\"\\u0041\"", "\"\\x\"", "\"a", "\"tab\there\"", "1.50", "1e3", "1E3", "1.", ".5", "1e", "1e+", "1e400", "0.1000000000000000055511151231257827",
        "-", "01", "-01", "1234567890123456", "-1234567890123456",
        "NaN", "Infinity", "tru", "nul", "[true false]", "{\"a\":1,\"a\":2}", "// c\n[]", "[]\u{0B}", "\u{FEFF}[]",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ])
    func leavesEverythingElseToJSONDecoder(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test func leavesInvalidUTF8ToJSONDecoder() {
        #expect(PlainJSON.parse([0x22, 0xC3, 0x22]) == nil)
        #expect(PlainJSON.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) == nil)
        #expect(PlainJSON.parse([0x5B, 0xFF, 0x5D]) == nil)
        #expect(parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) != nil)
    }

    @Test func catalogsDecodeTheSameAsThroughJSONDecoder() throws {
        var documents = BundledCatalog.allJSON
        for name in ["app-data/browser.json", "app-data/email.json", "app-data/maps.json", "app-data/twitter.json", "systemAppTypes.json"] {
            documents.append(try String(contentsOfFile: Sandbox.upstreamFixtures + "/" + name, encoding: .utf8))
        }
        let plainCount = documents.count
        // Wrong types everywhere, which the decoder must tolerate the same way.
        documents += [
            #"""
            [{"key":"t","name":5,"parameters":[null,1,"x",{"key":"p","name":null,"description":["d"]},{"name":"no key"}],
              "actions":{"key":"a"},
              "apps":[{"key":"a1","name":"A","app_url_scheme":"a1:","desktop_ids":["a.desktop",3,null,"b.desktop",{}],"docs":7,
                       "actions":[{"key":"k","url_format":"a1://{{x}}?q={{y}}"},{"key":5},[],{"key":"k2","url_format":null}]},
                      {"key":""},{"name":"no key"},"str",null,{"key":"a2","desktop_ids":"x.desktop","actions":"none"}]},
             {"name":"no key"},{"key":"Bad Key"},{"key":5},{"key":"t2","apps":null,"actions":[],"parameters":{}},
             {"key":"esc","name":"Tab\there \"quoted\" back\\slash \/ ünïcödé","unknown":{"deep":[[[{"x":[true,false,null,-3]}]]]}}]
            """#,
            #"[{"key":"t"}]"#,
            #"[{}]"#,
        ]
        for (number, document) in documents.enumerated() {
            let bytes = Array(document.utf8)
            #expect((PlainJSON.parse(bytes) != nil) == true, "document \(number) is not plain")
            let plainWarnings = RecordingDiagnostics(), decoderWarnings = RecordingDiagnostics()
            let plain = try CatalogDecoder.decode(bytes, source: "s", diagnostics: plainWarnings)
            let decoded = try CatalogDecoder.decode(throughJSONDecoder(document), source: "s", diagnostics: decoderWarnings)
            #expect(plain == decoded, "document \(number)")
            #expect(plainWarnings.warnings == decoderWarnings.warnings, "document \(number)")
            if number < plainCount { #expect(!plain.isEmpty) }
        }
    }

    @Test func cacheMetadataReadsTheSameAsThroughJSONDecoder() throws {
        // What choosy writes is plain.
        let written = CatalogCache.Metadata(fetchedAt: 1_795_956_967.25, url: "https://x/app-data/t.json", etag: "\"e/1\"", lastModified: "Fri, 28 Nov 2025 10:00:00 GMT", name: "T")
        let encoded = try JSONEncoder().encode(written)
        #expect(PlainJSON.parse(Array(encoded)) != nil, "\(String(decoding: encoded, as: UTF8.self))")
        #expect(try CatalogCache.Metadata.decode(Array(encoded)[...]) == written)
        let lines = [
            String(decoding: encoded, as: UTF8.self),
            #"{"fetched_at":1700000000,"url":"u"}"#,
            #"{"fetched_at":0.1,"url":"u","etag":null,"last_modified":null,"name":null,"extra":[1,2]}"#,
            #"{"fetched_at":-5e-324,"url":"u","name":"n"}"#,
            #"{"fetched_at":"1","url":"u"}"#,
            #"{"fetched_at":1,"url":5}"#,
            #"{"fetched_at":1}"#,
            #"{"url":"u"}"#,
            #"{"fetched_at":1,"url":"u","etag":5}"#,
            #"{"fetched_at":1,"url":"u","name":["n"]}"#,
            #"{"fetched_at":true,"url":"u"}"#,
        ]
        for line in lines {
            let plain = Result { try CatalogCache.Metadata.decode(Array(line.utf8)[...]) }
            let forced = Result { try CatalogCache.Metadata.decode(throughJSONDecoder(line)[...]) }
            switch (plain, forced) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(line)")
            case (.failure, .failure): break
            default: Issue.record("\(line): \(plain) but through JSONDecoder \(forced)")
            }
        }
    }

    @Test func preferencesReadTheSameAsThroughJSONDecoder() throws {
        let documents = [
            #"{"version":1,"types":{"browser":{"default":"firefox","seen":["firefox","chromium"]},"email":{"seen":["thunderbird"]}}}"#,
            "{\n  \"types\" : {\n    \"a\" : {\n      \"default\" : null,\n      \"seen\" : null\n    }\n  },\n  \"version\" : 3\n}\n",
            #"{"version":1,"types":{"a":{}}}"#,
            #"{"version":1,"types":{}}"#,
            #"{"version":1,"types":{"a":{"default":"x","extra":[1,{"y":true}]}},"other":"z"}"#,
            #"{"version":-2,"types":{"a":{"default":"\u00e9"}}}"#,
            // Not what choosy can read: moved aside both ways.
            #"{"version":"1","types":{}}"#,
            #"{"version":1,"types":{"a":{"default":5}}}"#,
            #"{"version":1,"types":{"a":{"seen":[1]}}}"#,
            #"{"version":1,"types":{"a":{"seen":["x",null]}}}"#,
            #"{"version":1,"types":{"a":[]}}"#,
            #"{"version":1,"types":null}"#,
            #"{"version":1}"#,
            #"{"types":{}}"#,
        ]
        func read(_ bytes: [UInt8]) throws -> (types: [String: TypePreference], movedAside: Bool) {
            let directory = NSTemporaryDirectory() + "choosy-plain-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createDirectory(atPath: directory + "/choosy", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/choosy/preferences.json"))
            let store = PreferenceStore(
                environment: Environment(["HOME": directory, "XDG_CONFIG_HOME": directory]), fileSystem: LocalFileSystem(),
                diagnostics: RecordingDiagnostics(), clock: SystemClock()
            )
            let types = try store.all()
            return (types, !FileManager.default.fileExists(atPath: store.path))
        }
        for document in documents {
            let plain = try read(Array(document.utf8))
            let decoded = try read(throughJSONDecoder(document))
            #expect(plain.types == decoded.types, "\(document)")
            #expect(plain.movedAside == decoded.movedAside, "\(document)")
        }
        #expect(try read(Array(documents[0].utf8)).types["browser"] == TypePreference(defaultApp: "firefox", seen: ["firefox", "chromium"]))
    }
}
