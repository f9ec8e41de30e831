import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `choosy why` end to end (SPEC §7.1, doc/choosy.1): real desktop entries for each reason an app
/// is not a candidate, the answer beside the dry run it explains, and nothing launched or written.
@Suite struct WhyTests {
    let sandbox = Sandbox()

    /// A type of the user's catalog whose apps each miss being a candidate in their own way.
    init() {
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/notes.json",
            """
            [{"name": "Notes", "key": "notes", "schemes": ["notes"],
              "parameters": [{"name": "Text", "key": "text", "description": "the note"}],
              "actions": [{"name": "New note", "key": "new"}, {"name": "Show", "key": "show"}],
              "apps": [
                {"name": "Jotter", "key": "jotter", "app_url_scheme": "jotter:", "desktop_ids": ["jotter.desktop"],
                 "actions": [{"key": "new", "url_format": "jotter://new?text={{text}}"}]},
                {"name": "Scribble", "key": "scribble", "app_url_scheme": "scribble:", "desktop_ids": ["scribble.desktop"],
                 "actions": [{"key": "show", "url_format": "scribble://show"}]},
                {"name": "Quill", "key": "quill", "app_url_scheme": "quill:", "desktop_ids": ["quill.desktop", "org.example.Quill.desktop"],
                 "actions": [{"key": "new", "url_format": "quill://new?text={{text}}"}]},
                {"name": "Inkling", "key": "inkling", "app_url_scheme": "inkling:", "desktop_ids": ["inkling.desktop"],
                 "actions": [{"key": "new", "url_format": "inkling://new"}]},
                {"name": "Pencil", "key": "pencil", "app_url_scheme": "pencil:", "desktop_ids": ["pencil.desktop"],
                 "actions": [{"key": "new", "url_format": "pencil://new"}]},
                {"name": "Marker", "key": "marker", "app_url_scheme": "marker:", "desktop_ids": ["marker.desktop"],
                 "actions": [{"key": "new", "url_format": "marker://new"}]},
                {"name": "Crayon", "key": "crayon", "app_url_scheme": "crayon:", "desktop_ids": ["crayon.desktop"],
                 "actions": [{"key": "new", "url_format": "crayon://new"}]}
              ]}]
            """)
        sandbox.installApp("jotter.desktop", name: "Jotter", program: "jotter", extra: "OnlyShowIn=KDE;\n")
        sandbox.installApp("scribble.desktop", name: "Scribble", program: "scribble")
        sandbox.installApp("inkling.desktop", name: "Inkling", program: "inkling", extra: "Hidden=true\n")
        sandbox.installApp("pencil.desktop", name: "Pencil", program: "pencil", extra: "TryExec=no-such-pencil\n")
        sandbox.recorder("marker")
        sandbox.desktopEntry("marker.desktop", sandbox.application(name: "Marker", exec: "marker %z"))
        // A usable copy in the system's directory, hidden by the user's own copy.
        sandbox.recorder("crayon")
        sandbox.desktopEntry(
            "crayon.desktop", sandbox.application(name: "Crayon", exec: "crayon %u"), directory: sandbox.dataDir + "/applications")
        sandbox.desktopEntry("crayon.desktop", sandbox.application(name: "Crayon", exec: "crayon %u", "Hidden=true\n"))
        // A handler of the type's scheme that the user's mimeapps.list takes away.
        sandbox.installApp("stylus.desktop", name: "Stylus", program: "stylus", mimeTypes: ["x-scheme-handler/notes"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Removed Associations]\nx-scheme-handler/notes=stylus.desktop;\n")
    }

    private func explained(_ arguments: String...) throws -> [String: Any] {
        let output = sandbox.choosy(["why"] + arguments + ["--json"])
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(Sandbox.jsonObject(output.stdout), "\(output.stdout)")
    }

    private func reasons(_ plan: [String: Any]) -> [String: String] {
        let others = plan["not_candidates"] as? [[String: Any]] ?? []
        return Dictionary(others.map { ($0["key"] as? String ?? "", $0["reason"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    @Test func everyReasonAnAppIsNotACandidate() throws {
        let plan = try explained("notes", "new", "text=hi")
        #expect(
            reasons(plan) == [
                "scribble": "no_support", "quill": "not_installed", "inkling": "hidden", "pencil": "try_exec", "marker": "invalid_exec",
                "crayon": "shadowed", "stylus": "association_removed",
            ])
        let others = try #require(plan["not_candidates"] as? [[String: Any]])
        let quill = try #require(others.first { $0["key"] as? String == "quill" })
        #expect(quill["desktop_ids"] as? [String] == ["quill.desktop", "org.example.Quill.desktop"])
        let crayon = try #require(others.first { $0["key"] as? String == "crayon" })
        #expect((crayon["detail"] as? String)?.contains(sandbox.dataDir + "/applications/crayon.desktop") == true, "\(crayon)")
        // OnlyShowIn only hides an entry from menus: Jotter stays a candidate, and is the only one.
        let candidates = try #require(plan["candidates"] as? [[String: Any]])
        #expect(candidates.map { $0["key"] as? String } == ["jotter"])
        #expect((candidates.first?["why"] as? String)?.contains("OnlyShowIn") == true)
        #expect(plan["decided_by"] as? String == "only")
        #expect(plan["app"] as? String == "jotter" && plan["url"] as? String == "jotter://new?text=hi")
        #expect(plan["argv"] as? [String] == ["jotter", "jotter://new?text=hi"])
    }

    @Test func theTextSaysTheSame() {
        let output = sandbox.choosy("why", "notes", "new", "text=hi")
        #expect(output.status == 0, "\(output.stderr)")
        for line in [
            "type: Notes (notes), action new", "found: as named", "  1. jotter  Jotter (chosen)",
            "  quill  Quill  not installed: quill.desktop was looked for and not found; org.example.Quill.desktop was looked for and not found",
            "  inkling  Inkling  not installed: inkling.desktop is Hidden=true", "decided by: only: ", "app: jotter",
            "url: jotter://new?text=hi", "argv: jotter 'jotter://new?text=hi'",
        ] {
            #expect(output.stdout.contains(line), "\(line)\n\(output.stdout)")
        }
    }

    @Test func whyAndTheDryRunAgreeAndWhyLaunchesAndWritesNothing() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.dryRunBesideWhy(["open", "notes", "new", "text=hi", "--dry-run"])
        sandbox.dryRunBesideWhy(["handle", "https://example.org/a?b=c", "--dry-run"])
        sandbox.dryRunBesideWhy(["handle", "https://x.com/choosyapp", "--dry-run"])
        sandbox.dryRunBesideWhy(["handle", "notes:whatever", "--dry-run", "--app", "scribble"])
        #expect(sandbox.recordedRuns("jotter").isEmpty && sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func aChoiceStillToMakeNamesThePickerAndWhatItWouldWrite() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        let before = sandbox.writtenFiles
        let plan = try explained("https://example.org/")
        #expect(plan["decided_by"] as? String == "picker")
        #expect((plan["candidates"] as? [[String: Any]])?.map { $0["key"] as? String } == ["firefox", "chromium"])
        #expect(plan["argv"] as? [String] == [])
        #expect(sandbox.writtenFiles == before)
    }

    @Test func aLinkOfTheTypesFamilyNamesTheAppsThatMayTakeIt() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installDebianEntry(package: "totem", id: "org.gnome.Totem.desktop")
        let plan = try explained("https://youtu.be/dQw4w9WgXcQ")
        #expect(reasons(plan)["gnome_videos"] == "not_for_link", "\(plan)")
        #expect(plan["app"] as? String == "firefox")
    }
}
