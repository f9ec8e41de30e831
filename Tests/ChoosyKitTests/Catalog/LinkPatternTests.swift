import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct LinkPatternTests {
    private func match(_ pattern: String, _ link: String) throws -> [String: String]? {
        try LinkPattern(parsing: pattern).match(WebURL(parsing: link))
    }

    @Test func hostsAreExactOrADomainWithItsSubdomains() throws {
        #expect(try match("https://zoom.us/j/{{id}}", "https://zoom.us/j/1") == ["id": "1"])
        #expect(try match("https://zoom.us/j/{{id}}", "https://us02web.zoom.us/j/1") == nil)
        #expect(try match("https://*.zoom.us/j/{{id}}", "https://us02web.zoom.us/j/1") == ["id": "1"])
        #expect(try match("https://*.zoom.us/j/{{id}}", "http://ZOOM.us./j/1") == ["id": "1"])
        for other in [
            "https://evilzoom.us/j/1", "https://zoom.us.evil.example/j/1", "https://zoom.us@evil.example/j/1",
            "https://evil.example/j/1?h=zoom.us", "https://[::1]/j/1", "https://127.0.0.1/j/1",
        ] {
            #expect(try match("https://*.zoom.us/j/{{id}}", other) == nil, "\(other)")
        }
    }

    @Test func segmentsMatchWholeAndInOrder() throws {
        let pattern = "https://t.me/{{username}}"
        #expect(try match(pattern, "https://t.me/durov") == ["username": "durov"])
        #expect(try match(pattern, "https://t.me/durov/") == ["username": "durov"])
        #expect(try match(pattern, "https://t.me/durov/42") == nil)
        #expect(try match(pattern, "https://t.me/") == nil)
        #expect(try match("https://t.me/", "https://t.me") == [:])
        #expect(try match("https://t.me/s/{{name}}/", "https://t.me/s/x") == ["name": "x"])
        #expect(try match("https://t.me/s/{{name}}", "https://t.me/S/x") == nil)
    }

    @Test func placeholdersSplitASegmentAtTheNextLiteral() throws {
        let pattern = "https://www.google.com/maps/@{{latitude}},{{longitude}},{{_}}"
        #expect(try match(pattern, "https://www.google.com/maps/@48.85,2.29,17z") == ["latitude": "48.85", "longitude": "2.29"])
        #expect(try match(pattern, "https://www.google.com/maps/@48.85,2.29,17z,3a") == ["latitude": "48.85", "longitude": "2.29"])
        #expect(try match(pattern, "https://www.google.com/maps/@48.85,2.29") == nil)
        #expect(try match(pattern, "https://www.google.com/maps/@,2.29,17z") == nil)
        #expect(try match("https://x.org/v{{n}}.tar", "https://x.org/v1.2.tar") == ["n": "1.2"])
        #expect(try match("https://x.org/v{{n}}.tar", "https://x.org/v.tar") == nil)
    }

    @Test func valuesArePercentDecoded() throws {
        #expect(try match("https://x.org/{{a}}?q={{b}}", "https://x.org/caf%C3%A9%20bar?q=a+b%26c") == ["a": "café bar", "b": "a b&c"])
        #expect(try match("https://x.org/{{a}}", "https://x.org/%zz") == ["a": "%zz"])
    }

    @Test func queryItemsAreTakenRequiredOrLiteral() throws {
        let pattern = "https://*.zoom.us/j/{{meeting_id}}?pwd={{password}}"
        #expect(try match(pattern, "https://zoom.us/j/123?pwd=x&uname=y") == ["meeting_id": "123", "password": "x"])
        #expect(try match(pattern, "https://zoom.us/j/123") == ["meeting_id": "123"])
        #expect(try match(pattern, "https://zoom.us/j/123?pwd=") == ["meeting_id": "123"])
        let required = "https://www.youtube.com/watch?v={{video!}}"
        #expect(try match(required, "https://www.youtube.com/watch?t=3&v=abc") == ["video": "abc"])
        #expect(try match(required, "https://www.youtube.com/watch?v=") == nil)
        #expect(try match(required, "https://www.youtube.com/watch") == nil)
        #expect(try match("https://maps.example/?api=1&q={{q!}}", "https://maps.example/?q=x&api=1") == ["q": "x"])
        #expect(try match("https://maps.example/?api=1&q={{q!}}", "https://maps.example/?q=x&api=2") == nil)
        #expect(try match("https://x.org/w?v={{_!}}", "https://x.org/w?v=1") == [:])
    }

    /// A name written again takes the link's next value of that name (matrix.to's `via`).
    @Test func aNameWrittenAgainTakesTheNextValue() throws {
        let pattern = "https://matrix.to/#/!{{room}}?via={{via}}&via={{via2}}&via={{via3}}"
        #expect(
            try match(pattern, "https://matrix.to/#/!r:a.org?via=a.org&via=b.org&via=c.org&via=d.org")
                == ["room": "r:a.org", "via": "a.org", "via2": "b.org", "via3": "c.org"])
        #expect(try match(pattern, "https://matrix.to/#/!r:a.org?via=a.org") == ["room": "r:a.org", "via": "a.org"])
        #expect(try match("https://x.org/?q={{a}}&q={{b!}}", "https://x.org/?q=1") == nil)
        #expect(try match("https://x.org/?q=1&q={{b}}", "https://x.org/?q=1&q=2") == ["b": "2"])
        #expect(try match("https://x.org/?q=1&q={{b}}", "https://x.org/?q=2&q=1") == nil)
    }

    /// A name alone asks that the link have the item, with a value or none (Telegram's flags).
    @Test func aNameAloneIsPresentWithAnyValue() throws {
        let pattern = "https://t.me/{{name}}?startgroup&startgroup={{token}}"
        #expect(try match(pattern, "https://t.me/bot?startgroup") == ["name": "bot"])
        #expect(try match(pattern, "https://t.me/bot?startgroup=") == ["name": "bot"])
        #expect(try match(pattern, "https://t.me/bot?startgroup=abc") == ["name": "bot", "token": "abc"])
        #expect(try match(pattern, "https://t.me/bot?start=abc") == nil)
        #expect(try match(pattern, "https://t.me/bot") == nil)
        #expect(try match("https://x.org/#p/{{a}}?flag", "https://x.org/#p/1?flag") == ["a": "1"])
    }

    /// A value of literal text and placeholders is matched like a path segment, and must be there.
    @Test func aValueWithTextIsMatchedLikeASegment() throws {
        let pattern = "https://www.google.com/maps?q={{latitude:number}},{{longitude:number}}"
        #expect(try match(pattern, "https://www.google.com/maps?q=52.52,13.40") == ["latitude": "52.52", "longitude": "13.40"])
        #expect(try match(pattern, "https://www.google.com/maps?q=52.52%2C-13.40") == ["latitude": "52.52", "longitude": "-13.40"])
        #expect(try match(pattern, "https://www.google.com/maps?q=Berlin") == nil)
        #expect(try match(pattern, "https://www.google.com/maps") == nil)
        #expect(try match("https://x.org/?cp={{a}}~{{b}}&r=a+b{{c}}", "https://x.org/?cp=1~2&r=a+bc") == ["a": "1", "b": "2", "c": "c"])
    }

    /// A host label may be a placeholder: it takes that whole label, checked like a value.
    @Test func aHostLabelMayBeAPlaceholder() throws {
        let pattern = "https://{{username:word:5-32}}.t.me/"
        #expect(try match(pattern, "https://durov.t.me/") == ["username": "durov"])
        #expect(try match(pattern, "https://Durov.T.me") == ["username": "durov"])
        for other in [
            "https://www.t.me/", "https://t.me/", "https://a.durov.t.me/", "https://durov.t.me.evil.example/", "https://du-rov.t.me/",
        ] {
            #expect(try match(pattern, other) == nil, "\(other)")
        }
        let google = "https://*.google.{{_:word:2-3}}/maps"
        for link in ["https://www.google.de/maps", "https://google.com/maps", "https://maps.google.fr/maps"] {
            #expect(try match(google, link) == [:], "\(link)")
        }
        for other in ["https://www.google.co.uk/maps", "https://google.evil.example/maps", "https://www.google.museum/maps"] {
            #expect(try match(google, other) == nil, "\(other)")
        }
        let host = try #require(LinkPattern.hostPattern(of: pattern))
        #expect(host.text == "{{username:word:5-32}}.t.me" && host.literalSuffix == "t.me")
        #expect(LinkPattern.HostPattern(host.text) == host)
        #expect(LinkPattern.hostPattern(of: google)?.literalSuffix == nil)
        #expect(try LinkPattern(parsing: pattern).specificity > LinkPattern(parsing: "https://*.t.me/").specificity)
    }

    @Test func theFragmentIsDecodedFirst() throws {
        let room = "https://matrix.to/#/#{{room_alias}}"
        #expect(try match(room, "https://matrix.to/#/%23room:example.org") == ["room_alias": "room:example.org"])
        #expect(try match(room, "https://matrix.to/#/#room:example.org?via=example.org") == ["room_alias": "room:example.org"])
        #expect(try match(room, "https://matrix.to/#/@alice:example.org") == nil)
        #expect(try match(room, "https://matrix.to/") == nil)
        #expect(try match(room, "https://matrix.to/#/#") == nil)
    }

    @Test func typedPlaceholdersMatchOnlyWhatTheySay() throws {
        let digits = "https://zoom.us/j/{{id:digits:9-11}}"
        #expect(try match(digits, "https://zoom.us/j/85012345678") == ["id": "85012345678"])
        #expect(try match(digits, "https://zoom.us/j/8501234") == nil)
        #expect(try match(digits, "https://zoom.us/j/850123456789") == nil)
        #expect(try match(digits, "https://zoom.us/j/85012345a") == nil)
        let word = "https://t.me/{{name:word:5-32}}"
        #expect(try match(word, "https://t.me/durov_1") == ["name": "durov_1"])
        #expect(try match(word, "https://t.me/abcd") == nil)
        #expect(try match(word, "https://t.me/a-bcde") == nil)
        // The kind is checked on the decoded value.
        #expect(try match(word, "https://t.me/%64urov") == ["name": "durov"])
        #expect(try match(word, "https://t.me/dur%C3%B6v") == nil)
        let number = "https://x.org/@{{lat:number}},{{lon:number}},{{_}}"
        #expect(try match(number, "https://x.org/@52.52,-13.4,14z") == ["lat": "52.52", "lon": "-13.4"])
        for wrong in ["52.", ".5", "+5", "1e5", "-", "5.5.5", "abc"] {
            #expect(try match(number, "https://x.org/@\(wrong),13,14z") == nil, "\(wrong)")
        }
        let query = "https://x.org/w?id={{item:digits!}}&page={{page:digits}}"
        #expect(try match(query, "https://x.org/w?id=42&page=3") == ["item": "42", "page": "3"])
        #expect(try match(query, "https://x.org/w?id=42") == ["item": "42"])
        #expect(try match(query, "https://x.org/w?id=4x2") == nil)
        // An optional item that is there must fit too.
        #expect(try match(query, "https://x.org/w?id=42&page=last") == nil)
        #expect(try match("https://x.org/w?v={{_:word:11!}}", "https://x.org/w?v=dQw4w9WgXcQ") == [:])
        #expect(try match("https://x.org/w?v={{_:word:11!}}", "https://x.org/w?v=dQw4w9WgXc") == nil)
    }

    @Test func theFragmentHasSegmentsAndQueryItems() throws {
        let event = "https://matrix.to/#/#{{room_alias}}/{{event_id}}"
        #expect(
            try match(event, "https://matrix.to/#/#room:matrix.org/$event:matrix.org")
                == ["room_alias": "room:matrix.org", "event_id": "$event:matrix.org"])
        #expect(try match("https://matrix.to/#/#{{room_alias}}", "https://matrix.to/#/#room:matrix.org/$event:matrix.org") == nil)
        let room = "https://matrix.to/#/!{{room_id}}?via={{via}}"
        #expect(
            try match(room, "https://matrix.to/#/!abc:matrix.org?via=matrix.org&via=x.org") == [
                "room_id": "abc:matrix.org", "via": "matrix.org",
            ])
        #expect(try match(room, "https://matrix.to/#/%21abc:matrix.org") == ["room_id": "abc:matrix.org"])
        let map = "https://www.openstreetmap.org/#map={{_:digits}}/{{latitude:number}}/{{longitude:number}}"
        #expect(try match(map, "https://www.openstreetmap.org/#map=15/52.5170/13.3889") == ["latitude": "52.5170", "longitude": "13.3889"])
        #expect(try match(map, "https://www.openstreetmap.org/#map=15/abc/13.3889") == nil)
        #expect(try match(map, "https://www.openstreetmap.org/") == nil)
        #expect(try match("https://signal.me/#p/+{{phone:digits}}", "https://signal.me/#p/+4915112345678") == ["phone": "4915112345678"])
        #expect(try match("https://x.org/#/a", "https://x.org/#/a") == [:])
    }

    @Test func specificityOrdersExactHostThenLiteralSegmentsThenLiteralItems() throws {
        func specificity(_ pattern: String) throws -> LinkPattern.Specificity { try LinkPattern(parsing: pattern).specificity }
        #expect(try specificity("https://*.x.com/a/b/c") < specificity("https://x.com/{{a}}"))
        #expect(try specificity("https://x.com/{{a}}/{{b}}") < specificity("https://x.com/a/{{b}}"))
        #expect(try specificity("https://x.com/a?b={{b!}}&c={{c}}") < specificity("https://x.com/a?b=1"))
        #expect(try specificity("https://x.com/a{{b}}") == specificity("https://x.com/{{a}}"))
    }

    static let invalidPatterns = [
        "zoom.us/j/{{id}}", "ftp://zoom.us/", "https://", "https://*./a", "https://zo om.us/", "https://zoom.us:443/",
        "https://bücher.example/", "https://x.org//a", "https://x.org/{{a}}{{b}}", "https://x.org/{{a", "https://x.org/a}",
        "https://x.org/{{a!}}", "https://x.org/{{a-b}}", "https://x.org/{{}}", "https://x.org/{{a}}/{{a}}",
        "https://x.org/?q&q", "https://x.org/?=1", "https://x.org/?q={{_}}", "https://x.org/?q=&r=1", "https://x.org/?q={{a!}}x",
        "https://x.org/?{{q}}=1", "https://x.org/#", "https://x.org/#/{{a}}?", "https://x.org/#/{{a!}}", "https://x.org/#/{{a}}{{b}}",
        "https://x.org/{{a:color}}", "https://x.org/{{a:}}", "https://x.org/{{a:digits:0}}", "https://x.org/{{a:digits:5-3}}",
        "https://x.org/{{a:digits:-3}}", "https://x.org/{{a:digits:3-}}", "https://x.org/{{a:word:1:2}}", "https://x.org/{{:word}}",
        "https://x.org/{{a:digits!}}", "https://x.org/?q={{a!:digits}}",
        "https://{{host}}/", "https://*.{{a}}.org/", "https://{{a}}.{{b}}.org/", "https://{{a!}}.t.me/", "https://{{a}}x.t.me/",
        "https://{{a}}.t.me/{{a}}",
    ]

    @Test(arguments: invalidPatterns)
    func invalidPatternsAreRefusedWithAReason(pattern: String) {
        #expect(throws: LinkPatternError.self, "\(pattern)") { try LinkPattern(parsing: pattern) }
    }

    /// The catalog's checker (catalog/check.py) reads patterns by the same rules: it refuses
    /// exactly what choosy refuses, here and on every pattern of the fuzz corpus.
    @Test func theCatalogCheckerAgrees() throws {
        let corpus = Sandbox.packageRoot + "/fuzz/corpus/link-pattern"
        // Each seed is a pattern, the byte 0xFF, and a link.
        let samples = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted().compactMap { name in
            FileManager.default.contents(atPath: corpus + "/" + name).flatMap { data in
                String(validating: data.split(separator: 0xFF, omittingEmptySubsequences: false)[0], as: UTF8.self)
            }
        }
        let patterns = Self.invalidPatterns + samples
        #expect(samples.count >= 20)
        let script = """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            import check
            for pattern in json.load(sys.stdin):
                print("valid" if check.link_pattern_problem(pattern)[0] is None else "invalid")
            """
        let input = JSONValue.strings(patterns).rendered()
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/env", "python3", "-c", script, Sandbox.packageRoot + "/catalog"],
                environment: ["PATH": "/usr/bin:/bin"], input: Array(input.utf8)
            ))
        let verdicts = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(verdicts.count == patterns.count, "\(String(decoding: result.stderr, as: UTF8.self))")
        for (pattern, verdict) in zip(patterns, verdicts) {
            let swift = (try? LinkPattern(parsing: pattern)) == nil ? "invalid" : "valid"
            #expect(verdict == swift, "\(pattern)")
        }
    }

    @Test func aCatalogFileKeepsItsValidLinksAndNamesTheInvalidOnes() throws {
        let json = """
            [{"key": "chat", "actions": [{"key": "open_chat"}], "links": [
              {"action": "open_chat", "pattern": "https://t.me/{{username}}", "apps": ["telegram_desktop"]},
              {"action": "open_chat", "pattern": "https://t.me/{{a}}{{b}}"},
              {"pattern": "https://t.me/x"},
              {"action": "nope", "pattern": "https://t.me/x/{{username}}"},
              {"action": "open_chat", "pattern": "https://t.me/", "link_param": "url"}
            ]}]
            """
        let diagnostics = RecordingDiagnostics()
        let records = try CatalogDecoder.decode(Array(json.utf8), source: "/tmp/chat.json", diagnostics: diagnostics)
        #expect(
            diagnostics.warnings == [
                "/tmp/chat.json: ignoring link 'https://t.me/x' of 'chat': a link needs a \"pattern\" and an \"action\""
            ])
        // Patterns are read when links are needed.
        let type = try #require(CatalogMerger.merge(records))
        let read = type.read(CatalogMerger.links(records), diagnostics: diagnostics)
        #expect(read.map(\.link.pattern) == ["https://t.me/{{username}}", "https://t.me/"])
        #expect(read.first?.link.apps == ["telegram_desktop"])
        #expect(read.last?.link.linkParam == "url")
        #expect(diagnostics.warnings.count == 3)
        #expect(diagnostics.warnings.allSatisfy { $0.hasPrefix("/tmp/chat.json: ignoring link ") })
        #expect(diagnostics.warnings[1].contains("'https://t.me/{{a}}{{b}}'"))
        #expect(diagnostics.warnings[2].hasSuffix("the type has no action 'nope'"))
    }

    @Test func aLaterSourceReplacesALinkWithTheSamePattern() throws {
        let base = "https://t.me/{{username}}"
        let merged = CatalogMerger.links([
            AppTypeRecord(key: "chat", links: [CatalogLink(action: "open_chat", pattern: base, apps: ["telegram_desktop"], origin: "a")]),
            AppTypeRecord(
                key: "chat",
                links: [
                    CatalogLink(action: "open_chat", pattern: "https://telegram.me/{{username}}", origin: "b"),
                    CatalogLink(action: "share", pattern: base, origin: "b"),
                ]),
        ])
        #expect(merged.map(\.action) == ["share", "open_chat"])
        #expect(merged.first?.apps == nil)
    }

    /// A handled link reads only the patterns that could take it: told by the host and the
    /// literal start of the first segment, never wrongly (each pattern that takes a link passes).
    @Test func aPatternThatCannotTakeALinkIsNotRead() throws {
        func may(_ pattern: String, _ link: String) throws -> Bool { LinkPattern.mayMatch(pattern, try WebURL(parsing: link)) }
        #expect(try !may("https://t.me/proxy", "https://t.me/durov"))
        #expect(try !may("https://t.me/+{{invite}}", "https://t.me/durov"))
        #expect(try !may("https://t.me/{{a}}", "https://telegram.me/durov"))
        #expect(try !may("https://www.openstreetmap.org/?mlat={{a!}}", "https://www.openstreetmap.org/search?query=x"))
        #expect(try may("https://t.me/+{{invite}}", "https://t.me/+AbC"))
        #expect(try !may("https://t.me/{{a}}/{{b}}", "https://t.me/durov"))
        #expect(try !may("https://www.google.com/maps/search/{{q}}", "https://www.google.com/maps/@1,2,3z"))
        #expect(try may("https://t.me/{{a}}/", "https://t.me/durov"))
        #expect(try may("https://t.me/{{a}}", "https://t.me/durov/"))
        #expect(try may("https://matrix.to/#/#{{a}}", "https://matrix.to/#/%23a:b"))
        #expect(try may("https://*.google.{{_:word:2-3}}/maps/@{{a}}", "https://www.google.de/maps/@1,2,3z"))
        #expect(try may("https://www.openstreetmap.org/#map={{_}}", "https://www.openstreetmap.org/"))
        let patterns = [
            "https://t.me/{{a}}", "https://t.me/s/{{a}}", "https://t.me/+{{a}}", "https://t.me/", "https://x.org/a{{b}}c/d",
            "https://x.org/?q={{q}}", "https://x.org/{{a}}/{{b}}/", "https://x.org/#/{{a}}",
        ]
        let links = [
            "https://t.me/durov", "https://t.me/s/durov", "https://t.me/+123", "https://t.me", "https://x.org/abc/d", "https://x.org/?q=1",
            "https://x.org/a/b", "https://x.org/a/b/", "https://x.org/#/a", "https://x.org/",
        ]
        for pattern in patterns {
            for link in links where try match(pattern, link) != nil {
                #expect(try may(pattern, link), "\(pattern) \(link)")
            }
        }
    }

    /// A link host as the embedded catalog lists it is tested byte by byte, as HostPattern would
    /// (a placeholder label taking any label).
    @Test func aListedHostIsTestedAsItsPatternWould() throws {
        let texts = [
            "t.me", "*.zoom.us", "{{username:word:5-32}}.t.me", "*.google.{{_:word:2-3}}", "Zoom.US", "", "*.x.com", "x..com", "*.",
            "a*.x.com", "zo om.us", ".x.com", "{{a}}.{{b}}", "{{a}}.t.me.{{b}}",
        ]
        let hosts = [
            "t.me", "zoom.us", "us02web.zoom.us", "xzoom.us", "durov.t.me", "ab.t.me", "a.b.t.me", "www.google.de", "google.co.uk", "x.com",
            "a.x.com", "ax.com", "127.0.0.1",
        ]
        for text in texts {
            for name in hosts {
                let host = try WebHost(parsing: name)
                let read = LinkPattern.HostPattern(text)?.matches(host) ?? true
                // A placeholder label is any label here; its kind is the match's to check.
                if text.contains("{{") {
                    #expect(!read || LinkPattern.HostPattern.couldBe(text, host), "\(text) \(name)")
                } else {
                    #expect(LinkPattern.HostPattern.couldBe(text, host) == read, "\(text) \(name)")
                }
            }
        }
    }

    @Test func theHostIsReadAlone() {
        #expect(
            LinkPattern.hostPattern(of: "HTTPS://*.Zoom.us/j/{{x") == LinkPattern.HostPattern(domain: "zoom.us", includesSubdomains: true))
        #expect(LinkPattern.hostPattern(of: "https://t.me?x=1") == LinkPattern.HostPattern(domain: "t.me", includesSubdomains: false))
        #expect(LinkPattern.hostPattern(of: "https://{{host}}/") == nil)
        #expect(LinkPattern.hostPattern(of: "t.me/x") == nil)
    }
}
