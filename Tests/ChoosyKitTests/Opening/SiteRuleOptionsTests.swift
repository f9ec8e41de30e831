import ChoosyTestSupport
import Testing

@testable import ChoosyKit

/// The one place a rule's app, profile and private window become open options.
@Suite struct SiteRuleOptionsTests {
    @Test func aRuleIsAsIfAppAndPrivateWereGiven() throws {
        let site = try Site(parsing: "github.com/work-org")
        var options = OpenOptions()
        options.apply(SiteRule(site: site, target: .app(key: "firefox", profile: "Work and play", privateWindow: true)))
        #expect(options.app == "firefox@Work and play" && options.privateWindow)
        var plain = OpenOptions()
        plain.apply(SiteRule(site: site, target: .app(key: "chromium", profile: nil, privateWindow: false)))
        #expect(plain.app == "chromium" && !plain.privateWindow)
        var asked = OpenOptions()
        asked.apply(SiteRule(site: site, target: .ask))
        #expect(asked == OpenOptions())
    }
}
