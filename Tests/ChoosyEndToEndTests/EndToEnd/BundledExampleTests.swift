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

    /// A bundled type file, as written.
    static func typeFile(_ type: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: Sandbox.packageRoot + "/catalog/app-data/\(type).json"))
        return try #require((try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first)
    }

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

    /// Each example a link takes says, byte for byte, the URL every native app that may take
    /// it gets (`urls`: the link's `apps`, or the type's, that support the action), as the
    /// app's own parser reads it (the link's `note` says where).
    @Test(arguments: typeKeys)
    func everyExampleGivesEachNativeAppItsURL(type: String) throws {
        let file = try Self.typeFile(type)
        let apps = file["apps"] as? [[String: Any]] ?? []
        for link in file["links"] as? [[String: Any]] ?? [] where type != "browser" {
            let pattern = link["pattern"] as? String ?? "?"
            let allowed = link["apps"] as? [String] ?? apps.compactMap { $0["key"] as? String }
            for example in link["examples"] as? [[String: Any]] ?? [] {
                guard let action = example["action"] as? String else { continue }
                let parameters = example["parameters"] as? [String: String] ?? [:]
                var built: [String: String] = [:]
                for app in apps {
                    guard let key = app["key"] as? String, allowed.contains(key),
                        let scheme = app["app_url_scheme"] as? String, !scheme.lowercased().hasPrefix("http"),
                        let format = (app["actions"] as? [[String: Any]])?.first(where: { $0["key"] as? String == action })?["url_format"]
                            as? String
                    else { continue }
                    built[key] = URLTemplate(format).fill(parameters)
                }
                let expected = example["urls"] as? [String: String]
                #expect(expected == built, "\(pattern): \(example["link"] ?? "?")")
            }
        }
    }

    /// At least 24 services reach a native app (doc/links-and-rules.md): for each, a real link
    /// from its own pages that a bundled link takes, as its example says, for an app that is
    /// not a web app.
    static let services: [(service: String, link: String)] = [
        ("Zoom", "https://us02web.zoom.us/j/85012345678?pwd=aBc123"),
        ("Jitsi Meet", "https://meet.jit.si/WeeklyChoosySync"),
        ("Microsoft Teams", "https://teams.microsoft.com/meet/2345678901234?p=AbCdEf"),
        ("Telegram", "https://t.me/durov"),
        ("Signal", "https://signal.me/#p/+4915123456789"),
        ("WhatsApp", "https://wa.me/15551234567"),
        ("Matrix", "https://matrix.to/#/#choosy:matrix.org"),
        ("Element", "https://app.element.io/#/room/#element-web:matrix.org"),
        ("Discord", "https://discord.gg/Ab3dEf"),
        ("Slack", "https://app.slack.com/client/T0123ABCD/C0456EFGH"),
        ("Google Maps", "https://www.google.fr/maps/@48.8583701,2.2944813,17z"),
        ("OpenStreetMap", "https://www.openstreetmap.org/#map=15/52.5170/13.3889"),
        ("Apple Maps", "https://maps.apple.com/?ll=50.894967,4.341626&q=Atomium"),
        ("Bing Maps", "https://www.bing.com/maps?cp=47.677797~-122.122013&lvl=12"),
        ("Waze", "https://waze.com/ul?ll=45.6906304,-120.810983&navigate=yes"),
        ("Yandex Maps", "https://yandex.com/maps/?pt=37.617635,55.755814&z=16"),
        ("HERE WeGo", "https://share.here.com/l/52.5308,13.3847,HERE%20Berlin"),
        ("YouTube", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"),
        ("Vimeo", "https://vimeo.com/76979871"),
        ("Twitch", "https://www.twitch.tv/gamesdonequick"),
        ("Dailymotion", "https://www.dailymotion.com/video/x8abcde"),
        ("SoundCloud", "https://soundcloud.com/forss/flickermood"),
        ("Bilibili", "https://www.bilibili.com/video/BV1bK411W797"),
        ("Rumble", "https://rumble.com/v24238e-the-first-rumble-video.html"),
        ("Spotify", "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc"),
        ("Steam", "https://store.steampowered.com/app/620"),
    ]

    @Test func atLeastTwentyFourServicesReachANativeApp() throws {
        #expect(Set(Self.services.map(\.service)).count >= 24)
        var taken: [String: (apps: [String], native: Set<String>)] = [:]
        for type in Self.typeKeys where type != "browser" {
            let file = try Self.typeFile(type)
            let native = Set(
                (file["apps"] as? [[String: Any]] ?? []).filter { !(($0["app_url_scheme"] as? String) ?? "http").hasPrefix("http") }
                    .compactMap { $0["key"] as? String })
            let described = try #require(Sandbox.jsonObject(sandbox.choosy("describe", type, "--json").stdout))
            for link in described["links"] as? [[String: Any]] ?? [] {
                let apps = link["apps"] as? [String] ?? Array(native)
                for example in link["examples"] as? [[String: Any]] ?? []
                where example["action"] as? String == link["action"] as? String && example["holds"] as? Bool == true {
                    taken[example["link"] as? String ?? ""] = (apps, native)
                }
            }
        }
        for (service, link) in Self.services {
            let found = try #require(taken[link], "\(service): no bundled link takes \(link) as its example says")
            #expect(!Set(found.apps).isDisjoint(with: found.native), "\(service): \(link) reaches no native app")
        }
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
