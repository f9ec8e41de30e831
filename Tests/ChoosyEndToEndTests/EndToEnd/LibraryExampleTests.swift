import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `Examples/share-profile`, a program that uses ChoosyKit through its public API only, run in
/// a sandbox like the `choosy` binary (`make test` builds it first).
private let exampleProgram = Sandbox.packageRoot + "/Examples/.build/debug/share-profile"

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: exampleProgram), "run make test: it builds Examples/ first"))
struct LibraryExampleTests {
    static let program = exampleProgram
    let sandbox = Sandbox()

    func run(_ arguments: String..., environment extra: [String: String] = [:]) -> (status: Int32, stdout: String) {
        var environment = sandbox.environment
        for (name, value) in extra { environment[name] = value }
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/setsid", "-w", Self.program] + arguments, environment: environment, workingDirectory: sandbox.root,
                timeout: 60))
        return (result.status, String(decoding: result.stdout, as: UTF8.self))
    }

    @Test func handlesAnActionWithTheUsersFavouriteAndAsksAgainAfterAReset() {
        // Two Twitter apps: the X web app (a browser is installed) and a client the user's
        // own catalog file adds.
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox")
        sandbox.installApp("birdie.desktop", name: "Birdie", program: "birdie")
        sandbox.write(
            sandbox.configHome + "/choosy/catalog/twitter.json",
            """
            [{"key": "twitter", "apps": [{"name": "Birdie", "key": "birdie", "app_url_scheme": "birdie:",
              "desktop_ids": ["birdie.desktop"],
              "actions": [{"key": "show_profile", "url_format": "birdie://user/{{profile_screenname}}"}]}]}]
            """)
        let picker = sandbox.pickerScript()
        let first = run("choosyapp", environment: ["CHOOSY_PICKER": picker, "PICK": "Birdie (always)"])
        #expect(first.status == 0)
        #expect(first.stdout == "opened birdie://user/choosyapp with birdie\n")
        #expect(sandbox.pickerInvocations.last?.title == "Open @choosyapp with…")
        #expect(sandbox.launched("birdie") == [["birdie://user/choosyapp"]])
        // Remembered: no picker the second time; --ask forgets and asks again.
        #expect(run("ada", environment: ["CHOOSY_PICKER": picker]).status == 0)
        #expect(sandbox.pickerInvocations.count == 1)
        let asked = run("--ask", "ada", environment: ["CHOOSY_PICKER": picker, "PICK": "X (web)"])
        #expect(asked.status == 0 && sandbox.pickerInvocations.count == 2)
        #expect(asked.stdout == "opened https://x.com/intent/user?screen_name=ada with x_web in firefox\n")
        #expect(sandbox.launched("firefox") == [["https://x.com/intent/user?screen_name=ada"]])
    }

    @Test func failuresCarryChoosysExitStatus() {
        let nothing = run("choosyapp")
        #expect(nothing.status == 4)
        #expect(nothing.stdout.hasPrefix("share-profile: nothing installed can open Twitter"))
        // Offline, a refresh cannot happen and says why.
        let refresh = run("--refresh")
        #expect(refresh.status == 4)
        #expect(refresh.stdout.contains("could not refresh Twitter: cannot update while offline"))
    }
}
