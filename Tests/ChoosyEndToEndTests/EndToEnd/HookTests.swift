import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// Prepare hooks, `--configure` and custom actions end to end (doc/hooks-and-callbacks.md).
@Suite struct HookTests {
    let sandbox = Sandbox()
    static let profileURL = "https://x.com/intent/user?screen_name="

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("myapp.desktop", name: "My App", program: "myapp", mimeTypes: ["x-scheme-handler/myapp"])
    }

    @discardableResult
    private func script(_ relativePath: String, _ body: String, mode: Int = 0o755) -> String {
        sandbox.write(sandbox.configHome + "/choosy/" + relativePath, "#!/bin/sh\n" + body + "\n", mode: mode)
    }

    /// Lines appended to `records/order` by hooks, in the order they ran.
    private var order: [String] {
        (sandbox.read("records/order") ?? "").split(separator: "\n").map(String.init)
    }

    private func profile() -> Sandbox.Output {
        sandbox.choosy("open", "Twitter", "show_profile", "profile_screenname=choosy", "callback_url=choosy:")
    }

    @Test func aPrepareHookRewritesAParameterOfTheLaunchedURL() {
        script(
            "hooks/prepareForTwitterShowProfile",
            """
            env | grep '^CHOOSY_' | grep -v CHOOSY_OFFLINE | sort > "\(sandbox.records)/env"
            echo "profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}_team"
            echo "not an assignment"
            """)
        let output = profile()
        #expect(output.status == 0)
        #expect(output.stderr == "")
        #expect(sandbox.launched("firefox") == [[HookTests.profileURL + "choosy_team"]])
        #expect(
            sandbox.read("records/env") == """
                CHOOSY_ACTION=show_profile
                CHOOSY_APP=x_web
                CHOOSY_PARAM_CALLBACK_URL=choosy:
                CHOOSY_PARAM_PROFILE_SCREENNAME=choosy
                CHOOSY_TYPE=twitter

                """)
        #expect(sandbox.choosy("url", "twitter", "show_profile", "profile_screenname=x").stdout == HookTests.profileURL + "x_team\n")
    }

    @Test func hookNamesComeFromTheTypeAndActionNames() {
        // Browser / "Browse to a URL" → prepareForBrowserBrowseToAURL.
        script("hooks/prepareForBrowserBrowseToAURL", #"echo "url=${CHOOSY_PARAM_URL}?via=hook""#)
        #expect(sandbox.choosy("open", "browser", "browse", "url=https://example.org/").status == 0)
        #expect(sandbox.launched("firefox") == [["https://example.org/?via=hook"]])
        #expect(
            sandbox.choosy("-v", "open", "browser", "browse", "url=https://example.org/").stderr
                .contains("choosy: running prepare hook \(sandbox.configHome)/choosy/hooks/prepareForBrowserBrowseToAURL"))
    }

    @Test func aFailingHookCancels() {
        script("hooks/prepareForTwitterShowProfile", "echo 'not this profile' >&2; echo 'second line' >&2; exit 3")
        let output = profile()
        #expect(output.status == 5)
        #expect(output.stderrLines == ["choosy: cancelled: hook prepareForTwitterShowProfile exited with status 3: not this profile"])

        let routed = sandbox.choosy(
            "route",
            "choosy://x-callback-url/open?type=twitter&action=show_profile&profile_screenname=x&x-success=myapp%3A%2F%2Fdone&x-cancel=myapp%3A%2F%2Fcancelled"
        )
        #expect(routed.status == 5)
        #expect(routed.stderrLines == ["choosy: cancelled: hook prepareForTwitterShowProfile exited with status 3: not this profile"])
        #expect(sandbox.launched("myapp") == [["myapp://cancelled"]])
        // Nothing was launched: the later run (without the hook) is the only one.
        try? FileManager.default.removeItem(atPath: sandbox.configHome + "/choosy/hooks/prepareForTwitterShowProfile")
        #expect(profile().status == 0)
        #expect(sandbox.launched("firefox") == [[HookTests.profileURL + "choosy"]])
    }

    /// The time limit end to end: a hook that hangs, and has started a child that hangs too, is
    /// killed with its whole process group after 10 s; nothing is launched and open exits 5.
    @Test func aHookPastTheTimeLimitIsKilledWithItsChildAndTheOpenIsCancelled() async throws {
        script(
            "hooks/prepareForBrowserBrowseToAURL",
            """
            sleep 300 &
            echo $! > "\(sandbox.records)/child"
            sleep 300
            """)
        let started = Date()
        let output = await sandbox.run(["open", "browser", "browse", "url=https://example.org/"], timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(output.status == 5)
        #expect(output.stderrLines == ["choosy: cancelled: hook prepareForBrowserBrowseToAURL timed out after 10 s"])
        // Killed after the limit, long before its sleep ends: an upper bound far above 10 s,
        // since under a loaded test run starting choosy alone can take many seconds.
        #expect(elapsed >= HookRunner.defaultTimeout && elapsed < 150, "took \(elapsed) s")
        let child = try #require(sandbox.read("records/child").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(waitUntilGone(child, timeout: 2), "the hook's child \(child) still runs")
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    /// §11: a hook that writes without end (`exec yes`) once grew choosy to 2 GB and aborted it
    /// after 6 s. Now 1 MiB of it is kept, one warning says so, and the time limit ends it.
    @Test func aHookThatNeverStopsWritingCostsAMebibyteAndEndsAtTheTimeLimit() async throws {
        script("hooks/prepareForBrowserBrowseToAURL", "exec yes url=https://example.org/hooked")
        let started = Date()
        let (output, mebibytes) = await sandbox.measuredRun(["open", "browser", "browse", "url=https://example.org/"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(output.status == 5)
        #expect(
            output.stderrLines == [
                "choosy: warning: hook prepareForBrowserBrowseToAURL wrote more than 1 MiB on stdout; the rest was discarded",
                "choosy: cancelled: hook prepareForBrowserBrowseToAURL timed out after 10 s",
            ])
        #expect(mebibytes < 64, "\(mebibytes) MiB")
        #expect(elapsed >= HookRunner.defaultTimeout && elapsed < 150, "took \(elapsed) s")
        #expect(sandbox.recordedRuns("firefox").isEmpty)
    }

    /// 100 MB of output once cost 11.7 s and 3.8 GB. A hook that exits after writing far past
    /// the limit still counts: its complete lines within the first MiB apply, the cut line
    /// and the rest do not.
    @Test func aHookThatWritesAHundredMegabytesAndExitsIsReadUpToTheLimit() async throws {
        script(
            "hooks/prepareForBrowserBrowseToAURL",
            """
            echo url=https://example.org/first
            head -c 100000000 /dev/zero | tr '\\0' x
            echo
            echo url=https://example.org/too-late
            echo 'a lot on stderr too' >&2
            """)
        let (output, mebibytes) = await sandbox.measuredRun(["open", "browser", "browse", "url=https://example.org/"])
        #expect(output.status == 0)
        #expect(
            output.stderrLines == [
                "choosy: warning: hook prepareForBrowserBrowseToAURL wrote more than 1 MiB on stdout; the rest was discarded"
            ])
        #expect(mebibytes < 64, "\(mebibytes) MiB")
        #expect(sandbox.launched("firefox") == [["https://example.org/first"]])
    }

    /// The same for a custom action: its x-success comes at its exit, and its child is ended.
    @Test func aCustomActionThatExitsLeavingAChildIsDoneAtItsExit() async throws {
        script(
            "actions/Publish",
            """
            sleep 30 &
            echo $! > "\(sandbox.records)/child"
            echo posted=yes
            """)
        let output = await sandbox.run(["route", "choosy://x-callback-url/publish?x-success=myapp%3A%2F%2Fdone"], timeout: 60)
        #expect(output.status == 0)
        #expect(sandbox.launched("myapp") == [["myapp://done?posted=yes"]])
        let child = try #require(sandbox.read("records/child").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(waitUntilGone(child, timeout: 2), "the action's child \(child) still runs")
    }

    @Test(arguments: [0o775, 0o757])
    func aHookWritableByOthersIsRefusedWithAWarning(mode: Int) {
        let path = script(
            "hooks/prepareForTwitterShowProfile", "touch '\(sandbox.records)/ran'; echo profile_screenname=hijacked", mode: mode)
        let output = profile()
        #expect(output.status == 0)
        #expect(
            output.stderrLines == [
                "choosy: warning: refusing hook \(path): it is writable by group or others (mode \(String(mode, radix: 8))); run: chmod go-w \(path)"
            ])
        #expect(sandbox.launched("firefox") == [[HookTests.profileURL + "choosy"]])
        #expect(!sandbox.exists("records/ran"))
    }

    @Test func configureRunsBeforeThePrepareHook() {
        script(
            "hooks/prepareForTwitterShowProfile",
            """
            echo "hook saw $CHOOSY_PARAM_PROFILE_SCREENNAME" >> "\(sandbox.records)/order"
            echo "profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}_hook"
            """)
        let configure =
            #"echo "configure saw $CHOOSY_PARAM_PROFILE_SCREENNAME for $CHOOSY_APP" >> "$RECORDS/order"; echo "profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}_configure""#
        let output = sandbox.choosy(
            ["open", "twitter", "show_profile", "profile_screenname=choosy", "--configure", configure],
            environment: ["RECORDS": sandbox.records])
        #expect(output.status == 0)
        #expect(order == ["configure saw choosy for x_web", "hook saw choosy_configure"])
        #expect(sandbox.launched("firefox") == [[HookTests.profileURL + "choosy_configure_hook"]])

        let refused = sandbox.choosy("open", "twitter", "show_profile", "profile_screenname=x", "--configure", "echo no >&2; exit 4")
        #expect(refused.status == 5)
        #expect(refused.stderrLines == ["choosy: cancelled: --configure command exited with status 4: no"])
        #expect(order.count == 2)
    }

    @Test func aCustomActionsOutputReachesXSuccess() {
        script(
            "actions/ShareToMastodon",
            """
            echo "$CHOOSY_ACTION $CHOOSY_PARAM_TEXT" >> "\(sandbox.records)/order"
            echo "status_url=https://mastodon.example/@me/1?t=${CHOOSY_PARAM_TEXT}"
            echo "ignored line"
            echo "posted=yes"
            """)
        let output = sandbox.choosy(
            "route", "choosy://x-callback-url/share-to-mastodon?text=hi&x-success=myapp%3A%2F%2Fshared&x-error=myapp%3A%2F%2Ffailed")
        #expect(output.status == 0)
        #expect(output.stderr == "")
        #expect(order == ["share-to-mastodon hi"])
        #expect(sandbox.launched("myapp") == [["myapp://shared?status_url=https%3A%2F%2Fmastodon.example%2F%40me%2F1%3Ft%3Dhi&posted=yes"]])
    }

    @Test func aFailingCustomActionGivesXErrorWithItsStatusAndFirstStderrLine() {
        script("actions/Publish", "echo 'out'; echo 'no network: try later' >&2; echo 'details' >&2; exit 42")
        let output = sandbox.choosy("route", "choosy://x-callback-url/publish?x-success=myapp%3A%2F%2Fdone&x-error=myapp%3A%2F%2Ffailed")
        #expect(output.status == 42)
        #expect(output.stderrLines == ["choosy: no network: try later"])
        #expect(sandbox.launched("myapp") == [["myapp://failed?errorCode=42&errorMessage=no%20network%3A%20try%20later"]])
    }

    @Test func aRefusedCustomActionIsAnUnknownAction() {
        let path = script("actions/Publish", "touch '\(sandbox.records)/ran'", mode: 0o775)
        let output = sandbox.choosy("route", "choosy://x-callback-url/publish?x-error=myapp%3A%2F%2Ffailed")
        #expect(output.status == 2)
        #expect(
            output.stderrLines.first
                == "choosy: warning: refusing custom action \(path): it is writable by group or others (mode 775); run: chmod go-w \(path)")
        #expect(output.stderrLines.last?.hasPrefix("choosy: unknown action 'publish'") == true)
        #expect(sandbox.launched("myapp").first?.first?.hasPrefix("myapp://failed?errorCode=402&") == true)
        #expect(!sandbox.exists("records/ran"))
    }
}

/// Hooks cannot hold choosy or its memory (doc/security.md, "Hooks").
@Suite struct BoundedHookTests {
    let sandbox = Sandbox()

    init() {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
    }

    private func hook(_ body: String) {
        sandbox.write(sandbox.configHome + "/choosy/hooks/prepareForBrowserBrowseToAURL", "#!/bin/sh\n" + body + "\n", mode: 0o755)
    }

    private func open() -> Sandbox.Output {
        sandbox.choosy(["open", "browser", "browse", "url=https://example.org/"], timeout: 30)
    }

    /// `sleep 30 &` keeps the hook's stdout open; choosy returns at once and ends the sleep.
    @Test func aHookThatExitsIsNotWaitedForAndWhatItLeftIsEnded() throws {
        hook("sleep 30 & echo $! > '\(sandbox.records)/sleep.pid'; echo url=https://example.org/hooked; exit 0")
        let started = Date()
        let output = open()
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Date().timeIntervalSince(started) < 8, "waited for the hook's child")
        #expect(sandbox.launched("firefox") == [["https://example.org/hooked"]])
        let pid = try #require(sandbox.read("records/sleep.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
        #expect(state == nil || state == "Z", "the hook's sleep is still running")
    }

    /// Output past 1 MiB is discarded with one warning; the assignments before it count.
    @Test func hugeOutputIsCappedWithOneWarning() {
        hook("echo url=https://example.org/capped; head -c 100000000 /dev/zero | tr '\\\\0' 'x'")
        let output = open()
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines == [
                "choosy: warning: hook prepareForBrowserBrowseToAURL wrote more than 1 MiB on stdout; the rest was discarded"
            ])
        #expect(sandbox.launched("firefox") == [["https://example.org/capped"]])
    }
}
