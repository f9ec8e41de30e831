import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// ICU (for IDNA) and libpsl are loaded only when a link needs them, and a link that needs a missing
/// one fails with the reason. Each check runs in a child of this test binary that runs that one
/// test (so the libraries other tests load do not count), and reads which of them the process
/// has mapped. (Not exit tests: their monitor spins on the unreaped children that detached
/// launches in other tests leave behind.)
@Suite struct WebLibraryLoadingTests {
    /// Runs the test `name` of this suite alone in a child of the test binary, with `variables`.
    private func runAlone(_ name: String, _ variables: [String: String]) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in variables { environment[key] = value }
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: [currentExecutable(), "--testing-library", "swift-testing", "--filter", "WebLibraryLoadingTests/\(name)"],
                environment: environment, timeout: 120
            ))
        return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
    }

    @Test(arguments: ["ascii", "non-ascii", "punycode", "public-suffix-list"])
    func eachLibraryIsLoadedOnlyWhenALinkNeedsIt(check: String) throws {
        let child = try runAlone("loadingInAFreshProcess", ["CHOOSY_TEST_LOADING": check])
        #expect(child.status == 0, "\(child.output)")
        #expect(child.output.contains("with 1 test"), "\(child.output)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CHOOSY_TEST_LOADING"] != nil))
    func loadingInAFreshProcess() {
        switch ProcessInfo.processInfo.environment["CHOOSY_TEST_LOADING"] {
        case "ascii":
            for link in [
                "https://github.com/", "https://GITHUB.COM./x", "https://0x7f.1/", "https://[::ffff:1.2.3.4]/",
                "https://github.com@evil.example/", "https://a.b.example.co.uk/", "https://%67ithub.com/",
                "https://git hub.com/", "https://github.com:99999/", "ftp://x/",
            ] {
                _ = try? WebURL(parsing: link)
            }
            #expect(mappedWebLibraries() == 0)
        case "non-ascii":
            _ = try? WebURL(parsing: "https://faß.de/")
            #expect(mappedWebLibraries() == 1)
        case "punycode":
            _ = try? WebURL(parsing: "https://xn--fa-hia.de/")
            #expect(mappedWebLibraries() == 1)
        default:
            _ = try? PublicSuffixList.load()
            // libpsl may bring an IDNA library with it; only libpsl is asked about here.
            #expect(mappedWebLibraries() & 2 == 2)
        }
    }

    /// The loader reads its search path only when a process starts, so this runs the test
    /// below in a child of this test binary whose `LD_LIBRARY_PATH` holds an empty
    /// `libicuuc.so.N` for every ICU version choosy tries, which dlopen cannot load.
    @Test func withoutICUANonASCIIHostIsAClearFailure() throws {
        let sandbox = Sandbox()
        let library = sandbox.root + "/lib"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        for version in 60...90 { _ = FileManager.default.createFile(atPath: library + "/libicuuc.so.\(version)", contents: Data()) }
        let environment = ProcessInfo.processInfo.environment
        let child = try runAlone(
            "nonASCIIHostsFailWithoutICU",
            [
                "LD_LIBRARY_PATH": [library, environment["LD_LIBRARY_PATH"]].compactMap { $0 }.joined(separator: ":"),
                "CHOOSY_TEST_WITHOUT_ICU": "1",
            ])
        #expect(child.status == 0, "\(child.output)")
        #expect(child.output.contains("with 1 test"), "\(child.output)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CHOOSY_TEST_WITHOUT_ICU"] != nil))
    func nonASCIIHostsFailWithoutICU() throws {
        for link in ["https://faß.de/", "https://xn--fa-hia.de/", "https://ｇｉｔｈｕｂ．ｃｏｍ/"] {
            #expect(
                throws: WebError("libicu is not installed (apt-get install libicu72), and it is needed for a host that is not plain ASCII"),
                "\(link)"
            ) {
                try WebURL(parsing: link)
            }
        }
        #expect(try WebURL(parsing: "https://GitHub.com/").host == .domain("github.com"))
    }
}

/// 1 when ICU's libicuuc is mapped into this process, plus 2 when libpsl is; 4 when that cannot be read.
private func mappedWebLibraries() -> Int32 {
    // Read to the end by hand: /proc files have no size, and a reader that trusts stat stops short.
    let file = open("/proc/self/maps", O_RDONLY)
    guard file >= 0 else { return 4 }
    defer { close(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(file, &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    let maps = String(decoding: bytes, as: UTF8.self)
    return (maps.contains("/libicuuc.so") ? 1 : 0) | (maps.contains("/libpsl.so") ? 2 : 0)
}
