import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct CallbackRouterTests {
    private func router() -> CallbackRouter {
        var router = CallbackRouter(schemes: ["choosy", "Extra"])
        router.register(action: "open") { request in
            .success([("app", request.parameters["app"] ?? "none")])
        }
        router.register(action: "cancel") { _ in .cancel }
        router.register(action: "fail") { request in .failure(code: 3, message: "unknown app type '\(request.parameters["type"] ?? "")'") }
        router.register(action: "weird") { _ in .failure(code: 999, message: "odd") }
        return router
    }

    private let callbacks = "x-success=app%3A%2F%2Fok%3Fq%3Da%252Bb&x-error=app%3A%2F%2Ferr&x-cancel=app%3A%2F%2Fcancel"

    @Test func successOpensXSuccessWithParameters() {
        let result = router().route("choosy://x-callback-url/open?\(callbacks)&app=tweet%20bot")
        #expect(result.status == 0)
        #expect(result.callbackURL == "app://ok?q=a%2Bb&app=tweet%20bot")
        #expect(result.message == nil)
        #expect(result.request?.action == "open")
    }

    @Test func successWithoutCallbackOpensNothing() {
        let result = router().route("EXTRA://x-callback-url/open?x-success=")
        #expect(result.status == 0)
        #expect(result.callbackURL == nil)
    }

    @Test func cancelOpensXCancelWithStatus5() {
        let result = router().route("choosy://x-callback-url/cancel?\(callbacks)")
        #expect(result.status == 5)
        #expect(result.callbackURL == "app://cancel")
    }

    @Test func failureOpensXErrorWithCodeAndMessage() {
        let result = router().route("choosy://x-callback-url/fail?\(callbacks)&type=Twiter")
        #expect(result.status == 3)
        #expect(result.callbackURL == "app://err?errorCode=3&errorMessage=unknown%20app%20type%20%27Twiter%27")
        #expect(result.message == "unknown app type 'Twiter'")
        let weird = router().route("choosy://x-callback-url/weird?\(callbacks)")
        #expect(weird.status == 1)
        #expect(weird.callbackURL == "app://err?errorCode=999&errorMessage=odd")
    }

    @Test(arguments: [
        ("choosy://elsewhere/open", 400),
        ("nope://x-callback-url/open", 401),
        ("choosy://x-callback-url/frobnicate", 402),
        ("choosy://x-callback-url/", 402),
    ])
    func routingErrorsExit2AndReportTheirCode(url: String, code: Int) {
        let result = router().route("\(url)?\(callbacks)")
        #expect(result.status == 2)
        #expect(result.callbackURL?.hasPrefix("app://err?errorCode=\(code)&errorMessage=") == true, "\(result)")
        #expect(result.message != nil)
    }

    @Test func unknownActionMessageListsKnownActions() {
        let result = router().route("choosy://x-callback-url/frobnicate")
        #expect(result.callbackURL == nil)
        #expect(result.message == "unknown action 'frobnicate' (known actions: cancel, fail, open, weird)")
    }

    @Test func fallbackMayClaimAnAction() {
        var router = router()
        router.fallback = { request in
            request.action == "custom" ? .success([("done", "yes")]) : nil
        }
        #expect(router.route("choosy://x-callback-url/custom?x-success=app://ok").callbackURL == "app://ok?done=yes")
        #expect(
            router.route("choosy://x-callback-url/other?x-error=app://err").callbackURL
                == "app://err?errorCode=402&errorMessage=unknown%20action%20%27other%27%20%28known%20actions%3A%20cancel%2C%20fail%2C%20open%2C%20weird%29"
        )
    }

    @Test func unsafeCallbackRefusesTheWholeRequest() {
        var ran = false
        var router = CallbackRouter(schemes: ["choosy"])
        router.register(action: "open") { _ in
            ran = true
            return .success([])
        }
        let result = router.route("choosy://x-callback-url/open?x-success=javascript%3Aalert(1)&x-error=app://err")
        #expect(!ran)
        #expect(result.status == 2)
        #expect(result.callbackURL?.hasPrefix("app://err?errorCode=400&errorMessage=refusing%20callback%20URL") == true)

        let noError = router.route("choosy://x-callback-url/open?x-error=file:///tmp/x")
        #expect(!ran)
        #expect(noError.callbackURL == nil)
        #expect(noError.message == "refusing callback URL 'file:///tmp/x': 'file:' callbacks are never opened")
    }
}
