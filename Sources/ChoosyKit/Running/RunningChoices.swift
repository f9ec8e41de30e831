/// Which choices run (doc/running.md): each instance of an app the user runs, the profile it
/// was started for, and its processes.
package struct RunningChoices: Equatable, Sendable {
    package struct Instance: Equatable, Sendable {
        /// The app's key.
        package var app: String
        /// The name of the profile it runs (`BrowserProfile.name`); nil when it names none of
        /// the app's profiles choosy knows: the browser's own default, or a profile list
        /// choosy did not read.
        package var profile: String?
        /// The process started for it first, then the ones it started that run its program
        /// (a browser's content and helper processes).
        package var pids: [Int32]
    }

    package var instances: [Instance] = []

    package static let none = RunningChoices()

    /// The instances of `choice`: its app's with its profile (a container runs when its
    /// profile does); for an app's plain key, every instance of the app.
    package func instances(of choice: InstalledApp) -> [Instance] {
        instances.filter { $0.app == choice.app.key && (choice.profile == nil || $0.profile == choice.profile?.name) }
    }

    package func isRunning(_ choice: InstalledApp) -> Bool {
        instances.contains { $0.app == choice.app.key && (choice.profile == nil || $0.profile == choice.profile?.name) }
    }

    /// The instance one of whose processes is `pid`.
    package func instance(withProcess pid: Int32) -> Instance? {
        instances.first { $0.pids.contains(pid) }
    }
}
