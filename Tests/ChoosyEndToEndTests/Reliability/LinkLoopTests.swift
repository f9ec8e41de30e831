import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// A handler that hands its link back to choosy (doc/security.md, "Odd files and loops"):
/// the second `choosy handle` of the same link refuses, so the loop ends after one hop.
@Suite struct LinkLoopTests {
    let sandbox = Sandbox()

    /// Hops are lines in a file; each relay runs `choosy handle` again, as `xdg-open %u`
    /// does when choosy is the system's link handler, and records its status.
    @Test func aHandlerThatHandsTheLinkBackStopsAfterOneHop() throws {
        let hops = sandbox.root + "/hops"
        sandbox.write(
            sandbox.bin + "/relay",
            """
            #!/bin/sh
            echo hop >> '\(hops)'
            '\(Sandbox.choosyBinary)' handle "$1" 2>> '\(hops).stderr'
            echo "status $?" >> '\(hops)'
            """, mode: 0o755)
        sandbox.desktopEntry("relay.desktop", sandbox.application(name: "Relay", exec: "relay %u", "MimeType=x-scheme-handler/https;\n"))

        let handled = sandbox.choosy(["handle", "https://example.org/"], timeout: 20)
        #expect(handled.status == 0, "\(handled.stderr)")
        let deadline = Date().addingTimeInterval(5)
        var lines: [String] = []
        while Date() < deadline {
            lines = ((try? String(contentsOfFile: hops, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.contains(where: { $0.hasPrefix("status") }) { break }
            usleep(50_000)
        }
        usleep(500_000)
        lines = ((try? String(contentsOfFile: hops, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(lines == ["hop", "status 4"])
        let stderr = (try? String(contentsOfFile: hops + ".stderr", encoding: .utf8)) ?? ""
        #expect(
            stderr.split(separator: "\n").count == 1 && stderr.contains("https://example.org/") && stderr.contains("handed"), "\(stderr)")
    }

    /// The real `xdg-open` (xdg-utils) as an https handler's `Exec`, with choosy installed as
    /// the system's https handler: xdg-open hands the link to choosy's entry, the second
    /// `choosy handle` refuses it (status 4, its one line shown as a notification, since its
    /// stderr goes nowhere) and nothing starts again.
    @Test func theRealXdgOpenHandingTheLinkBackStopsAfterOneHop() throws {
        let xdgOpen = "/usr/bin/xdg-open"
        try #require(FileManager.default.isExecutableFile(atPath: xdgOpen), "xdg-utils is in TEST_PACKAGES")
        sandbox.recorder("notify-send")
        sandbox.desktopEntry(
            "firefox.desktop",
            sandbox.application(name: "Firefox", exec: "xdg-open %u", "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n"))
        let installed = sandbox.choosy("install", "--default-handler")
        #expect(installed.status == 0, "\(installed.stderr)")
        // xdg-open asks xdg-mime, and opens through a handler only with a display.
        let display = ["DISPLAY": ":97"]
        let query = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/xdg-mime", "query", "default", "x-scheme-handler/https"],
                environment: sandbox.environment.merging(display) { $1 }))
        #expect(String(decoding: query.stdout, as: UTF8.self) == "choosy.desktop\n")

        let handled = sandbox.choosy(["handle", "https://example.org/"], environment: display, timeout: 20)
        #expect(handled.status == 0, "\(handled.stderr)")
        let notices = sandbox.waitForRuns("notify-send")
        usleep(1_000_000)
        #expect(sandbox.recordedRuns("notify-send").count == 1, "one hop, then nothing: \(sandbox.recordedRuns("notify-send"))")
        let notice = notices.first?.last ?? ""
        #expect(notice.contains("https://example.org/ was handed back to choosy") && !notice.contains("\n"), "\(notices)")
    }
}
