import Foundation

@testable import ChoosyKit

// Cleaning runs the ClearURLs rules, data from outside, on links from anywhere. A rules file of
// any bytes is read or refused, never more; cleaning any link with those rules, and with the
// bundled ones, ends (the regular expressions are bounded by PCRE2's limits), the same way
// twice; a link that comes out is an http(s) link; its host changes only by an unwrapped
// redirection, never more than five; each step starts where the last ended; with no step the
// link is the same bytes; and cleaning what came out again changes nothing more, unless a
// limit stopped the first round; an unwrapped link holds no control or format character. With
// no time to spend, the link comes out as it went in. A pattern the cleaner skips for a host
// never matches it.
// The parsed rules kept in the cache (`CleaningRulesCache`) read back as they were, and the
// cache reader takes any bytes (here, the rules field) without crashing.
//
// Input fields: a rules file (JSON in the ClearURLs format), then a link.

private let bundled: [ClearURLsRuleFile] = ["clean/data.min.json", "clean/choosy.json"].compactMap { path in
    FileManager.default.contents(atPath: path).flatMap { try? ClearURLsRuleFile(parsing: Array($0), source: path) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCleanLinks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let fuzzed = try? ClearURLsRuleFile(parsing: Array(input.field(0).utf8), source: "fuzz.json")
    invariant(bundled.count == 2, "run from the repository root: the bundled rules are not there")
    for files in [fuzzed.map { [$0] } ?? [], bundled] {
        check(input.field(1), with: files)
    }
    _ = CleaningRulesCache.decode(Array(input.field(0).utf8))
    if let fuzzed {
        let key = CleaningRulesCache.key(input.field(1), Array(input.field(0).utf8))
        let decoded = CleaningRulesCache.decode(CleaningRulesCache.encode([fuzzed], [key]))
        invariant(decoded?.0 == [key], "a cache key does not read back as itself")
        let file = decoded?.1.first
        invariant(
            decoded?.1.count == 1 && file?.source == fuzzed.source && file?.providers == fuzzed.providers
                && file?.warnings == fuzzed.warnings,
            "parsed rules do not read back from the cache as they were")
    }
    if let fuzzed, let url = try? WebURL(parsing: input.field(1)) {
        checkShortcut(fuzzed.providers, on: url.scheme.rawValue + "://" + url.host.serialized + "/")
    }
    return 0
}

/// The cleaner skips a pattern whose required site name the link's host lacks: the pattern
/// itself must then never match that host.
private func checkShortcut(_ providers: [ClearURLsProvider], on origin: String) {
    guard let budget = try? MatchBudget() else { return }
    for provider in providers {
        guard let name = HostNameInPattern.required(by: provider.urlPattern), !HostNameInPattern.occurs(name, in: origin) else { continue }
        let matches = (try? RegularExpression(provider.urlPattern))?.matches(origin, within: budget) ?? false
        invariant(
            !matches,
            "\(provider.urlPattern.debugDescription) matches \(origin.debugDescription) without \(String(decoding: name, as: UTF8.self))")
    }
}

private func check(_ link: String, with files: [ClearURLsRuleFile]) {
    // No deadline: cleaning the same link twice must give the same result.
    let cleaner = LinkCleaner(files: files, removesReferralMarketing: false, timeLimit: .infinity, warn: { _ in })
    let result = cleaner.clean(link)
    let outOfTime = LinkCleaner(files: files, removesReferralMarketing: false, timeLimit: 0, warn: { _ in }).clean(link)
    invariant(outOfTime == CleanedLink(link: link), "with no time, \(link.debugDescription) became \(outOfTime.link.debugDescription)")
    invariant(cleaner.clean(link) == result, "cleaning \(link.debugDescription) twice differs")
    guard !result.steps.isEmpty else {
        invariant(result.link == link, "no step, yet \(link.debugDescription) became \(result.link.debugDescription)")
        return
    }
    invariant(result.blockedBy == nil, "a blocked link with steps")
    guard let out = try? WebURL(parsing: result.link) else {
        invariant(false, "\(link.debugDescription) became \(result.link.debugDescription), no http(s) link")
        return
    }
    let unwraps = result.steps.filter { $0.kind == .redirection }.count
    for step in result.steps where step.kind == .redirection {
        invariant(DisplayText.isShownAsIs(step.after), "unwrapped to \(step.after.debugDescription), which is not shown as it is")
    }
    invariant(unwraps <= LinkCleaner.maximumUnwraps, "\(unwraps) unwraps")
    if unwraps == 0, let before = try? WebURL(parsing: link) {
        invariant(
            before.host == out.host && before.port == out.port,
            "the host of \(link.debugDescription) changed without an unwrap: \(result.link.debugDescription)")
    }
    invariant(result.steps.first?.before == link, "the first step does not start at the link")
    for (step, next) in zip(result.steps, result.steps.dropFirst()) {
        invariant(step.after == next.before, "a step starts elsewhere than the last ended")
    }
    invariant(result.steps.last?.after == result.link, "the last step does not end at the result")
    let limited = unwraps == LinkCleaner.maximumUnwraps || result.steps.count >= LinkCleaner.maximumPasses
    if !limited {
        let again = cleaner.clean(result.link)
        invariant(
            again.link == result.link || again.blockedBy != nil,
            "cleaning \(result.link.debugDescription) again gives \(again.link.debugDescription)")
    }
}
