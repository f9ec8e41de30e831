import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@Suite struct HookRunnerTests {
    let sandbox = Sandbox()
    let diagnostics = RecordingDiagnostics()

    private var context: HookContext {
        HookContext(
            typeKey: "twitter", typeName: "Twitter", actionKey: "show_profile", actionName: "Show Profile",
            appKey: "tweetbot", parameters: ["profile_screenname": "Substantial", "callback_url": "choosy:"])
    }

    private func runner(timeout: Double = HookRunner.defaultTimeout, userID: UInt32 = getuid(), extra: [String: String] = [:]) -> HookRunner
    {
        var environment = sandbox.choosyEnvironment
        for (name, value) in extra { environment[name] = value }
        return HookRunner(
            environment: environment, diagnostics: diagnostics, processRunner: PosixProcessRunner(fileSystem: LocalFileSystem()),
            fileSystem: LocalFileSystem(), timeout: timeout, userID: userID)
    }

    @discardableResult
    private func script(_ relativePath: String, _ body: String, mode: Int = 0o755) -> String {
        sandbox.write(sandbox.configHome + "/choosy/" + relativePath, "#!/bin/sh\n" + body + "\n", mode: mode)
    }

    @Test func locatesScriptsBySymbol() {
        let runner = runner()
        #expect(
            runner.prepareHookPath(typeName: "Twitter", actionName: "Show Profile") == sandbox.configHome
                + "/choosy/hooks/prepareForTwitterShowProfile")
        #expect(runner.customActionPath("say-hello") == sandbox.configHome + "/choosy/actions/SayHello")
        #expect(runner.customActionPath("---") == nil)
        #expect(runner.customActionPath("../../bin/sh") == sandbox.configHome + "/choosy/actions/BinSh")
    }

    @Test func prepareHookRewritesParametersAndSeesTheContext() {
        script(
            "hooks/prepareForTwitterShowProfile",
            """
            env | grep '^CHOOSY_' | sort > "\(sandbox.records)/env"
            echo "profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}_rewritten"
            echo "this line is ignored"
            echo "extra=a=b"
            echo "=no key"
            """)
        let result = runner(extra: ["CHOOSY_PARAM_STALE": "x", "CHOOSY_APP": "stale"]).prepare(context)
        #expect(result == .proceed(["profile_screenname": "Substantial_rewritten", "callback_url": "choosy:", "extra": "a=b"]))
        #expect(
            sandbox.read("records/env") == """
                CHOOSY_ACTION=show_profile
                CHOOSY_APP=tweetbot
                CHOOSY_OFFLINE=1
                CHOOSY_PARAM_CALLBACK_URL=choosy:
                CHOOSY_PARAM_PROFILE_SCREENNAME=Substantial
                CHOOSY_TYPE=twitter

                """)
        let path = sandbox.configHome + "/choosy/hooks/prepareForTwitterShowProfile"
        #expect(diagnostics.explanations.contains("looking for prepare hook \(path)"))
        #expect(diagnostics.explanations.contains("running prepare hook \(path)"))
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func withoutAHookParametersPassUnchanged() {
        #expect(runner().prepare(context) == .proceed(context.parameters))
        #expect(diagnostics.explanations.contains("no hook at \(sandbox.configHome)/choosy/hooks/prepareForTwitterShowProfile"))
    }

    @Test func failingHookCancels() {
        script("hooks/prepareForTwitterShowProfile", "echo 'not today' >&2; echo 'second' >&2; exit 3")
        #expect(runner().prepare(context) == .cancel("hook prepareForTwitterShowProfile exited with status 3: not today"))
    }

    @Test func groupWritableHookIsRefused() {
        let path = script("hooks/prepareForTwitterShowProfile", "touch '\(sandbox.records)/ran'; exit 1", mode: 0o775)
        #expect(runner().prepare(context) == .proceed(context.parameters))
        #expect(!sandbox.exists("records/ran"))
        #expect(diagnostics.warnings == ["refusing hook \(path): it is writable by group or others (mode 775); run: chmod go-w \(path)"])
    }

    @Test func worldWritableOrForeignOrNonExecutableHooksAreRefused() {
        let path = script("actions/Act", "touch '\(sandbox.records)/ran'", mode: 0o757)
        #expect(runner().runCustomAction("act", parameters: [:]) == nil)
        chmod(path, 0o755)
        #expect(runner(userID: getuid() &+ 1).runCustomAction("act", parameters: [:]) == nil)
        chmod(path, 0o644)
        #expect(runner().runCustomAction("act", parameters: [:]) == nil)
        #expect(!sandbox.exists("records/ran"))
        #expect(diagnostics.warnings.count == 3)
        #expect(diagnostics.warnings.allSatisfy { $0.hasPrefix("refusing custom action \(path): ") })
        #expect(diagnostics.warnings[1].contains("owned by uid \(getuid())"))
        #expect(diagnostics.warnings[2].contains("not executable"))
    }

    @Test func hookThatRunsTooLongIsKilledAndCancels() {
        script("hooks/prepareForTwitterShowProfile", "sleep 30 & wait")
        let start = Date()
        #expect(runner(timeout: 0.5).prepare(context) == .cancel("hook prepareForTwitterShowProfile timed out after 0.5 s"))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func customActionOutputGoesToSuccess() {
        script(
            "actions/SayHello",
            """
            echo "greeting=hello ${CHOOSY_PARAM_NAME}"
            echo "noise"
            echo "action=${CHOOSY_ACTION} type=${CHOOSY_TYPE-unset} app=${CHOOSY_APP-unset}"
            """)
        let outcome = runner().runCustomAction("say-hello", parameters: ["name": "Ann"])
        #expect(outcome == .success([("greeting", "hello Ann"), ("action", "say-hello type=unset app=unset")]))
    }

    @Test func customActionFailureReportsStatusAndFirstStderrLine() {
        script("actions/Broken", "echo 'out'; printf 'first line\\r\\nsecond line\\n' >&2; exit 7")
        #expect(runner().runCustomAction("broken", parameters: [:]) == .failure(code: 7, message: "first line"))
        script("actions/Quiet", "exit 9")
        #expect(
            runner().runCustomAction("quiet", parameters: [:]) == .failure(code: 9, message: "custom action 'quiet' exited with status 9"))
    }

    @Test func customActionTimeoutAndStartFailure() {
        script("actions/Slow", "sleep 30")
        #expect(
            runner(timeout: 0.3).runCustomAction("slow", parameters: [:])
                == .failure(code: HookRunner.timeoutStatus, message: "custom action 'slow' timed out after 0.3 s"))
        sandbox.write(sandbox.configHome + "/choosy/actions/NoInterpreter", "#!/nonexistent/interpreter\n", mode: 0o755)
        guard case .failure(let code, let message) = runner().runCustomAction("no interpreter", parameters: [:]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == HookRunner.cannotStartStatus)
        #expect(message.hasPrefix("custom action 'no interpreter' cannot be started: ") && !message.contains("/"))
    }

    @Test func missingCustomActionIsUnknown() {
        #expect(runner().runCustomAction("nothing-here", parameters: [:]) == nil)
        #expect(diagnostics.explanations.contains("looking for custom action \(sandbox.configHome)/choosy/actions/NothingHere"))
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func configureCommandRunsFirstThroughTheShell() {
        script("hooks/prepareForTwitterShowProfile", "echo \"profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}+hook\"")
        let result = runner().prepare(context, configure: "echo \"profile_screenname=${CHOOSY_PARAM_PROFILE_SCREENNAME}+configure\" | cat")
        #expect(result == .proceed(["profile_screenname": "Substantial+configure+hook", "callback_url": "choosy:"]))
        #expect(runner().prepare(context, configure: "echo nope >&2; exit 1") == .cancel("--configure command exited with status 1: nope"))
    }

    @Test func parameterKeysBecomeVariableNames() {
        script("actions/Env", "env | grep '^CHOOSY_PARAM_' | sort > '\(sandbox.records)/env'")
        _ = runner().runCustomAction("env", parameters: ["file-name": "a", "File_Name": "b", "ok": "c", "nul": "x\u{0}y", "ü": "d"])
        #expect(
            sandbox.read("records/env") == """
                CHOOSY_PARAM_FILE_NAME=b
                CHOOSY_PARAM_OK=c
                CHOOSY_PARAM___=d

                """)
        #expect(diagnostics.explanations.contains("parameter 'file-name' would also be CHOOSY_PARAM_FILE_NAME; not passed to the hook"))
        #expect(diagnostics.explanations.contains("parameter 'nul' holds a NUL byte; not passed to the hook"))
    }
}
