/// SHA-256, by libcrypto (OpenSSL 3, which libcurl's Debian package brings), loaded with dlopen
/// the first time a download needs its hash checked.
enum SHA256 {
    private typealias Digest = @convention(c) (
        UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?, OpaquePointer?, OpaquePointer?
    ) -> Int32
    private typealias Algorithm = @convention(c) () -> OpaquePointer?

    private struct Library: @unchecked Sendable {
        let digest: Digest
        let sha256: Algorithm
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary("libcrypto", sonames: ["libcrypto.so.3"], package: "libssl3", neededFor: "to check a download's hash")
        return Library(digest: try library.function("EVP_Digest"), sha256: try library.function("EVP_sha256"))
    }

    /// The hash of `bytes` in lowercase hex, as ClearURLs publishes its rules' hash.
    static func hex(of bytes: [UInt8]) throws(SharedLibraryError) -> String {
        let library = try library.get()
        var digest = [UInt8](repeating: 0, count: 32)
        var size: UInt32 = 0
        let status = bytes.withUnsafeBytes { library.digest($0.baseAddress, $0.count, &digest, &size, library.sha256(), nil) }
        guard status == 1, size == 32 else { throw .lacks(library: "libcrypto", symbol: "a working EVP_Digest") }
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
