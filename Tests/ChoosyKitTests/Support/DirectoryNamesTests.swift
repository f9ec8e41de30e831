import Glibc
import Testing

@testable import ChoosyKit

@Suite struct DirectoryNamesTests {
    /// Names that share their first eight bytes, names shorter than eight, and a name that
    /// begins another: byte order is what `sorted()` gives ASCII Strings.
    @Test func asciiNamesSortByByteAsStringsSort() {
        let names = [
            "org.kde.okular.desktop", "org.kde.dolphin.desktop", "org.kde", "org.kd", "a", "", "org.kde.", "B.desktop", "b.desktop",
            "org.kde.dolphin.desktop~", "zzzzzzzzz", "zzzzzzzz",
        ]
        let listing = DirectoryNames(names)
        #expect(listing.isASCII)
        #expect(listing.count == names.count)
        #expect(listing.byteOrder().map(listing.string(at:)) == names.sorted())
        #expect(listing.strings == names)
        #expect(listing.withName(at: 0) { Array($0) } == Array(names[0].utf8))
    }

    @Test func aNameWithAByteAboveASCIIMakesTheListingNotASCII() {
        #expect(!DirectoryNames(["firefox.desktop", "café.desktop"]).isASCII)
    }

    /// The real listing: every name once, without `.` and `..`, as `list` gives them.
    @Test func theLocalListingHoldsEveryNameButDotAndDotDot() throws {
        var template = Array("/tmp/choosy-names-XXXXXX".utf8CString)
        let directory = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer {
            for name in LocalFileSystem().list(directory) ?? [] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let names = ["..a", ".b", "c.desktop", "a-long-name-of-more-than-sixteen-bytes.desktop"]
        for name in names { close(open(directory + "/" + name, O_CREAT | O_WRONLY, 0o600)) }
        let listing = try #require(LocalFileSystem().listNames(directory))
        #expect(listing.byteOrder().map(listing.string(at:)) == names.sorted())
        #expect(LocalFileSystem().list(directory)?.sorted() == names.sorted())
    }
}
