/// Shows a desktop notification with `notify-send`, when there is a desktop to show it on
/// and the program is installed; never an error (it only repeats what stderr says).
package struct DesktopNotifier: Sendable {
    private let environment: Environment
    private let runner: ProcessRunner
    private let fileSystem: FileSystem

    package init(environment: Environment, runner: ProcessRunner, fileSystem: FileSystem) {
        self.environment = environment
        self.runner = runner
        self.fileSystem = fileSystem
    }

    /// Notification servers read the body as markup (the notification spec's `body-markup`).
    package func notify(_ message: String) {
        guard environment.value("DISPLAY") != nil || environment.value("WAYLAND_DISPLAY") != nil,
            let program = resolveExecutable("notify-send", searchPath: environment.searchPath, fileSystem: fileSystem)
        else { return }
        let request = ProcessRequest(
            argv: [
                program, "--app-name=choosy", "--icon=preferences-desktop-default-applications", "choosy", DisplayText.pangoMarkup(message),
            ],
            environment: environment, workingDirectory: "/", stdout: .discard, stderr: .discard
        )
        try? runner.spawnDetached(request)
    }
}
