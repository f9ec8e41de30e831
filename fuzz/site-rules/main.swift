@testable import ChoosyKit

// A site rule decides which browser and profile sees a link, and rules.json is read for every
// link, a site as choosy writes it without the URL parser. A SITE must survive any text; one
// that parses is written as a SITE that reads back as the same site (so the reader without the
// URL parser agrees with the one with it); the link `https://` + that host is the site's; a
// link a rule matches has the rule's host (or is under its domain) and begins with its path;
// whether `rule add` would refuse it as never matching is the same for its written form;
// rules.json of any text either reads, and then reads back as itself when written, or is refused.
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
    }
    return 0
}
