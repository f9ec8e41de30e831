import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Each family of web links in the bundled catalog (doc/links-and-rules.md, "Links in the catalog"), end to
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
        /// The app to make the type's default first: while a type has no default, the picker
        /// offers the browser beside the app (doc/links-and-rules.md, never worse than the browser).
        var defaultApp: (type: String, app: String)
        var testDescription: String { link }
    }

    static let families: [Family] = [
        Family(
            link: "https://us02web.zoom.us/j/85012345678?pwd=aBc123",
            install: { sandbox in
                sandbox.installZoom()
                return "zoom"
            }, argv: ["zoommtg://zoom.us/join?confno=85012345678&pwd=aBc123"], defaultApp: ("video_call", "zoom")),
        Family(
            link: "https://meet.jit.si/WeeklyChoosySync",
            install: { sandbox in
                sandbox.installJitsi()
                return "jitsi-meet"
            }, argv: ["--no-sandbox", "jitsi-meet://meet.jit.si/WeeklyChoosySync"], defaultApp: ("video_call", "jitsi_meet_desktop")),
        Family(
            link: "https://t.me/durov/123",
            install: { sandbox in
                sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
            }, argv: ["--", "tg://resolve?domain=durov&post=123"], defaultApp: ("chat", "telegram_desktop")),
        Family(
            link: "https://t.me/somebot?start=ref123",
            install: { sandbox in
                sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
            }, argv: ["--", "tg://resolve?domain=somebot&start=ref123"], defaultApp: ("chat", "telegram_desktop")),
        Family(
            link: "https://matrix.to/#/#room:matrix.org/$event:matrix.org",
            install: { sandbox in
                sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
            }, argv: ["matrix:r/room%3Amatrix.org/e/event%3Amatrix.org"], defaultApp: ("matrix", "nheko")),
        Family(
            link: "https://www.google.de/maps/search/Alexanderplatz+Berlin/",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "maps:q=Alexanderplatz%20Berlin"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://www.openstreetmap.org/#map=15/52.5170/13.3889",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "geo:52.5170,13.3889?z=15"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://meet.ffmuc.net/WeeklyChoosySync",
            install: { sandbox in
                sandbox.installJitsi()
                return "jitsi-meet"
            }, argv: ["--no-sandbox", "jitsi-meet://meet.ffmuc.net/WeeklyChoosySync"], defaultApp: ("video_call", "jitsi_meet_desktop")),
        Family(
            link: "https://t.me/durov",
            install: { sandbox in
                sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
            }, argv: ["--", "tg://resolve?domain=durov"], defaultApp: ("chat", "telegram_desktop")),
        Family(
            link: "https://matrix.to/#/%23choosy:matrix.org",
            install: { sandbox in
                sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
            }, argv: ["matrix:r/choosy%3Amatrix.org?action=join"], defaultApp: ("matrix", "nheko")),
        Family(
            link: "https://matrix.to/#/@alice:example.org",
            install: { sandbox in
                sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
            }, argv: ["matrix:u/alice%3Aexample.org?action=chat"], defaultApp: ("matrix", "nheko")),
        Family(
            link: "https://www.google.com/maps/@52.5200066,13.404954,14z",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "geo:52.5200066,13.404954"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://www.google.com/maps/search/?api=1&query=Brandenburger+Tor",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "maps:q=Brandenburger%20Tor"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=17/48.8584/2.2945",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "geo:48.8584,2.2945"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://www.openstreetmap.org/search?query=Eiffel%20Tower",
            install: { sandbox in
                sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")[0]
            }, argv: ["launch", "org.gnome.Maps", "maps:q=Eiffel%20Tower"], defaultApp: ("maps", "gnome_maps")),
        Family(
            link: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
            install: { sandbox in
                sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
            }, argv: ["--player-operation-mode=pseudo-gui", "--", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"],
            defaultApp: ("video", "mpv")),
        Family(
            link: "https://youtu.be/dQw4w9WgXcQ",
            install: { sandbox in
                sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
            }, argv: ["--player-operation-mode=pseudo-gui", "--", "https://youtu.be/dQw4w9WgXcQ"], defaultApp: ("video", "mpv")),
        // Forms the apps' own parsers read (issue 44): a Telegram flag, three via servers, a
        // point in Google's q= for Marble, a host label as the name.
        Family(
            link: "https://t.me/somebot?startgroup&admin=change_info",
            install: { sandbox in
                sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
            }, argv: ["--", "tg://resolve?domain=somebot&startgroup&admin=change_info"], defaultApp: ("chat", "telegram_desktop")),
        Family(
            link: "https://durov.t.me/123",
            install: { sandbox in
                sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
            }, argv: ["--", "tg://resolve?domain=durov&post=123"], defaultApp: ("chat", "telegram_desktop")),
        Family(
            link: "https://matrix.to/#/!abc:matrix.org?via=matrix.org&via=example.org&via=example.net",
            install: { sandbox in
                sandbox.installDebianEntry(package: "nheko", id: "nheko.desktop")[0]
            }, argv: ["matrix:roomid/abc%3Amatrix.org?via=matrix.org&via=example.org&via=example.net&action=join"],
            defaultApp: ("matrix", "nheko")),
        Family(
            // ZapZap's entry as the app ships it: Exec=zapzap %u, x-scheme-handler/whatsapp.
            link: "https://wa.me/15551234567?text=I%27m%20interested",
            install: { sandbox in
                sandbox.installApp(
                    "com.rtosta.zapzap.desktop", name: "ZapZap", program: "zapzap", mimeTypes: ["x-scheme-handler/whatsapp"])
                return "zapzap"
            }, argv: ["whatsapp://send?phone=15551234567&text=I%27m%20interested"], defaultApp: ("chat", "zapzap")),
        Family(
            link: "https://www.google.fr/maps?q=48.8584,2.2945",
            install: { sandbox in
                sandbox.installDebianEntry(package: "marble", id: "marble_geo.desktop")[0]
            }, argv: ["--geo-uri=geo:48.8584,2.2945"], defaultApp: ("maps", "marble")),
    ]

    @Test(arguments: families)
    func aLinkOpensInItsNativeAppWhenInstalled(family: Family) {
        let program = family.install(sandbox)
        #expect(sandbox.choosy("default", family.defaultApp.type, family.defaultApp.app).status == 0)
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

    /// Never worse than the browser (doc/links-and-rules.md): with no default, a single app that could take
    /// the link is not launched without asking; the browser is offered after it, per browser
    /// and profile; picking it *always* keeps the type's links there until `reset`.
    @Test func theBrowserIsOfferedBesideTheAppAndPickingItAlwaysKeepsLinksThere() throws {
        let mpv = sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium", mimeTypes: ["x-scheme-handler/https"])
        let link = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
        let first = sandbox.choosy(["handle", link], environment: ["PICK": "Firefox (web page) (always)"])
        #expect(first.status == 0, "\(first.stderr)")
        let lines = try #require(sandbox.pickerInvocations.last?.lines)
        #expect(lines.prefix(2) == ["mpv", "mpv (always)"], "\(lines)")
        #expect(lines.contains("Firefox (web page)") && lines.contains("Chromium (web page)"), "\(lines)")
        #expect(lines.firstIndex(of: "Firefox (web page)")! > lines.firstIndex(of: "mpv")!)
        #expect(sandbox.launched("firefox") == [[link]])
        // Remembered for the type's links: no picker, the browser (its own default or picker).
        let second = sandbox.choosy(["handle", "https://youtu.be/dQw4w9WgXcQ"], environment: ["PICK": "Firefox"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Set(sandbox.launched("firefox", count: 2)) == [[link], ["https://youtu.be/dQw4w9WgXcQ"]])
        #expect(sandbox.recordedRuns(mpv).isEmpty)
        #expect(sandbox.pickerInvocations.last?.lines.contains("mpv") == false)
        // `open` is not changed by it: mpv is still the only player.
        #expect(sandbox.choosy("open", "video", "play", "url=/tmp/a.mkv").status == 0)
        #expect(sandbox.launched(mpv) == [["--player-operation-mode=pseudo-gui", "--", "/tmp/a.mkv"]])
        // `reset video` forgets it: the picker asks again.
        #expect(sandbox.choosy("reset", "video").status == 0)
        let count = sandbox.pickerInvocations.count
        #expect(sandbox.choosy(["handle", link], environment: ["PICK": "mpv"]).status == 0)
        #expect(sandbox.pickerInvocations.count == count + 1)
        #expect(
            Set(sandbox.launched(mpv, count: 2)) == [
                ["--player-operation-mode=pseudo-gui", "--", "/tmp/a.mkv"], ["--player-operation-mode=pseudo-gui", "--", link],
            ])
    }

    /// A stock GNOME desktop: Firefox and GNOME Videos. Totem cannot stream a YouTube page, so
    /// the link opens in the browser, never in Totem; Parole as the default never gets it.
    @Test func aYouTubeLinkNeverGoesToAPlayerThatCannotStreamIt() {
        let totem = sandbox.installDebianEntry(package: "totem", id: "org.gnome.Totem.desktop")[0]
        let parole = sandbox.installDebianEntry(package: "parole", id: "org.xfce.Parole.desktop")[0]
        #expect(sandbox.choosy("default", "video", "parole").status == 0)
        let link = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
        let output = sandbox.choosy("handle", link)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [[link]])
        #expect(sandbox.recordedRuns(totem).isEmpty && sandbox.recordedRuns(parole).isEmpty)
    }

    /// With no picker to show, a link an app could take opens in the browser, as it would
    /// without choosy.
    @Test func withNoPickerTheLinkOpensInTheBrowser() {
        sandbox.overrides["CHOOSY_PICKER"] = "auto"
        let mpv = sandbox.installDebianEntry(package: "mpv", id: "mpv.desktop")[0]
        let output = sandbox.choosy("handle", "https://youtu.be/dQw4w9WgXcQ")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("firefox") == [["https://youtu.be/dQw4w9WgXcQ"]])
        #expect(sandbox.recordedRuns(mpv).isEmpty)
    }

    /// A choice is kept (doc/links-and-rules.md, issue 22 item 6): a web app, of another service
    /// too, opens the link as it is in the browser (SPEC §8.1: never a lossy rebuild), a native
    /// app that cannot do it is refused, never swapped.
    @Test func aChosenAppGetsTheLinkAsItCanTakeIt() {
        let link = "https://www.google.de/maps/search/Alexanderplatz+Berlin/"
        let forced = sandbox.choosy("handle", link, "--app", "openstreetmap_web")
        #expect(forced.status == 0, "\(forced.stderr)")
        sandbox.installDebianEntry(package: "gnome-maps", id: "org.gnome.Maps.desktop")
        let picked = sandbox.choosy(["handle", link], environment: ["PICK": "OpenStreetMap (web)"])
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(sandbox.launched("firefox", count: 2) == [[link], [link]])
        // Its own service's web app still gets the link as it is.
        let own = sandbox.dryRunBesideWhy([
            "handle", "https://www.google.com/maps/search/Alexanderplatz+Berlin/", "--app", "google_maps_web", "--dry-run",
        ])
        #expect(own.stdout == "firefox https://www.google.com/maps/search/Alexanderplatz+Berlin/\n", "\(own.stdout) \(own.stderr)")
        let directions = sandbox.choosy(
            "handle", "https://www.google.com/maps/dir/?api=1&origin=Berlin&destination=Potsdam", "--app", "gnome_maps")
        #expect(directions.status == 4)
        #expect(
            directions.stderrLines == [
                "choosy: GNOME Maps (gnome_maps) cannot get_directions this link; leave out --app to open it in the browser"
            ], "\(directions.stderr)")
        #expect(sandbox.launched("firefox", count: 2).count == 2)
    }

    @Test func dryRunJSONNamesTheTypeAndTheBrowser() throws {
        // With only X's web app, the browser takes the link itself.
        let direct = try #require(
            Sandbox.jsonObject(sandbox.dryRunBesideWhy(["handle", "https://x.com/choosyapp", "--dry-run", "--json"]).stdout))
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
        #expect(
            text.stdout.contains(
                "Links:\n  join_meeting     https://*.zoom.us/j/{{meeting_id:digits:9-11}}?pwd={{password}}&uname={{display_name}}  [only zoom]\n      e.g. https://us02web.zoom.us/j/85012345678?pwd=aBc123 → join_meeting meeting_id=85012345678 password=aBc123\n"
            ), "\(text.stdout)")

        let described = try #require(Sandbox.jsonObject(sandbox.choosy("describe", "video", "--json").stdout))
        let links = try #require(described["links"] as? [[String: Any]])
        let youtube = try #require(links.first { $0["pattern"] as? String == "https://youtu.be/{{_}}" })
        #expect(youtube["action"] as? String == "play" && youtube["link_param"] as? String == "url")
        #expect(youtube["apps"] as? [String] == ["mpv", "celluloid", "haruna", "smplayer", "freetube"])

        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(sandbox.choosy("list", "chat", "--json").stdout.utf8)) as? [[String: Any]])
        let chatLinks = try #require(listed.first?["links"] as? [[String: Any]])
        let username = try #require(
            chatLinks.first {
                $0["pattern"] as? String
                    == "https://t.me/{{username:word:5-32}}?start={{start}}&text={{text}}"
            })
        #expect(username["apps"] as? [String] == ["telegram_desktop"])
        #expect(
            chatLinks.last?["pattern"] as? String == "https://api.whatsapp.com/send?phone={{phone_number:digits:7-15!}}&text={{text}}"
                && chatLinks.last?["apps"] as? [String] == ["zapzap"])
    }

    /// A user's catalog adds a link; an invalid pattern there is named and the rest still works.
    @Test func aUserLinkRoutesAndAnInvalidOneIsNamed() {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/chat.json",
            """
            [{"key": "chat", "links": [
              {"action": "open_chat", "pattern": "https://chat.example.org/u/{{username}}", "apps": ["telegram_desktop"]},
              {"action": "open_chat", "pattern": "https://chat.example.org/{{a}}{{b}}"}
            ]}]
            """)
        let program = sandbox.installDebianEntry(package: "telegram-desktop", id: "org.telegram.desktop.desktop")[0]
        #expect(sandbox.choosy("default", "chat", "telegram_desktop").status == 0)
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
        desktopEntry(
            "Zoom.desktop",
            application(
                name: "Zoom Workplace", exec: recorder("zoom") + " %U",
                "Terminal=false\nMimeType=x-scheme-handler/zoommtg;x-scheme-handler/zoomus;x-scheme-handler/tel;x-scheme-handler/callto;x-scheme-handler/zoomphonecall;application/x-zoom\n"
            ), directory: dataDir + "/applications")
    }

    func installJitsi() {
        // As the jitsi-meet-electron .deb ships it.
        desktopEntry(
            "jitsi-meet.desktop",
            application(
                name: "Jitsi Meet", exec: recorder("jitsi-meet") + " --no-sandbox %U",
                "Terminal=false\nMimeType=x-scheme-handler/jitsi-meet;\n"
            ), directory: dataDir + "/applications")
    }
}
