import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

@Suite struct DesktopEntryParserTests {
    private func parse(_ text: String) -> DesktopEntry? {
        DesktopEntryParser.parse(Array(text.utf8), id: "test.desktop", path: "/x/test.desktop")
    }

    @Test func readsKeysLocalizedKeysAndEscapes() throws {
        let entry = try #require(
            parse(
                """
                # a comment
                [Desktop Entry]
                Type = Application
                Name=Viewer
                Name[de]=Betrachter
                Name[sr_RS.UTF-8@latin]=Pregledač
                Comment=\\sleading space\\ttab\\nnewline\\rreturn\\\\backslash \\q kept
                MimeType=x-scheme-handler/foo;text/a\\;b;text/c\\\\;;
                NoDisplay=true

                [Desktop Action new]
                Name=Other group
                """))
        #expect(entry.type == "Application")
        #expect(entry.name == "Viewer")
        #expect(entry.keys["Name[de]"] == "Betrachter")
        // The encoding part of a key's locale is dropped: matching ignores it.
        #expect(entry.keys["Name[sr_RS@latin]"] == "Pregledač")
        #expect(entry.value("Comment") == " leading space\ttab\nnewline\rreturn\\backslash \\q kept")
        #expect(entry.mimeTypes == ["x-scheme-handler/foo", "text/a;b", "text/c\\"])
        #expect(entry.boolean("NoDisplay"))
        #expect(!entry.isHidden)
        #expect(entry.handles("X-Scheme-Handler/FOO"))
    }

    @Test func parsingSomeKeysKeepsTheirValuesAndChecksEveryLine() throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Name=Viewer
            MimeType=text/plain;
            [Desktop Action new]
            Type=Other group
            [Desktop Entry]
            MimeType=x-scheme-handler/foo;

            """
        let some = try #require(
            DesktopEntryParser.parse(Array(text.utf8), id: "t.desktop", path: "/x/t.desktop", keeping: ["Type", "MimeType"]))
        // A repeated group adds to the first, as when all keys are parsed.
        #expect(some.keys == ["Type": "Application", "MimeType": "x-scheme-handler/foo;"])
        #expect(some.keys == parse(text)?.keys.filter { ["Type", "MimeType"].contains($0.key) })
        #expect(some.actions.isEmpty)
        // A malformed line after the kept keys still refuses the file.
        for junk in ["no equals sign\n", "Key[]=x\n", "Bad\u{7F}=x\n"] {
            #expect(
                DesktopEntryParser.parse(Array((text + junk).utf8), id: "t.desktop", path: "/x/t.desktop", keeping: ["Type"]) == nil,
                "\(junk)")
        }
    }

    /// A localized key is kept by its normal form, as parsing all stores it: `Name[de.]` and
    /// `Name[de.UTF-8]` are `Name[de]`, the last one written wins (the fuzz target's find,
    /// fuzz/corpus/desktop-entry).
    @Test func parsingSomeKeysKeepsLocalizedKeysByTheirNormalForm() throws {
        for text in [
            "[Desktop Entry]\nName[de.]=", "[Desktop Entry]\nName[de]=a\nName[de.UTF-8]=b\nName[fr]=c",
            "[Desktop Entry]\nName[de.UTF-8]=b\nName[de]=a\nNäme[de.x]=d\nName[sr.UTF-8@latin]=e",
        ] {
            let kept = ["Name[de]", "Name[sr@latin]", "Näme[de]"]
            let some = DesktopEntryParser.parse(Array(text.utf8), id: "t.desktop", path: "/x/t.desktop", keeping: kept)
            #expect(some?.keys == parse(text)?.keys.filter { kept.contains($0.key) }, "\(text)")
            #expect(some?.keys.isEmpty == false, "\(text)")
        }
    }

    @Test func acceptsCRLFLineEndings() throws {
        let entry = try #require(parse("[Desktop Entry]\r\nName=Crlf\r\nExec=app %u\r\n"))
        #expect(entry.name == "Crlf")
        #expect(entry.exec == "app %u")
    }

    @Test(arguments: [
        ("no group", "Name=Orphan\nExec=app\n"),
        ("other group only", "[Desktop Action x]\nExec=app\n"),
        ("junk line", "[Desktop Entry]\nthis is not a key\n"),
        ("broken header", "[Desktop Entry\nExec=app\n"),
        ("NUL byte", "[Desktop Entry]\nExec=app\u{0}\n"),
        ("escape character", "[Desktop Entry]\nName=\u{1B}[31mred\n"),
        ("C1 control code", "[Desktop Entry]\nName=\u{9B}31mred\n"),
        ("empty key", "[Desktop Entry]\n=value\n"),
    ])
    func rejectsMalformedText(_ label: String, _ text: String) {
        #expect(parse(text) == nil, "\(label)")
    }

    @Test func rejectsInvalidUTF8() {
        let bytes = Array("[Desktop Entry]\nName=".utf8) + [0xC3, 0x28, 0xFF, 0x0A]
        #expect(DesktopEntryParser.parse(bytes, id: "a.desktop", path: "/a.desktop") == nil)
    }

    @Test func rejectsOverlongLines() {
        let long = "[Desktop Entry]\nExec=app\nComment=" + String(repeating: "x", count: KeyFile.lineLimit + 1) + "\n"
        #expect(parse(long) == nil)
        let fine = "[Desktop Entry]\nExec=app\nComment=" + String(repeating: "x", count: 10_000) + "\n"
        #expect(parse(fine) != nil)
    }

    @Test func survivesRandomBytes() {
        var generator = SeededGenerator(seed: 42)
        for length in [0, 1, 7, 100, 4096] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                // Random bytes are never a desktop entry, and must not trap.
                #expect(DesktopEntryParser.parse(bytes, id: "r.desktop", path: "/r.desktop") == nil)
            }
        }
        // Mostly printable junk, with the header in front, must not crash either.
        let alphabet = Array("[]=#\\;\n abcXYZ%\"'".utf8)
        for _ in 0..<200 {
            let bytes =
                Array("[Desktop Entry]\n".utf8) + (0..<200).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            _ = DesktopEntryParser.parse(bytes, id: "r.desktop", path: "/r.desktop")
        }
    }

    @Test func doesNotReadHugeFilesOrNonRegularFiles() throws {
        let sandbox = Sandbox()
        let huge = sandbox.root + "/huge.desktop"
        let contents = "[Desktop Entry]\nExec=app\nComment=" + String(repeating: "y", count: 2 << 20) + "\n"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: huge))
        #expect(DesktopEntryParser.read(huge, id: "huge.desktop", fileSystem: LocalFileSystem()) == nil)

        let fifo = sandbox.root + "/fifo.desktop"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(DesktopEntryParser.read(fifo, id: "fifo.desktop", fileSystem: LocalFileSystem()) == nil)

        let good = sandbox.write("good.desktop", "[Desktop Entry]\nType=Application\nExec=app\n")
        #expect(DesktopEntryParser.read(good, id: "good.desktop", fileSystem: LocalFileSystem())?.exec == "app")
    }

    @Test func keyFileListsAndEscapes() {
        #expect(KeyFile.list("a;b;;c;") == ["a", "b", "c"])
        #expect(KeyFile.list("a\\;b;c") == ["a;b", "c"])
        #expect(KeyFile.list("a\\\\;b") == ["a\\", "b"])
        #expect(KeyFile.list("x\\sy;") == ["x y"])
        #expect(KeyFile.unescape("a\\") == "a\\")
    }
}

/// A small deterministic generator (SplitMix64), so fuzz cases are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

@Suite struct KeyFileKeyTests {
    @Test func localeSuffixesLoseTheirEncoding() {
        let file = KeyFile(
            parsing: Array("[G]\nName[de.UTF-8]=a\nName[sr.UTF-8@latin]=b\nName[de@x.y]=c\nX-Key_1=d\nName[ja]=e\nKey[ü.UTF-8]=f\n".utf8))
        #expect(
            file?.groups["G"] == [
                "Name[de]": "a", "Name[sr@latin]": "b", "Name[de@x]": "c", "X-Key_1": "d", "Name[ja]": "e", "Key[ü]": "f",
            ])
    }

    @Test(arguments: ["Name[", "Name[]", "[de]", "Name[de]x", "Name[d[e]", "Name[d]e]", "Name]", "Na me", "Näme]", "[ü]"])
    func malformedKeysRejectTheFile(_ key: String) {
        #expect(KeyFile(parsing: Array("[G]\n\(key)=v\n".utf8)) == nil)
    }
}

/// `[Desktop Action …]` groups (Desktop Entry spec, "Additional applications actions").
@Suite struct DesktopActionTests {
    func entry(_ text: String) throws -> DesktopEntry {
        try #require(DesktopEntryParser.parse(Array(text.utf8), id: "b.desktop", path: "/b.desktop"))
    }

    @Test func actionsAreTheListedGroupsInTheirOrder() throws {
        let browser = try entry(
            """
            [Desktop Entry]
            Type=Application
            Name=B
            Exec=b %u
            Actions=new-window;missing;new-private-window;

            [Desktop Action new-private-window]
            Name=New Private Window
            Name[de]=Neues privates Fenster
            Exec=b --private-window %u

            [Desktop Action unlisted]
            Name=Private, but not listed
            Exec=b --unlisted

            [Desktop Action new-window]
            Name=New Window
            Exec=b --new-window
            """)
        #expect(browser.actions.map(\.key) == ["new-window", "new-private-window"])
        #expect(browser.actions.map(\.name) == ["New Window", "New Private Window"])
        #expect(browser.privateWindowAction?.exec == "b --private-window %u")
    }

    @Test func thePrivateActionIsFoundByKeyOrUntranslatedName() throws {
        let byKey = try entry(
            "[Desktop Entry]\nExec=c\nActions=NewWindow;Incognito;\n[Desktop Action NewWindow]\nExec=c\n[Desktop Action Incognito]\nName=Open a new window\nExec=c --incognito\n"
        )
        #expect(byKey.privateWindowAction?.key == "Incognito")
        let byName = try entry(
            "[Desktop Entry]\nExec=c\nActions=a;b;\n[Desktop Action a]\nName[fr]=Fenêtre privée\nName=Other\nExec=c -a\n[Desktop Action b]\nName=Open a PRIVATE window\nExec=c -b\n"
        )
        #expect(byName.privateWindowAction?.key == "b")
        // One without an Exec cannot start anything.
        let noExec = try entry("[Desktop Entry]\nExec=c\nActions=private;\n[Desktop Action private]\nName=Private\n")
        #expect(noExec.actions.count == 1 && noExec.privateWindowAction == nil)
        #expect(try entry("[Desktop Entry]\nExec=c\n").actions.isEmpty)
    }
}
