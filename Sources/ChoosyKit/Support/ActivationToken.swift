import Synchronization

/// The activation token a launcher or the portal handed choosy (`XDG_ACTIVATION_TOKEN` on
/// Wayland, `DESKTOP_STARTUP_ID` on X11), so that what it starts may come to the front. A
/// token is used once (doc/desktop.md): by the launched app when no picker was shown, else by the
/// graphical picker. Every other child gets an environment without it.
package final class ActivationToken: Sendable {
    /// Both carry the token, as GIO passes it on.
    package static let variables = ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"]
    /// What describes choosy's own launch: no child inherits it (an app choosy starts is no
    /// link's source, doc/links-and-rules.md).
    package static let launchVariables = [
        "GIO_LAUNCHED_DESKTOP_FILE", "GIO_LAUNCHED_DESKTOP_FILE_PID", "BAMF_DESKTOP_FILE_HINT", "CHOOSY_SOURCE",
    ]

    /// The token's bytes, as given: a token is passed on byte for byte.
    private let unused: Mutex<[UInt8]?>

    package init(_ value: [UInt8]?) {
        unused = Mutex(value)
    }

    /// The token of `environment` (`XDG_ACTIVATION_TOKEN` first), and the environment every
    /// child starts from: without the token and without the variables of choosy's own launch.
    package static func split(_ environment: Environment) -> (environment: Environment, token: ActivationToken) {
        let name = variables.first { environment.value($0) != nil }
        var children = environment
        for name in variables + launchVariables { children[name] = nil }
        return (children, ActivationToken(name.flatMap(environment.bytes(of:))))
    }

    /// Gives the token, if it is still unused, to the child whose environment this is, and
    /// marks it used.
    package func pass(into environment: inout Environment) {
        if lend(into: &environment) { markUsed() }
    }

    /// Puts the unused token into `environment` without marking it used: a picker uses it only
    /// when it could show itself. Returns whether there was one.
    package func lend(into environment: inout Environment) -> Bool {
        guard let token = unused.withLock({ $0 }) else { return false }
        for name in ActivationToken.variables { environment.set(name, bytes: token) }
        return true
    }

    package func markUsed() {
        unused.withLock { $0 = nil }
    }
}
