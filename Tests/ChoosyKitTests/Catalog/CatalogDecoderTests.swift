import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct CatalogDecoderTests {
    func decode(_ json: String, _ diagnostics: RecordingDiagnostics = RecordingDiagnostics()) throws -> [AppTypeRecord] {
        try CatalogDecoder.decode(Array(json.utf8), source: "test", diagnostics: diagnostics)
    }

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Sandbox.upstreamFixtures + "/" + name)))
    }

    @Test func everyUpstreamFileLoadsUnchanged() throws {
        for name in ["app-data/browser.json", "app-data/email.json", "app-data/maps.json", "app-data/twitter.json", "systemAppTypes.json"] {
            let diagnostics = RecordingDiagnostics()
            let records = try CatalogDecoder.decode(try fixture(name), source: name, diagnostics: diagnostics)
            #expect(!records.isEmpty, "\(name)")
            #expect(diagnostics.warnings.isEmpty, "\(name): \(diagnostics.warnings)")
        }
        let system = try CatalogDecoder.decode(try fixture("systemAppTypes.json"), source: "", diagnostics: RecordingDiagnostics())
        #expect(system.map(\.key) == ["email", "twitter", "maps", "browser"])
    }

    @Test func upstreamTwitterMergesWithTheBuiltInTypes() throws {
        let system = try CatalogDecoder.decode(try fixture("systemAppTypes.json"), source: "", diagnostics: RecordingDiagnostics())
        let remote = try CatalogDecoder.decode(try fixture("app-data/twitter.json"), source: "", diagnostics: RecordingDiagnostics())
        let twitter = try #require(CatalogMerger.merge(system.filter { $0.key == "twitter" } + remote))
        #expect(twitter.apps.map(\.key) == ["safari", "twitter", "tweetbot", "twitterific", "echofon", "twittelator"])
        #expect(twitter.action("show_profile")?.name == "Show Profile")
        #expect(twitter.action("timeline") != nil)
        // Twittelator lists `search` twice; the duplicate collapses into one action.
        let twittelator = try #require(twitter.app("twittelator"))
        #expect(twittelator.actions.filter { $0.key == "search" }.count == 1)
        #expect(
            twitter.app("tweetbot")?.urlFormat(for: "show_profile")
                == "tweetbot:///user_profile/{{profile_screenname}}?callback_url={{callback_url}}")
    }

    @Test func typeLevelSchemesAndURLFormatsAreRead() throws {
        let json = """
            [{"key":"email","schemes":["mailto","MAILTO+x",3,"not a scheme","9p"],
              "actions":[{"key":"compose","name":"Compose","url_format":"mailto:{{to}}?subject={{subject}}"},{"key":"read"}]}]
            """
        let records = try decode(json)
        #expect(records.first?.schemes == ["mailto", "mailto+x"])
        let email = try #require(
            CatalogMerger.merge(records + [AppTypeRecord(key: "email", actions: [ActionRecord(key: "compose", name: "Write")])]))
        #expect(email.schemes == ["mailto", "mailto+x"])
        // A later source that does not say the template keeps the earlier one.
        #expect(email.action("compose") == Action(key: "compose", name: "Write", urlFormat: "mailto:{{to}}?subject={{subject}}"))
        #expect(email.action("read")?.urlFormat == nil)
        // Escapes read the same.
        let escaped = try decode(json.replacingOccurrences(of: "Compose", with: "Comp\\u006fse"))
        #expect(escaped.first?.schemes == ["mailto", "mailto+x"])
        #expect(escaped.first?.actions?.first?.urlFormat == "mailto:{{to}}?subject={{subject}}")
    }

    @Test func unknownKeysAndWrongTypesAreIgnored() throws {
        let records = try decode(
            """
            [{"key":"notes","name":"Notes","colour":"red","parameters":[{"key":"text","name":3}],
              "actions":[{"key":"new","name":"New"}, 17, {"name":"no key"}],
              "apps":[{"key":"gnote","name":"Gnote","app_url_scheme":"gnote:","desktop_ids":["org.gnome.Gnote.desktop", 5],
                       "actions":[{"key":"new","url_format":"gnote://new?text={{text}}"}], "icons":{"x":1}}]}]
            """)
        let notes = try #require(CatalogMerger.merge(records))
        #expect(notes.parameters == [Parameter(key: "text", name: "text")])
        #expect(notes.actions.map(\.key) == ["new"])
        #expect(notes.apps.first?.desktopIDs == ["org.gnome.Gnote.desktop"])
        #expect(notes.apps.first?.urlFormat(for: "new") == "gnote://new?text={{text}}")
    }

    /// What `JSONDecoder` made of wrong types everywhere (the decoder was `Decodable` before).
    @Test func wrongTypesEverywhereAreMissingFields() throws {
        let diagnostics = RecordingDiagnostics()
        let records = try decode(
            #"""
            [{"key":"t","name":5,"parameters":[null,1,"x",{"key":"p","name":null,"description":["d"]},{"name":"no key"}],
              "actions":{"key":"a"},
              "apps":[{"key":"a1","name":"A","app_url_scheme":"a1:","desktop_ids":["a.desktop",3,null,"b.desktop",{}],"docs":7,
                       "actions":[{"key":"k","url_format":"a1://{{x}}?q={{y}}"},{"key":5},[],{"key":"k2","url_format":null}]},
                      {"key":""},{"name":"no key"},"str",null,{"key":"a2","desktop_ids":"x.desktop","actions":"none"}]},
             {"name":"no key"},{"key":"Bad Key"},{"key":5},{"key":"t2","apps":null,"actions":[],"parameters":{}},
             {"key":"esc","name":"Tab\there \"quoted\" back\\slash \/ ünïcödé","unknown":{"deep":[[[{"x":[true,false,null,-3]}]]]}},
             {"key":"t","key":"ignored","name":"first","name":5}]
            """#, diagnostics)
        #expect(
            records == [
                AppTypeRecord(
                    key: "t", parameters: [ParameterRecord(key: "p")],
                    apps: [
                        AppRecord(
                            key: "a1", name: "A", appURLScheme: "a1:", desktopIDs: ["a.desktop", "b.desktop"],
                            actions: [AppActionRecord(key: "k", urlFormat: "a1://{{x}}?q={{y}}"), AppActionRecord(key: "k2")]),
                        AppRecord(key: "a2"),
                    ]
                ),
                AppTypeRecord(key: "t2", actions: []),
                AppTypeRecord(key: "esc", name: "Tab\there \"quoted\" back\\slash / ünïcödé"),
                AppTypeRecord(key: "t", name: "first"),
            ])
        #expect(
            diagnostics.warnings == [
                "test: ignoring 3 app types with an invalid key: (no key), 'Bad Key', (no key) (keys match ^[a-z0-9_]+$)"
            ])
        #expect(try decode(#"[{"key":"t"}]"#) == [AppTypeRecord(key: "t")])
    }

    @Test(arguments: ["../etc", "a/b", "Twitter", "", "tw itter", "ü"])
    func invalidTypeKeysAreRejectedWithAWarning(key: String) throws {
        let diagnostics = RecordingDiagnostics()
        let records = try decode(#"[{"key":"\#(key)","name":"X"},{"key":"ok","name":"OK"}]"#, diagnostics)
        #expect(records.map(\.key) == ["ok"])
        #expect(diagnostics.warnings.count == 1)
    }

    @Test func aFileWithManyRejectedTypesMakesOneWarning() throws {
        let diagnostics = RecordingDiagnostics()
        let long = String(repeating: "x", count: 5000) + "/"
        let records = try decode(#"[{"key":"../x"},{"name":"no key"},{"key":"a/b"},{"key":"\#(long)"},{"key":"ok"}]"#, diagnostics)
        #expect(records.map(\.key) == ["ok"])
        #expect(diagnostics.warnings.count == 1)
        let warning = try #require(diagnostics.warnings.first)
        #expect(warning.contains("4 app types") && warning.contains("'../x'") && warning.contains("(no key)"), "\(warning)")
        #expect(warning.utf8.count < 300, "long keys are shortened")
    }

    @Test(arguments: ["", "{}", "[1", "{\"key\":\"x\"}", "null", "\u{FF}\u{FE}"])
    func filesThatAreNotArraysOfTypesAreErrors(json: String) {
        #expect(throws: CatalogFormatError.self) { try decode(json) }
    }

    @Test func theErrorSaysWhereTheFileStopsBeingAnArrayOfTypes() {
        for (json, reason) in [
            ("[{\"key\":\"x\"},\n {\"key\" \"y\"}]", "line 2, column 9: expected ':' after a member name, found '\"'"),
            ("{\"key\":\"x\"}", "the document should be an array"),
            ("[{\"key\":\"x\"}, 5]", "'[1]' should be an object"),
        ] {
            #expect { try decode(json) } throws: { error in
                (error as? CatalogFormatError)?.description == "test: not a JSON array of app types (\(reason))"
            }
        }
    }
}

@Suite struct CatalogCacheMetadataTests {
    @Test func theLineReadsBackAndLinesJSONEncoderWroteRead() throws {
        let written = CatalogCache.Metadata(
            fetchedAt: 1_795_956_967.25, url: "https://x/app-data/t.json", etag: "\"e/1\"", lastModified: "Fri, 28 Nov 2025 10:00:00 GMT",
            name: "T")
        #expect(
            written.line
                == #"{"fetched_at":1795956967.25,"url":"https://x/app-data/t.json","etag":"\"e/1\"","last_modified":"Fri, 28 Nov 2025 10:00:00 GMT","name":"T"}"#
        )
        #expect(try CatalogCache.Metadata(line: Array(written.line.utf8)[...]) == written)
        let bare = CatalogCache.Metadata(fetchedAt: 1_700_000_000, url: "u", etag: nil, lastModified: nil, name: nil)
        #expect(bare.line == #"{"fetched_at":1700000000.0,"url":"u"}"#)
        #expect(try CatalogCache.Metadata(line: Array(bare.line.utf8)[...]) == bare)
        // As JSONEncoder wrote them: in any order, with escaped slashes.
        #expect(
            try CatalogCache.Metadata(
                line: Array(#"{"url":"https:\/\/x\/a","name":"N","fetched_at":1795956967.25,"etag":"\"e\""}"#.utf8)[...])
                == CatalogCache.Metadata(fetchedAt: 1_795_956_967.25, url: "https://x/a", etag: "\"e\"", lastModified: nil, name: "N"))
    }

    /// The lines that read, and those that do not, as with `JSONDecoder` and `Codable`.
    @Test(arguments: [
        (#"{"fetched_at":1700000000,"url":"u"}"#, true),
        (#"{"fetched_at":0.1,"url":"u","etag":null,"last_modified":null,"name":null,"extra":[1,2]}"#, true),
        (#"{"fetched_at":-5e-324,"url":"u","name":"n"}"#, true),
        (#"{"fetched_at":"1","url":"u"}"#, false),
        (#"{"fetched_at":1,"url":5}"#, false),
        (#"{"fetched_at":1}"#, false),
        (#"{"url":"u"}"#, false),
        (#"{"fetched_at":1,"url":"u","etag":5}"#, false),
        (#"{"fetched_at":1,"url":"u","name":["n"]}"#, false),
        (#"{"fetched_at":true,"url":"u"}"#, false),
        (#"{"fetched_at":1e999,"url":"u"}"#, false),
    ])
    func linesOfTheWrongShapeAreErrors(line: String, reads: Bool) {
        #expect((try? CatalogCache.Metadata(line: Array(line.utf8)[...])) != nil || !reads)
        #expect((try? CatalogCache.Metadata(line: Array(line.utf8)[...])) == nil || reads)
    }
}

@Suite struct CatalogMergerTests {
    @Test func laterSourcesWinFieldByField() throws {
        let bundled = AppTypeRecord(
            key: "browser", name: "Browser",
            parameters: [ParameterRecord(key: "url", name: "URL", description: "The page")],
            actions: [ActionRecord(key: "browse", name: "Browse")],
            apps: [
                AppRecord(
                    key: "firefox", name: "Firefox", appURLScheme: "http:", desktopIDs: ["firefox.desktop"], docs: nil,
                    actions: [AppActionRecord(key: "browse", urlFormat: "{{url}}")])
            ]
        )
        let remote = AppTypeRecord(
            key: "browser", name: nil,
            parameters: [ParameterRecord(key: "url", name: nil, description: "Address to open")],
            actions: [ActionRecord(key: "private", name: "Private")],
            apps: [
                AppRecord(
                    key: "firefox", name: "Mozilla Firefox", appURLScheme: nil, desktopIDs: nil, docs: "https://x",
                    actions: [AppActionRecord(key: "private", urlFormat: "{{url}}")]),
                AppRecord(key: "lynx", name: "Lynx", appURLScheme: "http:", desktopIDs: ["lynx.desktop"], docs: nil, actions: nil),
            ]
        )
        let user = AppTypeRecord(
            key: "browser", name: "Web Browser", parameters: nil, actions: nil,
            apps: [
                AppRecord(
                    key: "firefox", name: nil, appURLScheme: nil, desktopIDs: ["org.mozilla.firefox.desktop"], docs: nil, actions: nil)
            ])
        let merged = try #require(CatalogMerger.merge([bundled, remote, user]))
        #expect(merged.name == "Web Browser")
        #expect(merged.parameters == [Parameter(key: "url", name: "URL", description: "Address to open")])
        #expect(merged.actions.map(\.key) == ["browse", "private"])
        #expect(merged.apps.map(\.key) == ["firefox", "lynx"])
        let firefox = try #require(merged.app("firefox"))
        #expect(firefox.name == "Mozilla Firefox")
        #expect(firefox.urlScheme == "http:")
        #expect(firefox.desktopIDs == ["org.mozilla.firefox.desktop"])
        #expect(firefox.docs == "https://x")
        #expect(firefox.actions.map(\.key) == ["browse", "private"])
    }
}

@Suite struct BundledCatalogTests {
    /// The value with every object's members in name order (the embedded files sort them).
    private func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): .array(elements.map(sorted))
        case .object(let members): .object(members.map { ($0.0, sorted($0.1)) }.sorted { $0.0 < $1.0 })
        default: value
        }
    }

    @Test func theCatalogTreePassesItsChecker() throws {
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/env", "python3", Sandbox.packageRoot + "/catalog/check.py"],
                environment: ["PATH": "/usr/bin:/bin"]
            ))
        #expect(result.status == 0, "\(String(decoding: result.stdout + result.stderr, as: UTF8.self))")
    }

    @Test func theBinaryCarriesEveryFileOfTheTree() throws {
        let directory = Sandbox.packageRoot + "/catalog/app-data"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(BundledCatalog.allJSON.count == files.count)
        var apps = 0
        for file in files {
            let key = String(file.dropLast(5))
            let onDisk = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            // The same document without the whitespace between tokens, its links apart.
            let document = try JSONReader.parse(Array(onDisk.utf8))
            let written = try #require(document.elements?.first)
            let links = written["links"]
            let embedded = try JSONReader.parse(Array(try #require(BundledCatalog.json(for: key)).utf8))
            // A link's note is for maintainers: the binary carries none.
            func without(_ names: Set<String>) -> JSONValue? {
                links?.elements.map { links in
                    JSONValue.array(
                        links.map { link in
                            guard case .object(let members) = link else { return link }
                            return .object(members.filter { !names.contains($0.0) })
                        })
                }
            }
            let embeddedLinks = try JSONReader.parse(Array(try #require(BundledCatalog.linksJSON(for: key, withExamples: true)).utf8))
            #expect(
                sorted(embeddedLinks) == sorted(.array(without(["note"]).map { [.object([("key", .string(key)), ("links", $0)])] } ?? [])),
                "\(file)")
            // What `describe` and `rule` decode: the same links without their examples.
            let handled = try JSONReader.parse(Array(try #require(BundledCatalog.linksJSON(for: key, withExamples: false)).utf8))
            let withoutExamples = without(["note", "examples"])
            #expect(
                sorted(handled) == sorted(.array(withoutExamples.map { [.object([("key", .string(key)), ("links", $0)])] } ?? [])),
                "\(file)")
            // What `handle` decodes: the links of its host only, among them each link that an
            // example of that host takes.
            for link in links?.elements ?? [] {
                guard case .string(let pattern)? = link["pattern"], case .string(let example)? = link["examples"]?.elements?.first?["link"]
                else { continue }
                let host = try WebURL(parsing: example).host
                let patterns = try BundledCatalog.linksJSON(for: key, host: host).flatMap { json in
                    (try JSONReader.parse(Array(json.utf8))).elements?.first?["links"]?.elements ?? []
                }.map { $0["pattern"] }
                #expect(patterns.contains(.string(pattern)), "\(file): \(pattern)")
                #expect(patterns.allSatisfy { $0?.stringValue.flatMap(LinkPattern.hostPattern(of:))?.matches(host) == true }, "\(file)")
            }
            guard case .object(let members) = written else {
                Issue.record("\(file) holds no object")
                continue
            }
            #expect(sorted(embedded) == sorted(.array([.object(members.filter { $0.0 != "links" })])), "\(file)")
            #expect(try #require(BundledCatalog.json(for: key)).utf8.count < onDisk.utf8.count * 3 / 4, "\(file)")
            var hosts: [String] = []
            for link in links?.elements ?? [] {
                if let host = link["pattern"]?.stringValue.flatMap(LinkPattern.hostPattern(of:))?.text, !hosts.contains(host) {
                    hosts.append(host)
                }
            }
            #expect(BundledCatalog.files.flatMap(\.types).first { $0.key == key }?.linkHosts == hosts, "\(file)")
            let diagnostics = RecordingDiagnostics()
            let type = try #require(
                CatalogMerger.merge(try CatalogDecoder.decode(Array(onDisk.utf8), source: file, diagnostics: diagnostics)))
            #expect(diagnostics.warnings.isEmpty)
            apps += type.apps.count
        }
        #expect(files.count >= 10)
        #expect(apps >= 40)
        for key in ["browser", "email", "maps", "twitter"] {
            #expect(BundledCatalog.typeSummaries.contains { $0.key == key })
        }
    }
}

@Suite struct CatalogFreshnessTests {
    func metadata(fetchedAt: Double) -> CatalogCache.Metadata {
        CatalogCache.Metadata(fetchedAt: fetchedAt, url: "https://x/app-data/t.json", etag: nil, lastModified: nil, name: nil)
    }

    @Test func withinTheTTLIsFresh() {
        let freshness = CatalogFreshness(ttl: 100)
        #expect(freshness.isFresh(metadata(fetchedAt: 1000), now: 1099))
        #expect(!freshness.isFresh(metadata(fetchedAt: 1000), now: 1100))
        #expect(!freshness.isFresh(metadata(fetchedAt: 5000), now: 1000), "a timestamp from the future is stale")
        #expect(!CatalogFreshness(ttl: 100, developmentMode: true).isFresh(metadata(fetchedAt: 1000), now: 1000))
    }

    @Test func theTTLComesFromTheEnvironment() {
        let diagnostics = RecordingDiagnostics()
        #expect(CatalogFreshness(environment: Environment(["CHOOSY_CACHE_TTL": "60"]), diagnostics: diagnostics).ttl == 60)
        #expect(CatalogFreshness(environment: Environment([:]), diagnostics: diagnostics).ttl == 86400)
        #expect(CatalogFreshness(environment: Environment(["CHOOSY_DEVELOPMENT_MODE": "1"]), diagnostics: diagnostics).developmentMode)
        #expect(diagnostics.warnings.isEmpty)
        #expect(CatalogFreshness(environment: Environment(["CHOOSY_CACHE_TTL": "soon"]), diagnostics: diagnostics).ttl == 86400)
        #expect(diagnostics.warnings.count == 1)
    }

    @Test func onlyHTTPSOrLoopbackURLsAreFetched() {
        #expect(HTTPURLPolicy.permits("https://example.org/x"))
        #expect(HTTPURLPolicy.permits("http://127.0.0.1:8080/x"))
        #expect(HTTPURLPolicy.permits("http://localhost/x"))
        #expect(HTTPURLPolicy.permits("http://[::1]:9/x"))
        #expect(!HTTPURLPolicy.permits("http://example.org/x"))
        #expect(!HTTPURLPolicy.permits("http://127.0.0.1.evil.org/x"))
        #expect(!HTTPURLPolicy.permits("http://localhost@evil.org/x"))
        #expect(!HTTPURLPolicy.permits("file:///etc/passwd"))
        #expect(!HTTPURLPolicy.permits("ftp://example.org/x"))
    }
}

extension CatalogDecoderTests {
    @Test func profilesAndPrivateAreReadLeniently() throws {
        let records = try decode(
            """
            [{"key": "browser", "apps": [
              {"key": "ok", "private": ["--private-window"],
               "profiles": {"format": "firefox", "paths": {"ok.desktop": "~/.ok/profiles.ini", "bad.desktop": 3, "two.desktop": ["~/.a/profiles.ini", 4, "~/.b/profiles.ini"], "none.desktop": []}, "args": ["-P", "{{profile}}"]}},
              {"key": "format", "profiles": {"format": "opera", "paths": {}, "args": ["{{profile}}"]}, "private": []},
              {"key": "noplaceholder", "profiles": {"format": "chromium", "paths": {}, "args": ["--profile-directory"]}, "private": ["-x", 1]},
              {"key": "noargs", "profiles": {"format": "chromium", "paths": {}}, "private": "--incognito"}
            ]}]
            """)
        let apps = try #require(records.first?.apps)
        #expect(
            apps[0].profiles
                == AppProfiles(
                    format: .firefox,
                    paths: ["ok.desktop": ["~/.ok/profiles.ini"], "two.desktop": ["~/.a/profiles.ini", "~/.b/profiles.ini"]],
                    arguments: ["-P", "{{profile}}"]))
        #expect(apps[0].privateArguments == ["--private-window"])
        #expect(apps.dropFirst().allSatisfy { $0.profiles == nil && $0.privateArguments == nil })
        // A later source wins field by field, and what it does not say stands.
        let later = try decode(#"[{"key": "browser", "apps": [{"key": "ok", "private": ["--incognito"]}]}]"#)
        let merged = try #require(CatalogMerger.merge(records + later))
        #expect(merged.app("ok")?.privateArguments == ["--incognito"])
        #expect(merged.app("ok")?.profiles?.format == .firefox)
    }
}
