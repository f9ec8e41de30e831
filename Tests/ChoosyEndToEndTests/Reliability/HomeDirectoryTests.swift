import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// A relative `HOME` is ignored like a relative XDG variable, so nothing choosy reads
/// or writes is found below the working directory; the password database's home stands instead.
@Suite struct HomeDirectoryTests {
    let sandbox = Sandbox()

    /// Runs with `HOME=relative/home` below the sandbox root (the working directory choosy runs
    /// in) and no XDG_CONFIG_HOME, so a relative HOME would put the config there.
    @Test func aRelativeHomeIsIgnored() throws {
        let relativeHome = sandbox.root + "/relative/home"
        // A rule in the config a relative HOME would point at: it must not be read.
        let planted = sandbox.choosy(
            ["rule", "add", "planted-under-the-working-directory.example", "--ask"],
            environment: ["HOME": relativeHome, "XDG_CONFIG_HOME": ""])
        #expect(planted.status == 0, "\(planted.stderr)")
        #expect(sandbox.exists(relativeHome + "/.config/choosy/rules.json"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: sandbox.root + "/relative").sorted()
        let list = sandbox.choosy(["rule", "list"], environment: ["HOME": "relative/home", "XDG_CONFIG_HOME": ""])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stdout.contains("planted-under-the-working-directory"), "\(list.stdout)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: sandbox.root + "/relative").sorted() == before)
    }

    /// A user the password database does not know, with a relative HOME, has no home: status 2
    /// and one line, before anything is read or written.
    @Test(.enabled(if: geteuid() == 0, "runs choosy as a user unknown to the password database"))
    func noHomeAtAllIsAUsageError() throws {
        // A copy of the binary another user may run: the build directory may be closed to it.
        let binary = sandbox.choosyBinaryForNobody()
        let before = sandbox.writtenFiles
        let output = sandbox.choosy(
            ["rule", "add", "example.org", "--ask"], environment: ["HOME": "relative/home", "XDG_CONFIG_HOME": ""],
            wrapper: ["/usr/bin/setpriv", "--reuid=54321", "--regid=54321", "--clear-groups"], binary: binary)
        #expect(output.status == 2)
        #expect(
            output.stderrLines == [
                "choosy: HOME is not an absolute path and the password database gives no home for this user: set HOME to your home directory"
            ])
        #expect(sandbox.writtenFiles == before)
        #expect(!sandbox.exists(sandbox.root + "/relative"))
    }

    @Test func theHomeIsAbsoluteOrThereIsNone() {
        #expect(Environment(["HOME": "/home/ada"], accountHome: "/home/other").home == "/home/ada")
        #expect(Environment(["HOME": "relative/home"], accountHome: "/home/ada").configHome == "/home/ada/.config")
        #expect(Environment([:], accountHome: "/home/ada").dataHome == "/home/ada/.local/share")
        #expect(Environment(["HOME": "relative/home"], accountHome: "also/relative").absoluteHome == nil)
        #expect(Environment(["HOME": ""], accountHome: nil).absoluteHome == nil)
    }
}
