import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

@Suite struct URLTemplateTests {
    @Test func tweetbotExampleFromTheSpec() throws {
        let tweetbot = try #require(upstreamType("twitter").app("tweetbot"))
        #expect(
            tweetbot.url(for: "show_profile", parameters: ["profile_screenname": "Substantial", "callback_url": "choosy:"])
                == "tweetbot:///user_profile/Substantial?callback_url=choosy%3A")
        #expect(
            tweetbot.url(for: "show_profile", parameters: ["profile_screenname": "Substantial"])
                == "tweetbot:///user_profile/Substantial")
        #expect(tweetbot.parameterKeys(for: "show_profile") == ["profile_screenname", "callback_url"])
    }

    @Test func echofonQueryItemWithoutEquals() throws {
        let echofon = try #require(upstreamType("twitter").app("echofon"))
        #expect(echofon.urlFormat(for: "show_profile") == "echofon:///user_timeline?{{profile_screenname}}")
        #expect(
            echofon.url(for: "show_profile", parameters: ["profile_screenname": "Substantial"])
                == "echofon:///user_timeline?Substantial")
        #expect(
            echofon.url(for: "show_profile", parameters: ["profile_screenname": "a b&c"])
                == "echofon:///user_timeline?a%20b%26c")
        #expect(echofon.url(for: "show_profile", parameters: [:]) == "echofon:///user_timeline")
    }

    @Test func mailtoTemplate() throws {
        let mail = try #require(upstreamType("email").apps.first { $0.urlScheme == "mailto:" })
        #expect(
            mail.url(for: "compose", parameters: ["to": "a@example.org", "subject": "Hi there", "body": "1+1=2\n&c"])
                == "mailto:a@example.org?subject=Hi%20there&body=1%2B1%3D2%0A%26c")
        #expect(mail.url(for: "compose", parameters: ["cc": "b@example.org"]) == "mailto:?cc=b@example.org")
        #expect(mail.url(for: "compose", parameters: [:]) == "mailto:")
        // RFC 6068 writes addresses, and lists of them, with `@` and `,`; other links encode both.
        #expect(URLTemplate("MAILTO:{{to}}").fill(["to": "a@x.org,b@y.org"]) == "MAILTO:a@x.org,b@y.org")
        #expect(URLTemplate("https://example.org/?to={{to}}").fill(["to": "a@x.org,b"]) == "https://example.org/?to=a%40x.org%2Cb")
    }

    @Test func literalEmptyQueryItemsAreDropped() {
        let template = URLTemplate("http://maps.apple.com/?q=&daddr={{end_address}}&saddr={{start_address}}")
        #expect(template.fill(["end_address": "Berlin"]) == "http://maps.apple.com/?daddr=Berlin")
        #expect(template.fill([:]) == "http://maps.apple.com/")
    }

    @Test func placeholderAtTheStartIsVerbatim() {
        let template = URLTemplate("{{url}}")
        #expect(template.fill(["url": "https://example.org/a b?x=1&y=2#top"]) == "https://example.org/a b?x=1&y=2#top")
        #expect(URLTemplate("{{url}}/{{url}}").fill(["url": "a:b"]) == "a:b/a%3Ab")
        #expect(URLTemplate("x{{url}}").fill(["url": "a:b"]) == "xa%3Ab")
    }

    @Test func placeholdersBeforeTheQueryBecomeEmpty() {
        #expect(URLTemplate("tweetbot:///follow/{{profile_screenname}}").fill([:]) == "tweetbot:///follow/")
        #expect(URLTemplate("twitterrific://account/{{account_screenname}}/mentions").fill([:]) == "twitterrific://account//mentions")
    }

    @Test func fillsInOnePass() {
        let template = URLTemplate("app://x/{{a}}?b={{b}}")
        #expect(template.fill(["a": "{{b}}", "b": "{{a}}"]) == "app://x/%7B%7Bb%7D%7D?b=%7B%7Ba%7D%7D")
    }

    @Test func keepsTheFragment() {
        let template = URLTemplate("app://x?a={{a}}&b={{b}}#section-{{c}}")
        #expect(template.fill(["a": "1", "c": "2"]) == "app://x?a=1#section-2")
        #expect(template.fill([:]) == "app://x#section-")
        #expect(URLTemplate("app://x?a={{a}}#{{c}}").fill(["a": "1"]) == "app://x?a=1")
        #expect(URLTemplate("app://x?a={{a}}#").fill(["a": "#"]) == "app://x?a=%23#")
    }

    @Test func listsPlaceholdersOnceInOrder() {
        #expect(URLTemplate("a://{{x}}/{{y}}?z={{x}}&{{w}}").placeholders == ["x", "y", "w"])
        #expect(URLTemplate("a://{{}}{{x").placeholders == [])
        #expect(URLTemplate("a://{{}}{{x").fill(["x": "1"]) == "a://{{}}{{x")
    }

    @Test func unsupportedActionOpensTheBareScheme() throws {
        let tweetbot = try #require(upstreamType("twitter").app("tweetbot"))
        #expect(tweetbot.url(for: "no_such_action", parameters: ["text": "hi"]) == "tweetbot:")
        #expect(tweetbot.parameterKeys(for: "no_such_action") == [])
    }

    /// Every upstream template, filled with hostile values: the URL keeps the shape it has with
    /// harmless values, so no value byte became structure.
    @Test func hostileValuesNeverAddStructure() throws {
        let hostile = "a&b=c#d?e/f g%h{{x}}+;:@,!$'()*[]\\\"<>|^`é日本👍\u{0}\n"
        var checked = 0
        var decodedItems = 0
        for type in upstreamTypes() {
            for app in type.apps {
                for action in app.actions {
                    let template = URLTemplate(action.urlFormat)
                    let keys = template.placeholders
                    var values = Dictionary(uniqueKeysWithValues: keys.map { ($0, hostile) })
                    values["x"] = values["x"] ?? "EXPANDED"
                    let harmless = template.fill(Dictionary(uniqueKeysWithValues: keys.map { ($0, "v") }))
                    let url = template.fill(values)
                    checked += 1
                    if action.urlFormat.hasPrefix("{{") {
                        #expect(url == hostile)
                        continue
                    }
                    // A mailto: link keeps a value's `@` and `,` (addresses, RFC 6068): no structure there.
                    let kept: Set<Character> = action.urlFormat.lowercased().hasPrefix("mailto:") ? ["@", ","] : []
                    let structure = Set<Character>(["?", "&", "=", "#", "/", ":", ";", "+", "@", ","]).subtracting(kept)
                    for character in structure {
                        #expect(
                            url.filter { $0 == character }.count == harmless.filter { $0 == character }.count,
                            "\(action.urlFormat): '\(character)' in \(url)")
                    }
                    #expect(url.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }, "\(url)")
                    #expect(!url.contains("{") && !url.contains("EXPANDED"), "\(url)")
                    #expect(validPercentEscapes(url), "\(url)")
                    for item in URLComponents(string: url)?.queryItems ?? []
                    where keys.contains(where: { action.urlFormat.contains("\(item.name)={{\($0)}}") }) {
                        #expect(item.value == hostile, "\(action.urlFormat): \(item.name)")
                        decodedItems += 1
                    }
                }
            }
        }
        #expect(checked > 50)
        #expect(decodedItems > 50)
    }

    private func validPercentEscapes(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count else { return false }
            let hex = Array("0123456789ABCDEF".utf8)
            if !hex.contains(bytes[index + 1]) || !hex.contains(bytes[index + 2]) { return false }
        }
        return true
    }
}

/// The upstream choosy-data fixtures merged as upstream Choosy does: built-in types first, the
/// data repository's files over them.
func upstreamTypes() -> [AppType] {
    let root = Sandbox.upstreamFixtures
    let files =
        [root + "/systemAppTypes.json"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: root + "/app-data")) ?? []).sorted().map { root + "/app-data/" + $0 }
    var records: [String: [AppTypeRecord]] = [:]
    var order: [String] = []
    for file in files {
        let bytes = Array(FileManager.default.contents(atPath: file) ?? Data())
        for record in (try? CatalogDecoder.decode(bytes, source: file, diagnostics: RecordingDiagnostics())) ?? [] {
            if records[record.key] == nil { order.append(record.key) }
            records[record.key, default: []].append(record)
        }
    }
    return order.compactMap { CatalogMerger.merge(records[$0]!) }
}

private func upstreamType(_ key: String) -> AppType {
    upstreamTypes().first { $0.key == key }!
}
