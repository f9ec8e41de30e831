import Testing

@testable import ChoosyKit

/// What `handle` takes for a local file (doc/spec-choices.md, "Local files"), and the URL it makes of it.
@Suite struct LocalFileTests {
    static let home = Array("/home/me".utf8)

    static func file(_ argument: String) throws -> LocalFile? {
        try LocalFile(argument: Array(argument.utf8), workingDirectory: home)
    }

    @Test func pathsAreMadeAbsoluteByName() throws {
        #expect(try Self.file("notes.txt")?.text == "/home/me/notes.txt")
        #expect(try Self.file("./a/../b//c/.")?.text == "/home/me/b/c")
        #expect(try Self.file("../../../../etc")?.text == "/etc")
        #expect(try Self.file("/tmp/x/")?.text == "/tmp/x")
        #expect(try Self.file("/")?.text == "/")
        // Whatever its first character: an option is never a path, and a path never an option.
        #expect(try Self.file("-x")?.text == "/home/me/-x")
        #expect(try Self.file("~/x")?.text == "/home/me/~/x")
        // A working directory that is gone takes absolute paths only.
        #expect(try LocalFile(argument: Array("/tmp/x".utf8), workingDirectory: nil)?.text == "/tmp/x")
        #expect(throws: ChoosyError.self) { try LocalFile(argument: Array("x".utf8), workingDirectory: nil) }
    }

    @Test func fileURLsAreLocalFilesAndOtherSchemesAreLinks() throws {
        #expect(try Self.file("file:///tmp/a%20b%23c")?.path == Array("/tmp/a b#c".utf8))
        #expect(try Self.file("FILE://localhost/tmp/x")?.text == "/tmp/x")
        #expect(try Self.file("file:/tmp/x")?.text == "/tmp/x")
        #expect(try Self.file("file:///tmp/caf%E9")?.path == Array("/tmp/caf".utf8) + [0xE9])
        for link in ["https://example.org/x.html", "mailto:a@b", "x-foo+bar.1:y"] { #expect(try Self.file(link) == nil) }
        for refused in [
            "file://server/share/x", "file:///tmp/x#y", "file:///tmp/x?y", "file:///bad%ZZ", "file:///nul%00", "file:relative", "",
        ] {
            let error = #expect(throws: ChoosyError.self) { try Self.file(refused) }
            #expect(error?.status == .usage, "\(refused)")
        }
    }

    @Test func theURLEncodesWhatCannotStandInAPath() throws {
        let path: [UInt8] = Array("/tmp/a b#c%d?e".utf8) + [0xE9] + Array("/ü+!$&'()*,;=:@~-._".utf8)
        let file = try #require(try LocalFile(argument: path, workingDirectory: Self.home))
        #expect(file.url == "file:///tmp/a%20b%23c%25d%3Fe%E9/%C3%BC+!$&'()*,;=:@~-._")
        // The URL names the same file again.
        #expect(try LocalFile(argument: Array(file.url.utf8), workingDirectory: Self.home)?.path == path)
    }
}
