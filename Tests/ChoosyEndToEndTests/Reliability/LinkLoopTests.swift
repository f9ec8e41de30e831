import ChoosyTestSupport
import ChoosyKit
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
        sandbox.write(sandbox.bin + "/relay", """
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
        #expect(stderr.split(separator: "\n").count == 1 && stderr.contains("https://example.org/") && stderr.contains("handed"), "\(stderr)")
    }
}
