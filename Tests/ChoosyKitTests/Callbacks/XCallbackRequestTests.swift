import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct XCallbackRequestTests {
    let schemes: Set<String> = ["choosy", "myapp"]

    @Test func parsesTheReservedParametersAndTheRest() throws {
        let request = try XCallbackRequest.parse(
            "choosy://x-callback-url/open?x-source=Notes&x-success=notes%3A%2F%2Fdone%3Fq%3Da%252Bb&x-error=notes://err&x-cancel=notes://cancel&type=twitter&profile_screenname=a%20b",
            schemes: schemes)
        #expect(request.scheme == "choosy")
        #expect(request.action == "open")
        #expect(request.source == "Notes")
        #expect(request.successURL == "notes://done?q=a%2Bb")
        #expect(request.errorURL == "notes://err")
        #expect(request.cancelURL == "notes://cancel")
        #expect(request.parameters == ["type": "twitter", "profile_screenname": "a b"])
    }

    @Test func schemeIsCaseInsensitive() throws {
        #expect(try XCallbackRequest.parse("MyApp://x-callback-url/list", schemes: schemes).scheme == "myapp")
        #expect(try XCallbackRequest.parse("myapp://x-callback-url/list", schemes: ["MYAPP"]).action == "list")
    }

    @Test func firstReservedValueWinsLastParameterWins() throws {
        let request = try XCallbackRequest.parse(
            "choosy://x-callback-url/open?x-success=a:1&x-success=b:2&type=one&type=two&x-other=ignored", schemes: schemes)
        #expect(request.successURL == "a:1")
        #expect(request.parameters == ["type": "two"])
    }

    @Test func emptySuccessMeansNoCallback() throws {
        let request = try XCallbackRequest.parse("choosy://x-callback-url/open?x-success=&x-error=", schemes: schemes)
        #expect(request.successURL == nil)
        #expect(request.errorURL == nil)
    }

    @Test func plusStaysPlusAndItemsWithoutEqualsAreEmpty() throws {
        let request = try XCallbackRequest.parse("choosy://x-callback-url/open?text=1+1%3D2&flag&%74ype=x", schemes: schemes)
        #expect(request.parameters == ["text": "1+1=2", "flag": "", "type": "x"])
    }

    @Test func actionIsTheDecodedPath() throws {
        #expect(try XCallbackRequest.parse("choosy://x-callback-url/my%20action/", schemes: schemes).action == "my action")
        #expect(try XCallbackRequest.parse("choosy://x-callback-url", schemes: schemes).action == "")
        #expect(try XCallbackRequest.parse("choosy://x-callback-url/open#frag", schemes: schemes).action == "open")
    }

    @Test(arguments: [
        ("choosy://example.com/open", XCallbackError.Code.badRequest),
        ("choosy://X-Callback-URL/open", .badRequest),
        ("choosy://user@x-callback-url/open", .badRequest),
        ("choosy://x-callback-url:80/open", .badRequest),
        ("choosy:x-callback-url/open", .badRequest),
        ("not a url", .badRequest),
        ("other://x-callback-url/open", .unregisteredScheme),
        ("choosy://x-callback-url/open?type=%zz", .badRequest),
        ("choosy://x-callback-url/open?type=%FF", .badRequest),
        ("choosy://x-callback-url/%C3", .badRequest),
    ])
    func rejects(url: String, code: XCallbackError.Code) {
        do {
            _ = try XCallbackRequest.parse(url, schemes: schemes)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.code == code, "\(url): \(error.message)")
        }
    }

    @Test func rejectedRequestsStillCarryTheirErrorCallback() {
        do {
            _ = try XCallbackRequest.parse("choosy://elsewhere/open?x-error=app%3A%2F%2Ferr&bad=%zz", schemes: schemes)
            Issue.record("expected a routing error")
        } catch {
            #expect(error.code == .badRequest)
            #expect(error.request?.errorURL == "app://err")
        }
    }
}
