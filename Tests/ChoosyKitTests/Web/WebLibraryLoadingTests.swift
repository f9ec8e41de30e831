import ChoosyKit
import Glibc
import Testing

/// libidn2 and libpsl are loaded only when a link needs them. Each test runs in a child
/// process of its own (an exit test), so the libraries other tests load do not count, and
/// reads which of them the process has mapped.
@Suite struct WebLibraryLoadingTests {
    @Test func asciiLinksLoadNeitherLibrary() async {
        await #expect(processExitsWith: .exitCode(0)) {
            for link in [
                "https://github.com/", "https://GITHUB.COM./x", "https://0x7f.1/", "https://[::ffff:1.2.3.4]/",
                "https://github.com@evil.example/", "https://a.b.example.co.uk/", "https://%67ithub.com/",
                "https://git hub.com/", "https://github.com:99999/", "ftp://x/",
            ] {
                _ = try? WebURL(parsing: link)
            }
            exit(mappedWebLibraries())
        }
    }

    @Test func aNonASCIIHostLoadsLibidn2Only() async {
        await #expect(processExitsWith: .exitCode(1)) {
            _ = try? WebURL(parsing: "https://faß.de/")
            exit(mappedWebLibraries())
        }
    }

    @Test func aPunycodeHostLoadsLibidn2Only() async {
        await #expect(processExitsWith: .exitCode(1)) {
            _ = try? WebURL(parsing: "https://xn--fa-hia.de/")
            exit(mappedWebLibraries())
        }
    }

    @Test func thePublicSuffixListLoadsLibpsl() async {
        await #expect(processExitsWith: .exitCode(2)) {
            _ = try? PublicSuffixList.load()
            // libpsl brings libidn2 with it; only libpsl is asked about here.
            exit(mappedWebLibraries() & 2)
        }
    }
}

/// 1 when libidn2 is mapped into this process, plus 2 when libpsl is; 4 when that cannot be read.
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
    return (maps.contains("/libidn2.so") ? 1 : 0) | (maps.contains("/libpsl.so") ? 2 : 0)
}
