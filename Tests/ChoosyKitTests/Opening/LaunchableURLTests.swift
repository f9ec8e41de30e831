import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// What a built URL must be before an app gets it as an argument.
@Suite struct LaunchableURLTests {
    @Test(arguments: [
        "", "https://example.org/?q=a b", "mailto:ada%40example.org", "tweetbot:", "file:///tmp/a%00b",
        "/home/ada/My File.txt", "magnet:?xt=urn:btih:abc", "https://x.com",
    ])
    func urlsAndAbsolutePathsMayBeLaunched(url: String) {
        #expect(LaunchableURL.problem(with: url) == nil)
    }

    @Test(arguments: [
        "--gpu-launcher=/bin/sh", "-", "relative/path", "example.org", " https://example.org", "{{url}}",
        "javascript:alert(1)", "JavaScript:x", "data:text/html,x", "VBScript:x", "https://example.org/\u{0}x",
        "https://example.org/?q=a\nb", "https://example.org/\t", "https://example.org/\u{1B}[2J", "https://example.org/\u{9B}2J",
    ])
    func optionsScriptsRelativePathsAndNULsMayNot(url: String) {
        #expect(LaunchableURL.problem(with: url) != nil)
    }

    @Test func theLimitIsTheKernelsForOneArgument() {
        let prefix = "https://example.org/"
        #expect(LaunchableURL.problem(with: prefix + String(repeating: "a", count: LaunchableURL.maxBytes - prefix.utf8.count)) == nil)
        #expect(LaunchableURL.problem(with: prefix + String(repeating: "a", count: LaunchableURL.maxBytes - prefix.utf8.count + 1)) != nil)
    }

    @Test func aNULInAnArgumentIsNeverSilentlyCut() {
        let request = ProcessRequest(argv: ["/bin/echo", "a\u{0}b"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(throws: SpawnError.self) { try PosixProcessRunner(fileSystem: LocalFileSystem()).run(request) }
        let environment = ProcessRequest(argv: ["/bin/echo"], environment: ["PATH": "/usr/bin:/bin", "X": "a\u{0}b"])
        #expect(throws: SpawnError.self) { try PosixProcessRunner(fileSystem: LocalFileSystem()).run(environment) }
    }
}
