import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The readers of the shared-mime-info files on what update-mime-database does not write
/// (GIO's agreement on what it writes is MimeTypeGIODifferentialTests'), and how often the
/// database's files are read.
@Suite struct MimeDatabaseTests {
    static let header = MimeMagic.header

    /// A database of one directory, `$XDG_DATA_HOME/mime`, holding `files`.
    static func database(_ files: [String: [UInt8]]) -> (MimeDatabase, FakeFileSystem) {
        let fileSystem = FakeFileSystem()
        for (name, bytes) in files { try! fileSystem.writeAtomically(bytes, to: "/home/.local/share/mime/" + name, permissions: 0o644) }
        let environment = Environment(["HOME": "/home", "XDG_DATA_DIRS": "/nowhere"])
        return (MimeDatabase(environment: environment, fileSystem: fileSystem), fileSystem)
    }

    @Test func globLinesAreReadAsTheSpecWritesThemAndOtherLinesAreSkipped() {
        let globs = MimeGlobs(
            bytes: Array(
                """
                # a comment
                70:text/x-a:*.a:cs,other:future:fields
                70:text/x-a:*.a
                60:text/x-b:*.b:other
                no colon at all
                50::*.empty-type
                abc:text/x-nan:*.nan
                999:text/x-big:*.big
                0:text/x-diff:__NOGLOBS__
                50:text/x-c:*.c
                """.utf8))
        // The unflagged copy of a `cs` line is the same glob.
        #expect(globs.matches(of: Array("x.a".utf8)).suffix == [.init(type: "text/x-a", weight: 70, caseSensitive: true, pattern: "*.a")])
        #expect(globs.matches(of: Array("X.A".utf8)).suffix.isEmpty)
        // A flag field that is not `cs` makes no pattern case-sensitive.
        #expect(globs.matches(of: Array("X.B".utf8)).suffixOfLowercased.map(\.type) == ["text/x-b"])
        #expect(globs.matches(of: Array("x.empty-type".utf8)).suffix.isEmpty)
        // A weight that is no number is 0, one over 255 keeps the cache's eight bits.
        #expect(globs.matches(of: Array("x.nan".utf8)).suffix.map(\.weight) == [0])
        #expect(globs.matches(of: Array("x.big".utf8)).suffix.map(\.weight) == [999 & 0xFF])
        #expect(globs.matches(of: Array("__NOGLOBS__".utf8)).literal == nil)
    }

    @Test func magicLinesThatCannotBeReadAreSkippedAndTheRestStands() {
        var file = Self.header
        file += Array("[50:text/x-good]\n".utf8) + Array(">0=".utf8) + [0, 4] + Array("GOOD\n".utf8)
        // An unknown character where the newline belongs: that line alone goes.
        file += Array(">0=".utf8) + [0, 3] + Array("BAD?junk\n".utf8)
        // An indent with no parent one level up.
        file += Array("2>0=".utf8) + [0, 4] + Array("DEEP\n".utf8)
        file += Array("[bad header\n".utf8) + Array(">0=".utf8) + [0, 4] + Array("LOST\n".utf8)
        file += Array("[40:text/x-later]\n".utf8) + Array(">4=".utf8) + [0, 2] + Array("OK+3\n".utf8)
        file += Array("1>0=".utf8) + [0, 1] + Array("L\n".utf8)
        // A value that runs past the end of the file.
        file += Array(">0=".utf8) + [0, 200] + Array("short".utf8)
        let magic = MimeMagic(parsing: file)
        #expect(magic.sections.map(\.type) == ["text/x-good", "text/x-later"])
        #expect(magic.match(Array("GOOD".utf8))?.type == "text/x-good")
        #expect(magic.match(Array("BAD?".utf8)) == nil && magic.match(Array("DEEP".utf8)) == nil && magic.match(Array("LOST".utf8)) == nil)
        // `+3`: at 4, 5 or 6, and then its nested rule.
        #expect(magic.match(Array("L.....OK".utf8))?.type == "text/x-later")
        #expect(magic.match(Array("X.....OK".utf8)) == nil)
        #expect(magic.extent == 4 + 3 + 2)
        #expect(MimeMagic(parsing: Array("not magic".utf8)).sections.isEmpty)
    }

    @Test func eachFileIsReadOnceAndOnlyWhenAQuestionNeedsIt() {
        var magic = Self.header
        magic += Array("[50:application/x-thing]\n>0=".utf8) + [0, 5] + Array("THING\n".utf8)
        let (database, fileSystem) = Self.database([
            "globs2": Array("50:text/x-one:*.dual\n50:text/x-two:*.dual\n50:text/html:*.html\n".utf8),
            "magic": magic,
            "aliases": Array("text/x-alias text/x-one\n".utf8),
            "subclasses": Array("text/x-two text/plain\ntext/x-one text/x-two\n".utf8),
        ])
        let mime = "/home/.local/share/mime/"
        func reads() -> [String] { fileSystem.looked.withLock { $0 }.filter { $0.hasPrefix(mime) } }
        #expect(reads().isEmpty)
        // A name that settles it reads the globs alone.
        #expect(database.guess(name: Array("page.html".utf8), data: nil).type.type == "text/html")
        #expect(reads() == [mime + "globs2"])
        // Two types for a name: the contents decide, through magic and subclasses.
        #expect(database.guess(name: Array("x.dual".utf8), data: Array("THING".utf8)).type.type == "text/x-one")
        #expect(database.guess(name: Array("x.dual".utf8), data: Array("plain text".utf8)).type.type == "text/x-one")
        #expect(database.typeAndAncestors("text/x-alias") == ["text/x-one", "text/x-two", "text/plain"])
        #expect(database.isSubclass("text/x-alias", of: "text/plain") && !database.isSubclass("text/plain", of: "text/x-one"))
        let counts = Dictionary(reads().map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts == [mime + "globs2": 1, mime + "magic": 1, mime + "aliases": 1, mime + "subclasses": 1])
    }

    @Test func aCycleOfParentsEnds() {
        let (database, _) = Self.database(["subclasses": Array("text/x-a text/x-b\ntext/x-b text/x-a\n".utf8)])
        #expect(!database.isSubclass("text/x-a", of: "application/x-none"))
        #expect(database.typeAndAncestors("text/x-a") == ["text/x-a", "text/x-b"])
    }
}
