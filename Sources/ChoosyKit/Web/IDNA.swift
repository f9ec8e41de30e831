/// UTS #46 ToASCII as the URL standard's "domain to ASCII" runs it for a browser
/// (Transitional_Processing, UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength off; CheckBidi
/// and CheckJoiners on), done by libidn2, which is loaded by the first name that needs it.
///
/// libidn2 is IDNA2008 with the UTS #46 mapping, so it refuses a few names browsers accept:
/// symbols IDNA2008 disallows (`☃`, `💩`) and, in any label of a name it is given, a `-` at
/// the start or end, `--` in the third and fourth places, more than 63 bytes. Such a link is
/// refused with the reason, never given another host.
enum IDNA {
    private typealias ToASCIIFunction = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32
    ) -> Int32
    private typealias FreeFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private typealias StrErrorFunction = @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// From idn2.h, part of the stable ABI of libidn2.so.0.
    private static let nfcInput: Int32 = 1
    private static let nonTransitional: Int32 = 8

    private struct Library: Sendable {
        let toASCII: ToASCIIFunction
        let free: FreeFunction
        let strError: StrErrorFunction
    }

    private static let library = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary("libidn2", sonames: ["libidn2.so.0"], package: "libidn2-0", neededFor: "for a host that is not plain ASCII")
        return Library(toASCII: try library.function("idn2_to_ascii_8z"), free: try library.function("idn2_free"), strError: try library.function("idn2_strerror"))
    }.mapError { WebError($0.description) }

    /// The ASCII form of `domain` (punycode `xn--` labels), or why UTS #46 refuses it.
    /// `domain` must hold no NUL: libidn2 reads a C string.
    static func toASCII(_ domain: String) throws(WebError) -> String {
        let library = try library.get()
        var output: UnsafeMutablePointer<CChar>?
        let status = domain.withCString { library.toASCII($0, &output, nfcInput | nonTransitional) }
        defer { library.free(output) }
        guard status == 0, let output else {
            let reason = library.strError(status).map { String(cString: $0) } ?? "libidn2 error \(status)"
            throw WebError("IDNA refuses the host: \(reason)")
        }
        return String(cString: output)
    }
}
