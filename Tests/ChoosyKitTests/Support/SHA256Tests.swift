import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// SHA-256 against FIPS 180-4's examples and the hash ClearURLs publishes for the bundled rules.
@Suite struct SHA256Tests {
    @Test func fipsExamples() {
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Two blocks: the padding falls into the second.
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    @Test func theBundledRulesHaveTheirPublishedHash() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Sandbox.packageRoot + "/clean/data.min.json"))
        #expect(SHA256.hex(of: Array(bytes)) == "d055d1e4612be57c706def4f3fb46c4858a8d97864a23e7d2f35622ea32a6b4f")
    }
}
