/// A regular expression of the ClearURLs rules, compiled by PCRE2 (libpcre2-8, loaded when the
/// first link is cleaned) with the options that make it read as JavaScript reads it, and matched
/// within bounds: the rules are data from outside (doc/security.md, "The link-cleaning rules
/// and their server").
///
/// PCRE2's match limit counts the steps from one start position, so a pattern can spend up to
/// the limit at every byte of a link. Each match therefore runs first interpreted, with a low
/// limit (a millisecond at most per start position); a pattern that needs more is compiled by
/// PCRE2's JIT, whose steps cost a few nanoseconds, and runs again with the full limit; past
/// that it counts as no match. Every match first asks the `MatchBudget` whether the link's
/// deadline has passed (a pattern PCRE2 anchors, with one start position, may still cost
/// milliseconds under its limit, on each of thousands of items); and a pattern that PCRE2 does
/// not anchor gets a callout before its first item, which PCRE2 calls at each start position it
/// tries and which ends the match once the deadline has passed. So no match outlasts the
/// budget of a link by more than one start position.
struct RegularExpression: @unchecked Sendable {
    /// The pattern as written, for `--explain` and warnings.
    let pattern: String
    private let code: OpaquePointer
    private let library: PCRE2

    /// Longest pattern compiled (bytes); the bundled rules' longest is under 400.
    static let maximumPatternLength = 4096
    /// Backtracking steps from one start position in the first, interpreted run, and in the
    /// run by the JIT that follows when they were not enough: far beyond what a rule of the
    /// ClearURLs data needs on a link.
    static let interpretedMatchLimit: UInt32 = 10_000
    static let matchLimit: UInt32 = 100_000
    /// The interpreted run's nesting depth, and its memory for backtracking in KiB (the JIT
    /// keeps to its own stack, 32 KiB).
    static let depthLimit: UInt32 = 1_000
    static let heapLimitKiB: UInt32 = 1_024
    /// What a pattern that is not anchored is written inside: a callout, then the pattern as a
    /// group, which keeps its groups' numbers.
    private static let calloutPrefix = "(?C)(?:"
    private static let calloutSuffix = ")"

    /// Compiles `pattern` case-insensitively (the rules' `i` flag), or says why not.
    init(_ pattern: String) throws(CleaningError) {
        let library = try PCRE2.shared.get()
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw CleaningError("pattern longer than \(Self.maximumPatternLength) bytes")
        }
        var code = try Self.compile(pattern, library)
        if !library.isAnchored(code) {
            library.freeCode(code)
            // A pattern that only compiles alone (an unended `\Q`, a comment to its end) could
            // not be stopped at the deadline.
            guard let bounded = try? Self.compile(Self.calloutPrefix + pattern + Self.calloutSuffix, library) else {
                throw CleaningError("a pattern that cannot be put in a group (an unended \\Q or comment)")
            }
            code = bounded
        }
        self.pattern = pattern
        self.code = code
        self.library = library
    }

    private static func compile(_ pattern: String, _ library: PCRE2) throws(CleaningError) -> OpaquePointer {
        var error: Int32 = 0
        var offset = 0
        let code = Array(pattern.utf8).withUnsafeBufferPointer {
            library.compile($0.baseAddress, $0.count, PCRE2.javaScriptOptions, &error, &offset, library.compileContext)
        }
        guard let code else {
            throw CleaningError("invalid regular expression at offset \(offset): \(library.message(error))")
        }
        return code
    }

    /// Where the first match in `text` is, with its capture groups (nil for a group that did not
    /// take part); nil for no match, or for a match that hit a limit or the deadline.
    func firstMatch(in text: String, within budget: MatchBudget) -> [Range<Int>?]? {
        firstMatch(in: Array(text.utf8), from: 0, within: budget)
    }

    /// Whether `text` matches; the test every item name of a link gets, so it copies nothing.
    func matches(_ text: String, within budget: MatchBudget) -> Bool {
        var text = text
        return text.withUTF8 { run($0, from: 0, budget) >= 0 }
    }

    /// `text` with every match removed (JavaScript's `replace(new RegExp(pattern, "gi"), "")`),
    /// and the text of each match, in order.
    func removingMatches(in text: String, within budget: MatchBudget) -> (kept: String, removed: [String]) {
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        var removed: [String] = []
        var position = 0
        var searchFrom = 0
        while searchFrom <= bytes.count, let match = firstMatch(in: bytes, from: searchFrom, within: budget)?.first, let range = match {
            kept += bytes[position..<range.lowerBound]
            if !range.isEmpty { removed.append(String(decoding: bytes[range], as: UTF8.self)) }
            position = range.upperBound
            // An empty match moves on by one byte (one character, for a whole scalar).
            searchFrom = range.isEmpty ? nextScalar(in: bytes, after: range.upperBound) : range.upperBound
        }
        kept += bytes[min(position, bytes.count)...]
        return (String(decoding: kept, as: UTF8.self), removed)
    }

    private func nextScalar(in bytes: [UInt8], after index: Int) -> Int {
        var next = index + 1
        while next < bytes.count && bytes[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }

    /// The match and group 1 (all the rules use), when they took part.
    private func firstMatch(in bytes: [UInt8], from start: Int, within budget: MatchBudget) -> [Range<Int>?]? {
        let status = bytes.withUnsafeBufferPointer { run($0, from: start, budget) }
        guard status >= 0, let vector = library.ovector(budget.matchData) else { return nil }
        // 0: more groups than the two pairs of the match data, which hold the first two.
        return (0..<(status == 1 ? 1 : 2)).map { group in
            let (lower, upper) = (vector[2 * group], vector[2 * group + 1])
            return lower == PCRE2.unset || upper < lower ? nil : lower..<upper
        }
    }

    /// pcre2_match, interpreted with the low limit (or by the JIT, once a run needed it), then,
    /// when a limit stopped it, by the JIT with the full limit: the number of groups set (0 when
    /// there are more than the match data holds), or a negative error.
    private func run(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, _ budget: MatchBudget) -> Int32 {
        guard !budget.isSpent else { return PCRE2.calloutError }
        let data = budget.matchData
        let status = library.match(code, buffer.baseAddress, buffer.count, start, 0, data, budget.firstRun)
        guard PCRE2.limitErrors.contains(status), !budget.isSpent else { return status }
        // Without a JIT (an architecture PCRE2 has none for), the second run is interpreted.
        _ = library.jitCompile(code, PCRE2.jitComplete)
        return library.match(code, buffer.baseAddress, buffer.count, start, 0, data, budget.secondRun)
    }
}

/// What the matches of one link's cleaning may spend: PCRE2's match contexts with the limits of
/// a first and a second run, and a deadline that every match checks before it runs, and a
/// callout at each start position of a pattern that is not anchored (see `RegularExpression`).
/// Once it has passed, every match ends at once, as no match. One budget serves one cleaner, on
/// one thread at a time.
final class MatchBudget: @unchecked Sendable {
    /// The callout's data: a budget of the thread's CPU time, which the load of the machine
    /// does not change (a link cleaned while a build runs is cleaned as on an idle machine).
    struct Deadline {
        /// The thread's CPU seconds when it passes.
        var cpuTime: Double
        /// Monotonic seconds before which it cannot have passed (a thread's CPU time grows no
        /// faster than the time that goes by), so that the clock of CPU time, a system call, is
        /// read only once the budget may be spent.
        var earliest: Double
        var passed: Bool

        init(seconds: Double) {
            cpuTime = threadCPUSeconds() + seconds
            earliest = monotonicSeconds() + seconds
            passed = false
        }

        /// Whether it has passed, by the clocks until it has.
        mutating func hasPassed() -> Bool {
            guard !passed else { return true }
            let now = monotonicSeconds()
            guard now >= earliest else { return false }
            let left = cpuTime - threadCPUSeconds()
            if left > 0 { earliest = now + left } else { passed = true }
            return passed
        }
    }

    fileprivate let firstRun: OpaquePointer?
    fileprivate let secondRun: OpaquePointer?
    /// Where every match puts the offsets of the match and of group 1, made once.
    fileprivate let matchData: OpaquePointer?
    private let library: PCRE2
    private let deadline = UnsafeMutablePointer<Deadline>.allocate(capacity: 1)

    init() throws(CleaningError) {
        let library = try PCRE2.shared.get()
        self.library = library
        deadline.initialize(to: Deadline(seconds: .infinity))
        firstRun = library.matchContext(matchLimit: RegularExpression.interpretedMatchLimit, deadline: deadline)
        secondRun = library.matchContext(matchLimit: RegularExpression.matchLimit, deadline: deadline)
        matchData = library.createMatchData(2, nil)
    }

    deinit {
        library.freeMatchData(matchData)
        library.freeMatchContext(firstRun)
        library.freeMatchContext(secondRun)
        deadline.deallocate()
    }

    /// Gives the matches from now on `seconds` of CPU time in all (`.infinity`: no deadline,
    /// only limits).
    func start(seconds: Double) {
        deadline.pointee = Deadline(seconds: seconds)
    }

    /// Whether the deadline has passed, by the clock.
    var isSpent: Bool { deadline.pointee.hasPassed() }

}

/// Why a rules file, or a rule in it, cannot be used.
struct CleaningError: Error, CustomStringConvertible, Sendable {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The functions of libpcre2-8 choosy uses, and the compile context; one, which every
/// expression refers to.
private final class PCRE2: @unchecked Sendable {
    typealias Compile =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UInt32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int>?, OpaquePointer?
        ) -> OpaquePointer?
    typealias CreateMatchData = @convention(c) (UInt32, OpaquePointer?) -> OpaquePointer?
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
    typealias FreePointer = @convention(c) (OpaquePointer?) -> Void
    typealias JITCompile = @convention(c) (OpaquePointer?, UInt32) -> Int32
    typealias PatternInfo = @convention(c) (OpaquePointer?, UInt32, UnsafeMutableRawPointer?) -> Int32
    /// The callout block (unused), and the callout's data.
    typealias Callout = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias SetCallout = @convention(c) (OpaquePointer?, Callout?, UnsafeMutableRawPointer?) -> Int32

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
    private static let anchored: UInt32 = 0x8000_0000
    private static let infoAllOptions: UInt32 = 0
    static let jitComplete: UInt32 = 0x0000_0001
    /// PCRE2_ERROR_MATCHLIMIT, _DEPTHLIMIT and _HEAPLIMIT.
    static let limitErrors: Set<Int32> = [-47, -53, -63]
    /// PCRE2_ERROR_CALLOUT, which PCRE2 never returns itself: the deadline passed.
    static let calloutError: Int32 = -37

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
    let freeCode: FreePointer
    let jitCompile: JITCompile
    private let patternInfo: PatternInfo
    private let createMatchContext: CreateContext
    let freeMatchContext: FreePointer
    private let setMatchLimit: SetLimit
    private let setDepthLimit: SetLimit
    private let setHeapLimit: SetLimit
    private let setCallout: SetCallout
    let compileContext: OpaquePointer?

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
        createMatchData = try library.function("pcre2_match_data_create_8")
        freeMatchData = try library.function("pcre2_match_data_free_8")
        match = try library.function("pcre2_match_8")
        ovector = try library.function("pcre2_get_ovector_pointer_8")
        errorMessage = try library.function("pcre2_get_error_message_8")
        freeCode = try library.function("pcre2_code_free_8")
        jitCompile = try library.function("pcre2_jit_compile_8")
        patternInfo = try library.function("pcre2_pattern_info_8")
        createMatchContext = try library.function("pcre2_match_context_create_8")
        freeMatchContext = try library.function("pcre2_match_context_free_8")
        setMatchLimit = try library.function("pcre2_set_match_limit_8")
        setDepthLimit = try library.function("pcre2_set_depth_limit_8")
        setHeapLimit = try library.function("pcre2_set_heap_limit_8")
        setCallout = try library.function("pcre2_set_callout_8")
        let createCompileContext: CreateContext = try library.function("pcre2_compile_context_create_8")
        let setPatternLength: SetSize = try library.function("pcre2_set_max_pattern_length_8")
        let setNestLimit: SetLimit = try library.function("pcre2_set_parens_nest_limit_8")
        compileContext = createCompileContext(nil)
        // The longest pattern, in its group with the callout.
        _ = setPatternLength(compileContext, RegularExpression.maximumPatternLength + 16)
        _ = setNestLimit(compileContext, 50)
    }

    /// A match context with these limits, whose callout ends a match once `deadline` has passed.
    func matchContext(matchLimit: UInt32, deadline: UnsafeMutablePointer<MatchBudget.Deadline>) -> OpaquePointer? {
        let context = createMatchContext(nil)
        _ = setMatchLimit(context, matchLimit)
        _ = setDepthLimit(context, RegularExpression.depthLimit)
        _ = setHeapLimit(context, RegularExpression.heapLimitKiB)
        _ = setCallout(context, deadlineCallout, UnsafeMutableRawPointer(deadline))
        return context
    }

    /// Whether PCRE2 tries the pattern at the start position alone (`^` leads every branch).
    func isAnchored(_ code: OpaquePointer) -> Bool {
        var options: UInt32 = 0
        return patternInfo(code, Self.infoAllOptions, &options) == 0 && options & Self.anchored != 0
    }

    func message(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = errorMessage(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : "PCRE2 error \(code)"
    }
}

/// The callout of every pattern that is not anchored: 0 (go on) until the deadline its data
/// points to has passed, which it then marks.
private let deadlineCallout: PCRE2.Callout = { _, data in
    guard let deadline = data?.assumingMemoryBound(to: MatchBudget.Deadline.self) else { return 0 }
    return deadline.pointee.hasPassed() ? PCRE2.calloutError : 0
}
