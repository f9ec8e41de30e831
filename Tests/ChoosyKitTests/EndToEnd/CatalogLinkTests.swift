import ChoosyKit
import Foundation
import Testing

/// Each family of web links in the bundled catalog (README, "Links in the catalog"), end to
/// end: with its native app installed (Debian's own desktop entries where Debian packages it,
/// else the entry the vendor ships), `handle` gives that app the action's URL; without it, the
/// browser gets the link exactly as it was.
@Suite struct CatalogLinkTests {
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
    }

    struct Family: CustomTestStringConvertible, Sendable {
        var link: String
        /// Installs the native app; returns the recorder that sees its runs.
        var install: @Sendable (Sandbox) -> String
        /// What that recorder receives.
        var argv: [String]
        /// The app to make the type's default first, when the type also has web apps (which
        /// would otherwise be offered in a picker beside it).
        var defaultApp: (type: String, app: String)?
        var testDescription: String { link }
    }

    static let families: [Family] = [
        Family(link: "https://us02web.zoom.us/j/85012345678?pwd=aBc123", install: { sandbox in
            sandbox.installZoom(); return "zoom"
        }, argv: ["zoommtg://zoom.us/join?confno=85012345678&pwd=aBc123"]),
        Family(link: "https://meet.jit.si/WeeklyChoosySync", install: { sandbox in
            sandbox.installJitsi(); return "jitsi-meet"
        }, argv: ["--no-sandbox", "jitsi-meet://WeeklyChoosySync"]),
        Family(link: "https://t.me/durov", install: { sandbox in
            sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
        }, argv: ["--", "tg://resolve?domain=durov"]),
        Family(link: "https://matrix.to/#/%23choosy:matrix.org", install: { sandbox in
            sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
        }, argv: ["matrix:r/choosy%3Amatrix.org?action=join"], defaultApp: ("matrix", "nheko")),
        Family(link: "https://matrix.to/#/@alice:example.org", install: { sandbox in
            sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
        }, argv: ["matrix:u/alice%3Aexample.org?action=chat"], defaultApp: ("matrix", "nheko")),
        Family(link: "https://www.google.com/maps/@52.5200066,13.404954,14z", install: { sandbox in
            sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
        }, argv: ["launch", "org.gnome.Maps", "geo:52.5200066,13.404954"], defaultApp: ("maps", "gnome_maps")),
        Family(link: "https://www.google.com/maps/search/?api=1&query=Brandenburger+Tor", install: { sandbox in
            sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
        }, argv: ["launch", "org.gnome.Maps", "maps:q=Brandenburger%20Tor"], defaultApp: ("maps", "gnome_maps")),
        Family(link: "https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=17/48.8584/2.2945", install: { sandbox in
            sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
        }, argv: ["launch", "org.gnome.Maps", "geo:48.8584,2.2945"], defaultApp: ("maps", "gnome_maps")),
        Family(link: "https://www.openstreetmap.org/search?query=Eiffel%20Tower", install: { sandbox in
            sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
        }, argv: ["launch", "org.gnome.Maps", "maps:q=Eiffel%20Tower"], defaultApp: ("maps", "gnome_maps")),
        Family(link: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", install: { sandbox in
            sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
        }, argv: ["--player-operation-mode=pseudo-gui", "--", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"]),
        Family(link: "https://youtu.be/dQw4w9WgXcQ", install: { sandbox in
            sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
        }, argv: ["--player-operation-mode=pseudo-gui", "--", "https://youtu.be/dQw4w9WgXcQ"]),
    ]

    @Test(arguments: families)
    func aLinkOpensInItsNativeAppWhenInstalled(family: Family) {
        let program = family.install(sandbox)
        if let (type, app) = family.defaultApp { #expect(sandbox.choosy("default", type, app).status == 0) }
        let output = sandbox.choosy("handle", family.link, "-v")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("by the pattern https://"), "\(output.stderr)")
        #expect(sandbox.launched(program) == [family.argv])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test(arguments: families)
    func aLinkOpensInTheBrowserUnchangedWithoutItsApp(family: Family) {
        let output = sandbox.choosy("handle", family.link)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[family.link]])
        #expect(sandbox.pickerInvocations.isEmpty)
    }

    /// A Zoom meeting id means nothing to Jitsi: with only Jitsi installed, the Zoom link goes
    /// to the browser, never to Jitsi.
    @Test func aLinkForOneAppIsNeverGivenToAnotherOfItsType() {
        sandbox.installJitsi()
        #expect(sandbox.choosy("handle", "https://zoom.us/j/123").status == 0)
        #expect(sandbox.launched("firefox") == [["https://zoom.us/j/123"]])
        #expect(sandbox.recordedRuns("jitsi-meet").isEmpty)
    }

    /// Choosing the web app of the type (here, after the native one) opens the original link.
    @Test func theWebAppOfTheTypeOpensTheOriginalLink() {
        sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")
        let link = "https://matrix.to/#/#choosy:matrix.org?via=matrix.org"
        let output = sandbox.choosy(["handle", link], environment: ["PICK": "matrix.to (web)"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines.contains("Nheko") == true, "\(sandbox.pickerInvocations)")
        #expect(sandbox.launched("firefox") == [[link]])
        #expect(sandbox.recordedRuns("nheko").isEmpty)
    }

    @Test func dryRunJSONNamesTheTypeAndTheBrowser() throws {
        // With only X's web app, the browser takes the link itself.
        let direct = try #require(Sandbox.jsonObject(sandbox.choosy("handle", "https://x.com/choosyapp", "--dry-run", "--json").stdout))
        #expect(direct["type"] as? String == "browser" && direct["app"] as? String == "firefox")
        #expect(direct["url"] as? String == "https://x.com/choosyapp")
        // A web app picked beside a native one names the browser that opens the link.
        sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")
        let link = "https://matrix.to/#/@alice:example.org"
        let output = sandbox.choosy(["handle", link, "--dry-run", "--json"], environment: ["PICK": "matrix.to (web)"])
        let picked = try #require(Sandbox.jsonObject(output.stdout), "\(output.stderr)")
        #expect(picked["type"] as? String == "matrix" && picked["app"] as? String == "matrix_to_web")
        #expect(picked["url"] as? String == link)
        #expect((picked["via"] as? [String: String])?["app"] == "firefox")
    }

    @Test func describeAndListShowATypesLinks() throws {
        let text = sandbox.choosy("describe", "video_call")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Links:\n  join_meeting  https://*.zoom.us/j/{{meeting_id}}?pwd={{password}}  [only zoom]"), "\(text.stdout)")

        let described = try #require(Sandbox.jsonObject(sandbox.choosy("describe", "video", "--json").stdout))
        let links = try #require(described["links"] as? [[String: Any]])
        let youtube = try #require(links.first { $0["pattern"] as? String == "https://youtu.be/{{_}}" })
        #expect(youtube["action"] as? String == "play" && youtube["link_param"] as? String == "url" && youtube["apps"] is NSNull)

        let listed = try #require(try JSONSerialization.jsonObject(with: Data(sandbox.choosy("list", "chat", "--json").stdout.utf8)) as? [[String: Any]])
        let chatLinks = try #require(listed.first?["links"] as? [[String: Any]])
        #expect(chatLinks.map { $0["pattern"] as? String } == ["https://t.me/{{username}}", "https://telegram.me/{{username}}"])
        #expect(chatLinks.first?["apps"] as? [String] == ["telegram_desktop"])
    }

    /// A user's catalog adds a link; an invalid pattern there is named and the rest still works.
    @Test func aUserLinkRoutesAndAnInvalidOneIsNamed() {
        sandbox.write(sandbox.configHome + "/choosy/catalog/chat.json", """
            [{"key": "chat", "links": [
              {"action": "open_chat", "pattern": "https://chat.example.org/u/{{username}}", "apps": ["telegram_desktop"]},
              {"action": "open_chat", "pattern": "https://chat.example.org/{{a}}{{b}}"}
            ]}]
            """)
        let program = sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
        let output = sandbox.choosy("handle", "https://chat.example.org/u/ada")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderrLines.count == 1)
        #expect(output.stderr.contains("chat.json: ignoring link 'https://chat.example.org/{{a}}{{b}}'"), "\(output.stderr)")
        #expect(sandbox.launched(program) == [["--", "tg://resolve?domain=ada"]])
    }
}

extension Sandbox {
    func installZoom() {
        // As Zoom's own .deb ships it.
        desktopEntry("Zoom.desktop", application(
            name: "Zoom Workplace", exec: recorder("zoom") + " %U",
            "Terminal=false\nMimeType=x-scheme-handler/zoommtg;x-scheme-handler/zoomus;x-scheme-handler/tel;x-scheme-handler/callto;x-scheme-handler/zoomphonecall;application/x-zoom\n"
        ), directory: dataDir + "/applications")
    }

    func installJitsi() {
        // As the jitsi-meet-electron .deb ships it.
        desktopEntry("jitsi-meet.desktop", application(
            name: "Jitsi Meet", exec: recorder("jitsi-meet") + " --no-sandbox %U",
            "Terminal=false\nMimeType=x-scheme-handler/jitsi-meet;\n"
        ), directory: dataDir + "/applications")
    }
}
