import Glibc

/// The process environment as a value, so that logic never reads global state and tests can
/// hand in any environment. XDG base directories follow the XDG Base Directory spec: unset,
/// empty or relative values fall back to the defaults; so does a relative `HOME` (doc/security.md), to
/// the home the password database gives.
package struct Environment: Sendable {
    package var variables: [String: String]
    /// The user's home by the password database, read by `current()` (the composition root's
    /// environment), so that logic never asks the system for it.
    package var accountHome: String?

    package init(_ variables: [String: String], accountHome: String? = nil) {
        self.variables = variables
        self.accountHome = accountHome
    }

    /// The environment this process was started with, and the user's home by the password database.
    package static func current() -> Environment {
        let variables = currentVariables()
        // Asked only when HOME cannot serve: a lookup goes through NSS, which every command
        // would otherwise pay on its start-up path.
        let usable = variables["HOME"]?.hasPrefix("/") == true
        return Environment(variables, accountHome: usable ? nil : passwordDatabaseHome())
    }

    private static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    private static func currentVariables() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var variables: [String: String] = [:]
        variables.reserveCapacity(count)
        for index in 0..<count {
            let entry = environ[index]!
            // Split at the first `=` byte: a search by Character would cost more per variable
            // than the rest of start-up.
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: entry, count: equals - entry), as: UTF8.self)
            if variables[name] == nil {
                variables[name] = String(cString: equals + 1)
            }
        }
        return variables
    }

    package subscript(name: String) -> String? {
        get { variables[name] }
        set { variables[name] = newValue }
    }

    /// A non-empty value, or nil.
    package func value(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// True for `1`, `true`, `yes` and `on`, in any case.
    package func flag(_ name: String) -> Bool {
        guard let value = variables[name]?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    /// An absolute `HOME`, else the password database's home; nil when neither is absolute (the
    /// command line then stops, doc/security.md), so files never land below the working directory.
    package var absoluteHome: String? {
        if let home = value("HOME"), home.hasPrefix("/") { return home }
        if let accountHome, accountHome.hasPrefix("/") { return accountHome }
        return nil
    }

    /// `absoluteHome`, or `/` for a library caller with no home at all.
    package var home: String { absoluteHome ?? "/" }

    package var dataHome: String { baseDirectory("XDG_DATA_HOME", default: ".local/share") }
    package var configHome: String { baseDirectory("XDG_CONFIG_HOME", default: ".config") }
    package var cacheHome: String { baseDirectory("XDG_CACHE_HOME", default: ".cache") }
    package var stateHome: String { baseDirectory("XDG_STATE_HOME", default: ".local/state") }

    package var dataDirs: [String] {
        absoluteList("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"])
    }

    package var configDirs: [String] {
        absoluteList("XDG_CONFIG_DIRS", default: ["/etc/xdg"])
    }

    /// The directories of `PATH`, in order.
    package var searchPath: [String] {
        (value("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The desktop names of `XDG_CURRENT_DESKTOP`, lowercased, for `<desktop>-mimeapps.list`.
    package var currentDesktops: [String] {
        (value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.lowercased() }
    }

    private func baseDirectory(_ name: String, default relative: String) -> String {
        if let value = value(name), value.hasPrefix("/") { return value }
        return home == "/" ? "/" + relative : home + "/" + relative
    }

    private func absoluteList(_ name: String, default defaults: [String]) -> [String] {
        guard let value = value(name) else { return defaults }
        let list = value.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return list.isEmpty ? defaults : list
    }
}
