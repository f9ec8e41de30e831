import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `choosy route` end to end (doc/hooks-and-callbacks.md): the calling app is a recorder registered for
/// `myapp:` links, so every callback choosy opens is recorded as the URL it received.
@Suite struct RouteTests {
    let sandbox = Sandbox()

    init() {
        sandbox.overrides["CHOOSY_PICKER"] = sandbox.pickerScript()
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("chromium.desktop", name: "Chromium", program: "chromium")
        sandbox.installApp("myapp.desktop", name: "My App", program: "myapp", mimeTypes: ["x-scheme-handler/myapp"])
    }

    static let callbacks = "x-success=myapp%3A%2F%2Fdone&x-error=myapp%3A%2F%2Ffailed&x-cancel=myapp%3A%2F%2Fcancelled%3Fwhy%3Dcancel"
    static let openBrowser =
        "choosy://x-callback-url/open?x-source=My%20App&type=Browser&action=browse&url=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1%26c%3D%C3%A9&"
        + callbacks

    @discardableResult
    private func route(_ url: String, _ options: String..., pick: String? = nil) -> Sandbox.Output {
        sandbox.choosy(["route", url] + options, environment: pick.map { ["PICK": $0] } ?? [:])
    }

    /// The callbacks myapp received, once `count` have arrived.
    private func callbacks(count: Int = 1) -> [String] {
        sandbox.launched("myapp", count: count).map { $0.joined(separator: " ") }
    }

    @Test func openLaunchesTheChosenAppThenDeliversSuccess() {
        let output = route(RouteTests.openBrowser, "-v", pick: "Chromium (always)")
        #expect(output.status == 0)
        #expect(output.stdout == "")
        #expect(sandbox.launched("chromium") == [["https://example.org/a?b=1&c=é"]])
        #expect(callbacks() == ["myapp://done?app=chromium"])
        #expect(sandbox.pickerInvocations.map(\.lines) == [Sandbox.choiceLines("Firefox", "Chromium", site: "example.org")])
        #expect(sandbox.choosy("default", "browser").stdout == "chromium\n")
        // The app is started before the callback is opened.
        let started = output.stderrLines.firstIndex { $0.hasPrefix("choosy: started chromium.desktop") }
        let callback = output.stderrLines.firstIndex { $0 == "choosy: opening the callback with myapp.desktop" }
        #expect(started != nil && callback != nil && started! < callback!)

        // The default now answers without a picker.
        #expect(route(RouteTests.openBrowser).status == 0)
        #expect(callbacks(count: 2) == ["myapp://done?app=chromium", "myapp://done?app=chromium"])
        #expect(sandbox.pickerInvocations.count == 1)
    }

    @Test func theSystemsDefaultHandlerOfTheCallbackSchemeGetsIt() {
        sandbox.installApp("other.desktop", name: "Other", program: "other", mimeTypes: ["x-scheme-handler/myapp"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\nx-scheme-handler/myapp=other.desktop\n")
        #expect(route(RouteTests.openBrowser, "--app", "firefox").status == 0)
        #expect(sandbox.launched("other") == [["myapp://done?app=firefox"]])
        #expect(sandbox.launched("firefox") == [["https://example.org/a?b=1&c=é"]])
        #expect(sandbox.recordedRuns("myapp").isEmpty)
    }

    @Test func aCancelledPickerDeliversCancel() {
        let output = route(RouteTests.openBrowser)
        #expect(output.status == 5)
        #expect(output.stderrLines == ["choosy: cancelled: no app was chosen"])
        #expect(callbacks() == ["myapp://cancelled?why=cancel"])
        #expect(sandbox.choosy("default", "browser").stdout == "")
        // Nothing else was started: a later launch is the only one.
        #expect(sandbox.choosy("open", "browser", "browse", "url=https://later.example", "--app", "chromium").status == 0)
        #expect(sandbox.launched("chromium") == [["https://later.example"]])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test func anUnknownTypeDeliversErrorCode3() {
        let output = route("choosy://x-callback-url/open?type=Browsr&action=browse&" + RouteTests.callbacks)
        #expect(output.status == 3)
        #expect(output.stderrLines == ["choosy: unknown app type 'Browsr' (did you mean 'Browser'?)"])
        #expect(
            callbacks() == [
                "myapp://failed?errorCode=3&errorMessage=unknown%20app%20type%20%27Browsr%27%20%28did%20you%20mean%20%27Browser%27%3F%29"
            ])
    }

    @Test(arguments: [
        ("choosy://x-callback/open?type=browser&", 400, "the host of an x-callback-url must be 'x-callback-url' (got 'x-callback')"),
        (
            "choosy://X-Callback-URL/open?type=browser&", 400,
            "the host of an x-callback-url must be 'x-callback-url' (got 'X-Callback-URL')"
        ),
        ("other://x-callback-url/open?type=browser&", 401, "scheme 'other' is not registered"),
        ("choosy://x-callback-url/frobnicate?", 402, "unknown action 'frobnicate' (known actions: default, list, open, reset, url)"),
    ])
    func routingErrorsExit2AndReportToXError(request: String, code: Int, message: String) {
        let output = route(request + RouteTests.callbacks)
        #expect(output.status == 2)
        #expect(output.stderrLines == ["choosy: " + message])
        #expect(callbacks() == ["myapp://failed?errorCode=\(code)&errorMessage=" + SpecURL.encode(message)])
        #expect(sandbox.pickerInvocations.isEmpty)
    }

    @Test func dryRunPrintsTheCallbackAndOpensNothing() {
        let output = route(RouteTests.openBrowser, "--dry-run", "--app", "firefox")
        #expect(output.status == 0)
        #expect(output.stdout == "myapp://done?app=firefox\n")
        let cancelled = route(RouteTests.openBrowser, "--dry-run")
        #expect(cancelled.status == 5)
        #expect(cancelled.stdout == "myapp://cancelled?why=cancel\n")
        #expect(sandbox.writtenFiles.filter { $0.contains("preferences") } == [])
        // Only the later, real route opens anything.
        #expect(route(RouteTests.openBrowser, "--app", "chromium").status == 0)
        #expect(callbacks() == ["myapp://done?app=chromium"])
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    @Test(arguments: [
        "file:///etc/passwd", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>hi</b>", "vbscript:msgbox",
        " javascript:alert(1)",
    ])
    func unsafeCallbacksAreRefusedAndNothingRuns(callback: String) {
        let request =
            "choosy://x-callback-url/open?type=browser&action=browse&url=https%3A%2F%2Fexample.org&x-success=\(SpecURL.encode(callback))&x-error=myapp%3A%2F%2Ffailed"
        let output = route(request, "--app", "firefox")
        #expect(output.status == 2)
        #expect(output.stderrLines.count == 1 && output.stderr.hasPrefix("choosy: refusing callback URL"))
        let delivered = callbacks()
        #expect(delivered.count == 1 && delivered[0].hasPrefix("myapp://failed?errorCode=400&errorMessage=refusing%20callback%20URL"))
        #expect(sandbox.recordedRuns("firefox").isEmpty)

        // An unsafe x-error is not opened either.
        let unsafeError = route("choosy://x-callback-url/nothing?x-error=\(SpecURL.encode(callback))")
        #expect(unsafeError.status == 2)
        #expect(unsafeError.stderrLines.count == 1)
        #expect(callbacks().count == 1)
    }

    @Test func configSchemesAddASchemeToRoute() {
        let request = "myscheme://x-callback-url/default?type=browser&app=firefox&x-success=myapp%3A%2F%2Fdone"
        // Not registered yet: 401, and no x-error to report it to.
        #expect(route(request).status == 2)
        sandbox.write(sandbox.configHome + "/choosy/config.json", #"{"schemes": ["myscheme"]}"#)
        let output = route(request)
        #expect(output.status == 0)
        #expect(callbacks() == ["myapp://done?app=firefox"])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox\n")
        // choosy itself still routes.
        #expect(route("choosy://x-callback-url/default?type=browser&x-success=myapp%3A%2F%2Fagain").status == 0)
        #expect(callbacks(count: 2) == ["myapp://done?app=firefox", "myapp://again?app=firefox"])
    }

    @Test func urlAndListKeepTheCallbacksQueryAndFragment() {
        #expect(sandbox.choosy("default", "browser", "chromium").status == 0)
        let success = SpecURL.encode("myapp://done?keep=a%2Bb&empty=#top")
        #expect(
            route("choosy://x-callback-url/url?type=twitter&action=show_profile&profile_screenname=choosy%20app&x-success=\(success)")
                .status == 0)
        #expect(
            callbacks() == [
                "myapp://done?keep=a%2Bb&empty=&app=x_web&url=https%3A%2F%2Fx.com%2Fintent%2Fuser%3Fscreen_name%3Dchoosy%2520app#top"
            ])
        #expect(sandbox.recordedRuns("chromium").isEmpty)

        #expect(route("choosy://x-callback-url/list?type=browser&x-success=myapp%3A%2F%2Flisted").status == 0)
        #expect(callbacks(count: 2).last == "myapp://listed?apps=firefox%2Cchromium")
        #expect(route("choosy://x-callback-url/reset?type=browser&x-success=myapp%3A%2F%2Freset").status == 0)
        #expect(callbacks(count: 3).last == "myapp://reset")
        #expect(sandbox.choosy("default", "browser").stdout == "")
    }

    @Test func aCallbackIsNeverHandedToChoosyItself() {
        #expect(sandbox.choosy("install").status == 0)
        let output = route("choosy://x-callback-url/default?type=browser&x-success=choosy%3A%2F%2Fx-callback-url%2Flist")
        #expect(output.status == 0)
        #expect(
            output.stderrLines == [
                "choosy: warning: no app handles choosy: links, so the callback choosy://x-callback-url/list?app= was not opened"
            ])
    }
}
