/// A regular expression of the ClearURLs rules, compiled by PCRE2 (libpcre2-8, loaded when the
/// first link is cleaned) with the options that make it read as JavaScript reads it, and with
/// limits that bound every match: the rules are data from outside, and a pattern written to
/// backtrack forever stops at the match limit and counts as no match.
struct RegularExpression: @unchecked Sendable {
    /// The pattern as written, for `--explain` and warnings.
    let pattern: String
    private let code: OpaquePointer
    private let library: PCRE2

    /// Longest pattern compiled (bytes); the bundled rules' longest is under 400.
    static let maximumPatternLength = 4096
    /// Backtracking steps one match may take, and its nesting depth: far beyond what a rule of
    /// the ClearURLs data needs on a link, and a few milliseconds at worst.
    static let matchLimit: UInt32 = 100_000
    static let depthLimit: UInt32 = 1_000
    /// Memory one match may use for backtracking, in KiB.
    static let heapLimitKiB: UInt32 = 1_024

    /// Compiles `pattern` case-insensitively (the rules' `i` flag), or says why not.
    init(_ pattern: String) throws(CleaningError) {
        let library = try PCRE2.shared.get()
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw CleaningError("pattern longer than \(Self.maximumPatternLength) bytes")
        }
        var error: Int32 = 0
        var offset = 0
        let code = Array(pattern.utf8).withUnsafeBufferPointer {
            library.compile($0.baseAddress, $0.count, PCRE2.javaScriptOptions, &error, &offset, library.compileContext)
        }
        guard let code else {
            throw CleaningError("invalid regular expression at offset \(offset): \(library.message(error))")
        }
        self.pattern = pattern
        self.code = code
        self.library = library
    }

    /// Where the first match in `text` is, with its capture groups (nil for a group that did not
    /// take part); nil for no match, or for a match that hit a limit.
    func firstMatch(in text: String) -> [Range<Int>?]? {
        firstMatch(in: Array(text.utf8), from: 0)
    }

    /// Whether `text` matches; the test every item name of a link gets, so it copies nothing.
    func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            let data = library.createMatchData(code, nil)
            defer { library.freeMatchData(data) }
            return library.match(code, buffer.baseAddress, buffer.count, 0, 0, data, library.matchContext) > 0
        }
    }

    /// `text` with every match removed (JavaScript's `replace(new RegExp(pattern, "gi"), "")`).
    func removingMatches(in text: String) -> String {
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        var position = 0
        var searchFrom = 0
        while searchFrom <= bytes.count, let match = firstMatch(in: bytes, from: searchFrom)?.first, let range = match {
            kept += bytes[position..<range.lowerBound]
            position = range.upperBound
            // An empty match moves on by one byte (one character, for a whole scalar).
            searchFrom = range.isEmpty ? nextScalar(in: bytes, after: range.upperBound) : range.upperBound
        }
        kept += bytes[min(position, bytes.count)...]
        return String(decoding: kept, as: UTF8.self)
    }

    private func nextScalar(in bytes: [UInt8], after index: Int) -> Int {
        var next = index + 1
        while next < bytes.count && bytes[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }

    private func firstMatch(in bytes: [UInt8], from start: Int) -> [Range<Int>?]? {
        let data = library.createMatchData(code, nil)
        defer { library.freeMatchData(data) }
        let count = bytes.withUnsafeBufferPointer { buffer in
            library.match(code, buffer.baseAddress, buffer.count, start, 0, data, library.matchContext)
        }
        guard count > 0, let vector = library.ovector(data) else { return nil }
        return (0..<Int(count)).map { group in
            let (lower, upper) = (vector[2 * group], vector[2 * group + 1])
            return lower == PCRE2.unset || upper < lower ? nil : lower..<upper
        }
    }
}

/// Why a rules file, or a rule in it, cannot be used.
struct CleaningError: Error, CustomStringConvertible, Sendable {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The functions of libpcre2-8 choosy uses, with the contexts that carry the limits.
private struct PCRE2: @unchecked Sendable {
    typealias Compile =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UInt32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int>?, OpaquePointer?
        ) -> OpaquePointer?
    typealias CreateMatchData = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias FreeMatchData = @convention(c) (OpaquePointer?) -> Void
    typealias Match =
        @convention(c) (
            OpaquePointer?, UnsafePointer<UInt8>?, Int, Int, UInt32, OpaquePointer?, OpaquePointer?
        ) -> Int32
    typealias OVector = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<Int>?
    typealias CreateContext = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SetLimit = @convention(c) (OpaquePointer?, UInt32) -> Int32
    typealias SetSize = @convention(c) (OpaquePointer?, Int) -> Int32
    typealias ErrorMessage = @convention(c) (Int32, UnsafeMutablePointer<UInt8>?, Int) -> Int32

    // From pcre2.h (10.42), part of libpcre2-8.so.0's stable ABI.
    private static let allowEmptyClass: UInt32 = 0x0000_0001
    private static let altBSUX: UInt32 = 0x0000_0002
    private static let caseless: UInt32 = 0x0000_0008
    private static let dollarEndOnly: UInt32 = 0x0000_0010
    private static let matchUnsetBackreference: UInt32 = 0x0000_0200
    private static let utf: UInt32 = 0x0008_0000
    private static let matchInvalidUTF: UInt32 = 0x0400_0000
    /// PCRE2_UNSET: a group that did not take part in the match.
    static let unset = Int.max

    /// JavaScript's reading of a pattern (`[]` and `[^]`, `\u` escapes, `$` only at the end, an
    /// unset group matching the empty string), case-insensitive, over UTF-8 that a link may
    /// break (invalid bytes never match a character, and never make the match fail).
    static let javaScriptOptions =
        allowEmptyClass | altBSUX | caseless | dollarEndOnly
        | matchUnsetBackreference | utf | matchInvalidUTF

    let compile: Compile
    let createMatchData: CreateMatchData
    let freeMatchData: FreeMatchData
    let match: Match
    let ovector: OVector
    let errorMessage: ErrorMessage
    let compileContext: OpaquePointer?
    let matchContext: OpaquePointer?

    static let shared = Result { () throws(CleaningError) -> PCRE2 in
        do throws(SharedLibraryError) {
            return try PCRE2(
                try SharedLibrary("libpcre2-8", sonames: ["libpcre2-8.so.0"], package: "libpcre2-8-0", neededFor: "to clean links"))
        } catch {
            throw CleaningError(error.description)
        }
    }

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        compile = try library.function("pcre2_compile_8")
        createMatchData = try library.function("pcre2_match_data_create_from_pattern_8")
        freeMatchData = try library.function("pcre2_match_data_free_8")
        match = try library.function("pcre2_match_8")
        ovector = try library.function("pcre2_get_ovector_pointer_8")
        errorMessage = try library.function("pcre2_get_error_message_8")
        let createCompileContext: CreateContext = try library.function("pcre2_compile_context_create_8")
        let createMatchContext: CreateContext = try library.function("pcre2_match_context_create_8")
        let setPatternLength: SetSize = try library.function("pcre2_set_max_pattern_length_8")
        let setNestLimit: SetLimit = try library.function("pcre2_set_parens_nest_limit_8")
        let setMatchLimit: SetLimit = try library.function("pcre2_set_match_limit_8")
        let setDepthLimit: SetLimit = try library.function("pcre2_set_depth_limit_8")
        let setHeapLimit: SetLimit = try library.function("pcre2_set_heap_limit_8")
        compileContext = createCompileContext(nil)
        matchContext = createMatchContext(nil)
        _ = setPatternLength(compileContext, RegularExpression.maximumPatternLength)
        _ = setNestLimit(compileContext, 50)
        _ = setMatchLimit(matchContext, RegularExpression.matchLimit)
        _ = setDepthLimit(matchContext, RegularExpression.depthLimit)
        _ = setHeapLimit(matchContext, RegularExpression.heapLimitKiB)
    }

    func message(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = errorMessage(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : "PCRE2 error \(code)"
    }
}
