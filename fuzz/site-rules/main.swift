@testable import ChoosyKit

// A site rule decides which browser and profile sees a link, and rules.json is read for every
// link, a site as choosy writes it without the URL parser. A SITE must survive any text; one
// that parses is written as a SITE that reads back as the same site (so the reader without the
// URL parser agrees with the one with it); the link `https://` + that host is the site's; a
// link a rule matches has the rule's host (or is under its domain) and begins with its path;
// whether `rule add` would refuse it as never matching is the same for its written form;
// rules.json of any text either reads, and then reads back as itself when written, or is refused;
// its index by domain decides a link as the whole file does; an index of any bytes never crashes.
//
// Input fields: a SITE, then a link, then a rules.json.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSiteRules(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = input.field(0)
    if let site = try? Site(parsing: text) {
        invariant((try? Site(parsing: text)) == site, "parsing \(text.debugDescription) is not deterministic")
        let written = site.text
        invariant(
            (try? Site(parsing: written)) == site,
            "\(text.debugDescription) is written \(written.debugDescription), which reads as another site")
        invariant(
            (try? Site(parsing: written))?.neverMatches == site.neverMatches,
            "\(text.debugDescription) and its written form \(written.debugDescription) disagree on whether it can match")
        if let own = try? WebURL(parsing: "https://" + written.dropFirst(site.exact ? 1 : 0) + "/") {
            invariant(site.matches(own), "\(written.debugDescription) does not match its own link")
        }
        if let url = try? WebURL(parsing: input.field(1)), site.matches(url) {
            invariant(
                site.exact
                    ? url.host.domainName == site.host.domainName && (site.host.domainName != nil || url.host == site.host)
                    : url.host.isWithin(site.host),
                "\(written.debugDescription) matches \(input.field(1).debugDescription), whose host is \(url.host.serialized)")
            invariant(
                url.pathSegments.starts(with: site.path),
                "\(written.debugDescription) matches \(input.field(1).debugDescription) outside its path")
        }
    }
    if let json = try? JSONReader.parse(Array(input.field(2).utf8)), let rules = try? SiteRules(json: json) {
        let again = try? SiteRules(json: JSONReader.parse(Array(rules.json.rendered(indented: true).utf8)))
        invariant(again == rules, "rules.json \(input.field(2).debugDescription) does not read back as itself")
        let key = SiteRuleIndex.Key(Array(input.field(2).utf8))
        if let url = try? WebURL(parsing: input.field(1)), let encoded = SiteRuleIndex.encoded(rules, for: key) {
            let index = SiteRuleIndex(decoding: encoded, for: key)
            invariant(index != nil, "the index of \(input.field(2).debugDescription) does not read back")
            let candidates = index?.rules(for: url.host).map(SiteRules.init)
            invariant(candidates != nil, "the index of \(input.field(2).debugDescription) has a line it cannot read")
            for source in [nil, "a.desktop"] {
                let names = source.map { source in { (from: String) in from == source } }
                invariant(
                    candidates?.match(url, from: names) == rules.match(url, from: names),
                    "the index of \(input.field(2).debugDescription) decides \(input.field(1).debugDescription) otherwise")
            }
        }
    }
    // An index whose body is any bytes, under a header that stands for them, must not crash.
    let body = Array(input.field(2).utf8)
    let key = SiteRuleIndex.Key(Array(input.field(0).utf8))
    let lines = body.lazy.filter { $0 == UInt8(ascii: "\n") }.count - 1
    if let index = SiteRuleIndex(decoding: SiteRuleIndex.framed(body, lines: max(lines, 0), for: key), for: key),
        let url = try? WebURL(parsing: input.field(1))
    {
        _ = index.rules(for: url.host)
        _ = index.sources
    }
    return 0
}
