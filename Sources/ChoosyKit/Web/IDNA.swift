/// UTS #46 ToASCII as the URL standard's "domain to ASCII" runs it for a browser
/// (Transitional_Processing, UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength off; CheckBidi
/// and CheckJoiners on), done by ICU's UTS #46 (`uidna_openUTS46`, the code browsers use),
/// which is loaded by the first name that needs it.
///
/// ICU always runs the hyphen and DNS length checks but reports each as an error bit of its
/// own, so the ones the URL standard turns off are ignored here (doc/links-and-rules.md). ICU names its C
/// symbols after its major version (`uidna_openUTS46_72`), so each library version is tried
/// with its own suffix.
enum IDNA {
    private typealias OpenFunction = @convention(c) (UInt32, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    private typealias ConvertFunction =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<Int32>?
        ) -> Int32

    /// From ICU's uidna.h (stable C API).
    private enum Option {
        static let checkBidi: UInt32 = 0x4
        static let checkContextJ: UInt32 = 0x8
        static let nontransitionalToASCII: UInt32 = 0x10
    }

    /// UIDNA_ERROR_EMPTY_LABEL, LABEL_TOO_LONG, DOMAIN_NAME_TOO_LONG (VerifyDnsLength) and
    /// LEADING_HYPHEN, TRAILING_HYPHEN, HYPHEN_3_4 (CheckHyphens).
    private static let ignoredErrors: UInt32 = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20
    private static let bufferOverflow: Int32 = 15

    /// ICU's major versions that may be installed (Debian 12 has 72, Debian 13 has 76).
    private static let versions = Array((60...90).reversed())

    /// The UTS #46 converter, opened once; `UIDNA` objects are immutable and thread-safe.
    private struct Converter: @unchecked Sendable {
        let idna: OpaquePointer
        let toASCII: ConvertFunction
        /// `uidna_nameToUnicodeUTF8`, of the same signature.
        let toUnicode: ConvertFunction
    }

    private static let converter = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libicu", sonames: versions.map { "libicuuc.so.\($0)" }, package: "libicu72", neededFor: "for a host that is not plain ASCII")
        let suffix = library.soname.split(separator: ".").last.map { "_" + $0 } ?? ""
        let open: OpenFunction = try library.function("uidna_openUTS46" + suffix)
        var status: Int32 = 0
        let options = Option.checkBidi | Option.checkContextJ | Option.nontransitionalToASCII
        guard let idna = open(options, &status), status <= 0 else {
            throw .lacks(library: library.name, symbol: "a working uidna_openUTS46")
        }
        return Converter(
            idna: idna, toASCII: try library.function("uidna_nameToASCII_UTF8" + suffix),
            toUnicode: try library.function("uidna_nameToUnicodeUTF8" + suffix))
    }.mapError { WebError($0.description) }

    /// The ASCII form of `domain` (punycode `xn--` labels), or why UTS #46 refuses it.
    static func toASCII(_ domain: String) throws(WebError) -> String {
        let converter = try converter.get()
        return try convert(domain, by: converter.toASCII, of: converter)
    }

    /// The Unicode form of the ASCII `domain` (its `xn--` labels decoded), as a browser shows
    /// it; or why UTS #46 cannot decode it.
    static func toUnicode(_ domain: String) throws(WebError) -> String {
        let converter = try converter.get()
        return try convert(domain, by: converter.toUnicode, of: converter)
    }

    private static func convert(_ domain: String, by function: ConvertFunction, of converter: Converter) throws(WebError) -> String {
        var capacity = max(64, domain.utf8.count * 4)
        while true {
            var output = [CChar](repeating: 0, count: capacity)
            // UIDNAInfo: int16 size, two UBools, uint32 errors, two reserved int32s.
            var info = [UInt8](repeating: 0, count: 16)
            info[0] = 16
            var status: Int32 = 0
            let length = Array(domain.utf8).withUnsafeBufferPointer { input in
                input.withMemoryRebound(to: CChar.self) { input in
                    function(converter.idna, input.baseAddress, Int32(input.count), &output, Int32(capacity), &info, &status)
                }
            }
            if status == bufferOverflow, length > capacity {
                capacity = Int(length)
                continue
            }
            guard status <= 0 else { throw WebError("IDNA could not convert the host (ICU error \(status))") }
            let errors = info[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if let reason = reason(errors & ~ignoredErrors) { throw WebError("IDNA refuses the host: \(reason)") }
            return String(decoding: output.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// What an ICU error bit means, for the ones that refuse a host.
    private static func reason(_ errors: UInt32) -> String? {
        guard errors != 0 else { return nil }
        let reasons: [(UInt32, String)] = [
            (0x40, "a label starts with a combining mark"), (0x80, "it holds a code point IDNA disallows"),
            (0x100, "a label's punycode is invalid"), (0x200, "a label holds a dot"),
            (0x400, "an xn-- label does not decode to what it encodes"), (0x800, "it breaks the bidirectional text rules"),
            (0x1000, "it breaks the rules for joiners (ZWJ, ZWNJ)"),
        ]
        return reasons.first { errors & $0.0 != 0 }?.1 ?? "ICU error bits 0x\(String(errors, radix: 16))"
    }
}
