@testable import ChoosyKit
import Foundation
import Testing

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
        #expect(twitter.app("tweetbot")?.urlFormat(for: "show_profile") == "tweetbot:///user_profile/{{profile_screenname}}?callback_url={{callback_url}}")
    }

    @Test func typeLevelSchemesAndURLFormatsAreRead() throws {
        let json = """
            [{"key":"email","schemes":["mailto","MAILTO+x",3,"not a scheme","9p"],
              "actions":[{"key":"compose","name":"Compose","url_format":"mailto:{{to}}?subject={{subject}}"},{"key":"read"}]}]
            """
        let records = try decode(json)
        #expect(records.first?.schemes == ["mailto", "mailto+x"])
        let email = try #require(CatalogMerger.merge(records + [AppTypeRecord(key: "email", actions: [ActionRecord(key: "compose", name: "Write")])]))
        #expect(email.schemes == ["mailto", "mailto+x"])
        // A later source that does not say the template keeps the earlier one.
        #expect(email.action("compose") == Action(key: "compose", name: "Write", urlFormat: "mailto:{{to}}?subject={{subject}}"))
        #expect(email.action("read")?.urlFormat == nil)
        // The slow path (a file PlainJSON hands to JSONDecoder) reads the same.
        let escaped = try decode(json.replacingOccurrences(of: "Compose", with: "Comp\\u006fse"))
        #expect(escaped.first?.schemes == ["mailto", "mailto+x"])
        #expect(escaped.first?.actions?.first?.urlFormat == "mailto:{{to}}?subject={{subject}}")
    }

    @Test func unknownKeysAndWrongTypesAreIgnored() throws {
        let records = try decode("""
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
}

@Suite struct CatalogMergerTests {
    @Test func laterSourcesWinFieldByField() throws {
        let bundled = AppTypeRecord(
            key: "browser", name: "Browser",
            parameters: [ParameterRecord(key: "url", name: "URL", description: "The page")],
            actions: [ActionRecord(key: "browse", name: "Browse")],
            apps: [AppRecord(key: "firefox", name: "Firefox", appURLScheme: "http:", desktopIDs: ["firefox.desktop"], docs: nil,
                             actions: [AppActionRecord(key: "browse", urlFormat: "{{url}}")])]
        )
        let remote = AppTypeRecord(
            key: "browser", name: nil,
            parameters: [ParameterRecord(key: "url", name: nil, description: "Address to open")],
            actions: [ActionRecord(key: "private", name: "Private")],
            apps: [
                AppRecord(key: "firefox", name: "Mozilla Firefox", appURLScheme: nil, desktopIDs: nil, docs: "https://x",
                          actions: [AppActionRecord(key: "private", urlFormat: "{{url}}")]),
                AppRecord(key: "lynx", name: "Lynx", appURLScheme: "http:", desktopIDs: ["lynx.desktop"], docs: nil, actions: nil),
            ]
        )
        let user = AppTypeRecord(key: "browser", name: "Web Browser", parameters: nil, actions: nil,
                                 apps: [AppRecord(key: "firefox", name: nil, appURLScheme: nil, desktopIDs: ["org.mozilla.firefox.desktop"], docs: nil, actions: nil)])
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
    @Test func theCatalogTreePassesItsChecker() throws {
        let result = try PosixProcessRunner().run(ProcessRequest(
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
            #expect(BundledCatalog.json(for: key) == onDisk, "\(file)")
            let diagnostics = RecordingDiagnostics()
            let type = try #require(CatalogMerger.merge(try CatalogDecoder.decode(Array(onDisk.utf8), source: file, diagnostics: diagnostics)))
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
        #expect(CatalogURLPolicy.permits("https://example.org/x"))
        #expect(CatalogURLPolicy.permits("http://127.0.0.1:8080/x"))
        #expect(CatalogURLPolicy.permits("http://localhost/x"))
        #expect(CatalogURLPolicy.permits("http://[::1]:9/x"))
        #expect(!CatalogURLPolicy.permits("http://example.org/x"))
        #expect(!CatalogURLPolicy.permits("http://127.0.0.1.evil.org/x"))
        #expect(!CatalogURLPolicy.permits("http://localhost@evil.org/x"))
        #expect(!CatalogURLPolicy.permits("file:///etc/passwd"))
        #expect(!CatalogURLPolicy.permits("ftp://example.org/x"))
    }
}
