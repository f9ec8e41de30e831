@testable import ChoosyKit
import Testing

@Suite struct LinkPatternTests {
    private func match(_ pattern: String, _ link: String) throws -> [String: String]? {
        try LinkPattern(parsing: pattern).match(WebURL(parsing: link))
    }

    @Test func hostsAreExactOrADomainWithItsSubdomains() throws {
        #expect(try match("https://zoom.us/j/{{id}}", "https://zoom.us/j/1") == ["id": "1"])
        #expect(try match("https://zoom.us/j/{{id}}", "https://us02web.zoom.us/j/1") == nil)
        #expect(try match("https://*.zoom.us/j/{{id}}", "https://us02web.zoom.us/j/1") == ["id": "1"])
        #expect(try match("https://*.zoom.us/j/{{id}}", "http://ZOOM.us./j/1") == ["id": "1"])
        for other in ["https://evilzoom.us/j/1", "https://zoom.us.evil.example/j/1", "https://zoom.us@evil.example/j/1",
                      "https://evil.example/j/1?h=zoom.us", "https://[::1]/j/1", "https://127.0.0.1/j/1"] {
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

    @Test func theFragmentIsDecodedFirst() throws {
        let room = "https://matrix.to/#/#{{room_alias}}"
        #expect(try match(room, "https://matrix.to/#/%23room:example.org") == ["room_alias": "room:example.org"])
        #expect(try match(room, "https://matrix.to/#/#room:example.org?via=example.org") == ["room_alias": "room:example.org"])
        #expect(try match(room, "https://matrix.to/#/@alice:example.org") == nil)
        #expect(try match(room, "https://matrix.to/") == nil)
        #expect(try match(room, "https://matrix.to/#/#") == nil)
    }

    @Test func specificityOrdersExactHostThenLiteralSegmentsThenLiteralItems() throws {
        func specificity(_ pattern: String) throws -> LinkPattern.Specificity { try LinkPattern(parsing: pattern).specificity }
        #expect(try specificity("https://*.x.com/a/b/c") < specificity("https://x.com/{{a}}"))
        #expect(try specificity("https://x.com/{{a}}/{{b}}") < specificity("https://x.com/a/{{b}}"))
        #expect(try specificity("https://x.com/a?b={{b!}}&c={{c}}") < specificity("https://x.com/a?b=1"))
        #expect(try specificity("https://x.com/a{{b}}") == specificity("https://x.com/{{a}}"))
    }

    @Test(arguments: [
        "zoom.us/j/{{id}}", "ftp://zoom.us/", "https://", "https://*./a", "https://zo om.us/", "https://zoom.us:443/",
        "https://bücher.example/", "https://x.org//a", "https://x.org/{{a}}{{b}}", "https://x.org/{{a", "https://x.org/a}",
        "https://x.org/{{a!}}", "https://x.org/{{a-b}}", "https://x.org/{{}}", "https://x.org/{{a}}/{{a}}",
        "https://x.org/?q", "https://x.org/?=1", "https://x.org/?q={{a}}x", "https://x.org/?q={{_}}", "https://x.org/?q=&r=1",
        "https://x.org/?q=1&q=2", "https://x.org/#{{a}}", "https://x.org/#/a", "https://x.org/#/{{a}}b", "https://x.org/#/{{a!}}",
        "https://{{host}}/", "https://*.{{a}}.org/",
    ])
    func invalidPatternsAreRefusedWithAReason(pattern: String) {
        #expect(throws: LinkPatternError.self, "\(pattern)") { try LinkPattern(parsing: pattern) }
    }

    @Test func aCatalogFileKeepsItsValidLinksAndNamesTheInvalidOnes() throws {
        let json = """
        [{"key": "chat", "actions": [{"key": "open_chat"}], "links": [
          {"action": "open_chat", "pattern": "https://t.me/{{username}}", "apps": ["telegram_desktop"]},
          {"action": "open_chat", "pattern": "https://t.me/{{a}}{{b}}"},
          {"pattern": "https://t.me/x"},
          {"action": "open_chat", "pattern": "https://t.me/", "link_param": "url"}
        ]}]
        """
        let diagnostics = RecordingDiagnostics()
        let records = try CatalogDecoder.decode(Array(json.utf8), source: "/tmp/chat.json", diagnostics: diagnostics)
        #expect(records.first?.links?.map(\.pattern.source) == ["https://t.me/{{username}}", "https://t.me/"])
        #expect(records.first?.links?.first?.apps == ["telegram_desktop"])
        #expect(records.first?.links?.last?.linkParam == "url")
        #expect(diagnostics.warnings.count == 2)
        #expect(diagnostics.warnings.allSatisfy { $0.hasPrefix("/tmp/chat.json: ignoring link ") })
        #expect(diagnostics.warnings.first?.contains("'https://t.me/{{a}}{{b}}'") == true)
    }

    @Test func aLaterSourceReplacesALinkWithTheSamePattern() throws {
        let base = try LinkPattern(parsing: "https://t.me/{{username}}")
        let extra = try LinkPattern(parsing: "https://telegram.me/{{username}}")
        let merged = CatalogMerger.merge([
            AppTypeRecord(key: "chat", links: [CatalogLink(action: "open_chat", pattern: base, apps: ["telegram_desktop"])]),
            AppTypeRecord(key: "chat", links: [CatalogLink(action: "open_chat", pattern: extra), CatalogLink(action: "share", pattern: base)]),
        ])
        #expect(merged?.links.map(\.action) == ["share", "open_chat"])
        #expect(merged?.links.first?.apps == nil)
    }
}
