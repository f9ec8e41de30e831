import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Every example of the bundled catalog's links (doc/links-and-rules.md, "Links in the catalog"), through the
/// real matcher with the whole catalog loaded, as `describe --json` reports it; and a user's
/// file whose example no longer holds is marked, naming why.
@Suite struct BundledExampleTests {
    let sandbox = Sandbox()

    static let typeKeys: [String] = {
        let directory = Sandbox.packageRoot + "/catalog/app-data"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test(arguments: typeKeys)
    func everyExampleHoldsAndEveryActionLinkHasTwo(type: String) throws {
        let output = sandbox.choosy("describe", type, "--json")
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        let described = try #require(Sandbox.jsonObject(output.stdout))
        for link in described["links"] as? [[String: Any]] ?? [] {
            let pattern = link["pattern"] as? String ?? "?"
            let examples = link["examples"] as? [[String: Any]] ?? []
            for example in examples {
                #expect(example["holds"] as? Bool == true, "\(pattern): \(example)")
            }
            guard type != "browser" else { continue }
            let taken = examples.filter { $0["action"] as? String == link["action"] as? String }
            #expect(
                examples.count >= 2 && !taken.isEmpty && taken.count < examples.count,
                "\(pattern) needs an example it takes and a near miss")
        }
    }

    @Test func atLeastSixteenServicesReachANativeApp() throws {
        var hosts: Set<String> = []
        for type in Self.typeKeys where type != "browser" {
            let described = try #require(Sandbox.jsonObject(sandbox.choosy("describe", type, "--json").stdout))
            for link in described["links"] as? [[String: Any]] ?? [] {
                let pattern = link["pattern"] as? String ?? ""
                let host = pattern.dropFirst("https://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
                // A service by its registrable name: `*.zoom.us` and `us02web.zoom.us` are Zoom.
                hosts.insert(host.split(separator: ".").suffix(2).joined(separator: "."))
            }
        }
        #expect(hosts.count >= 16, "\(hosts.sorted())")
    }

    @Test func describeMarksAUserExampleThatNoLongerHolds() throws {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/chat.json",
            """
            [{"key": "chat", "links": [
              {"action": "open_chat", "pattern": "https://chat.example.org/u/{{username:word}}", "apps": ["telegram_desktop"],
               "examples": [{"link": "https://chat.example.org/u/ada", "action": "open_chat", "parameters": {"username": "ada"}},
                            {"link": "https://chat.example.org/u/a-b", "action": "open_chat", "parameters": {"username": "a-b"}},
                            {"link": "https://chat.example.org/x", "browser": true},
                            {"link": "https://t.me/durov", "browser": true},
                            {"nope": 1}]},
              {"action": "open_chat", "pattern": "https://chat.example.org/v/{{username:colour}}"}
            ]}]
            """)
        let text = sandbox.choosy("describe", "chat")
        #expect(text.status == 0)
        #expect(text.stdout.contains("e.g. https://chat.example.org/u/ada → open_chat username=ada\n"), "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "e.g. https://chat.example.org/u/a-b → open_chat username=a-b (fails: no pattern takes it: it stays in the browser)"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "e.g. https://t.me/durov → the browser (fails: it is chat open_chat with username=durov, not the browser)"),
            "\(text.stdout)")
        // Bad input in a user file: one line each, naming the file and the link.
        let file = sandbox.configHome + "/choosy/catalog/chat.json"
        #expect(
            text.stderrLines.contains { $0.contains(file) && $0.contains("example 5 of 'https://chat.example.org/u/{{username:word}}'") },
            "\(text.stderr)")
        #expect(text.stderrLines.contains { $0.contains(file) && $0.contains("unknown kind 'colour'") }, "\(text.stderr)")
        let described = try #require(Sandbox.jsonObject(sandbox.choosy("describe", "chat", "--json").stdout))
        let link = try #require(
            (described["links"] as? [[String: Any]])?.first { $0["pattern"] as? String == "https://chat.example.org/u/{{username:word}}" })
        #expect((link["examples"] as? [[String: Any]])?.map { $0["holds"] as? Bool } == [true, false, true, false])
        // The other links still work.
        let program = sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
        #expect(sandbox.choosy("default", "chat", "telegram_desktop").status == 0)
        #expect(sandbox.choosy("handle", "https://chat.example.org/u/ada").status == 0)
        #expect(sandbox.launched(program) == [["--", "tg://resolve?domain=ada"]])
    }
}
