import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// Odd things in choosy's directories (doc/security.md, "Odd files and loops"): symlink loops in an
/// applications directory cost nothing, to a walk or to looking an ID up, and a FIFO in place
/// of the lock file never hangs.
@Suite struct OddFileTests {
    let sandbox = Sandbox()

    /// Each directory is walked once, by device and inode: six `ln -s . loopN` made the
    /// scan visit 6^8 directories, minutes and gigabytes.
    @Test func symlinkLoopsInAnApplicationsDirectoryChangeNothing() throws {
        let applications = sandbox.dataHome + "/applications"
        sandbox.installApp("vendor/firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        let before = sandbox.choosy(["handle", "--dry-run", "https://example.org/"], timeout: 20)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == "firefox https://example.org/\n", "the entry in a subdirectory: \(before.stdout)")

        for number in 1...6 { #expect(symlink(".", applications + "/loop\(number)") == 0) }
        let start = Date()
        let after = sandbox.choosy(["handle", "--dry-run", "https://example.org/"], timeout: 20)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == before.stdout)
    }

    /// Looking an ID up tries each prefix before a `-` as a subdirectory: with links `a`,
    /// `a-a`, … to `.`, an ID of many dashes (a mimeapps.list may name any) made every split of
    /// it a path, 10^8 of them. Each directory is looked in once for each rest of the ID.
    @Test func symlinkLoopsCostALongIDsLookupNothing() throws {
        let applications = sandbox.dataHome + "/applications"
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        for count in 1...10 {
            #expect(symlink(".", applications + "/" + Array(repeating: "a", count: count).joined(separator: "-")) == 0)
        }
        let longID = String(repeating: "a-", count: 2_000) + "missing.desktop"
        sandbox.write(
            sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=\(longID);firefox.desktop;\n")
        let start = Date()
        let output = sandbox.choosy(["handle", "--dry-run", "https://example.org/"], timeout: 20)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "firefox https://example.org/\n")
    }

    /// A FIFO as the lock of `rules.json`: the change stops at once with status 7 and one line
    /// naming it; commands that only read go on.
    @Test func aFIFOInPlaceOfTheLockFileStopsOnlyChanges() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["x-scheme-handler/https"])
        let lock = sandbox.configHome + "/choosy/rules.json.lock"
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/choosy", withIntermediateDirectories: true)
        #expect(mkfifo(lock, 0o600) == 0)
        let start = Date()
        let added = sandbox.choosy(["rule", "add", "example.org", "--app", "firefox"], timeout: 20)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(added.status == 7, "\(added.stderr)")
        #expect(
            added.stderrLines == ["choosy: \(lock) is not a regular file (a FIFO, socket, device or link); remove it: nothing was changed"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.configHome + "/choosy/rules.json"))

        let handled = sandbox.choosy(["handle", "--dry-run", "https://example.org/"], timeout: 20)
        #expect(handled.status == 0, "\(handled.stderr)")
        #expect(sandbox.choosy(["rule", "list"], timeout: 20).status == 0)
    }
}
