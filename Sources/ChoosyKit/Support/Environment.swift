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
    /// The variables given as bytes that are not UTF-8, by the name `variables` has for them:
    /// their `NAME=VALUE` bytes. `variables` holds them with U+FFFD for those bytes; a child
    /// gets these bytes instead for as long as the variable holds that text
    /// (`ProcessRequest.environmentBytes`; doc/security.md, "Links byte for byte").
    package var givenEntries: [String: [UInt8]] = [:]

    package init(_ variables: [String: String], accountHome: String? = nil) {
        self.variables = variables
        self.accountHome = accountHome
    }

    /// The environment this process was started with, and the user's home by the password database.
    package static func current() -> Environment {
        var environment = currentVariables()
        // Asked only when HOME cannot serve: a lookup goes through NSS, which every command
        // would otherwise pay on its start-up path.
        if environment.variables["HOME"]?.hasPrefix("/") != true { environment.accountHome = passwordDatabaseHome() }
        return environment
    }

    private static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    private static func currentVariables() -> Environment {
        var count = 0
        while environ[count] != nil { count += 1 }
        var environment = Environment([:])
        environment.variables.reserveCapacity(count)
        for index in 0..<count {
            let entry = environ[index]!
            // Split at the first `=` byte: a search by Character would cost more per variable
            // than the rest of start-up.
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[..<(equals - entry)])
            let valueBytes = UnsafeBufferPointer(rebasing: bytes[(equals - entry + 1)...])
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard environment.variables[name] == nil else { continue }
            let value = String(decoding: valueBytes, as: UTF8.self)
            environment.variables[name] = value
            // Bytes that are not UTF-8 come back as U+FFFD (EF BF BD), most often in more bytes:
            // a count and a memchr tell the rest, which are nearly all variables, apart without
            // validating their bytes again.
            let repaired =
                name.utf8.count != nameBytes.count || value.utf8.count != valueBytes.count
                || ((holds(name, 0xEF) || holds(value, 0xEF)) && String(validating: bytes, as: UTF8.self) == nil)
            if repaired { environment.givenEntries[name] = Array(bytes) }
        }
        return environment
    }

    /// Sets a variable to a value given as bytes (an activation token): `variables` gets its
    /// text, and a child its bytes (`givenEntries`) when they are not UTF-8.
    package mutating func set(_ name: String, bytes value: [UInt8]) {
        let text = String(decoding: value, as: UTF8.self)
        variables[name] = text
        givenEntries[name] = text.utf8.elementsEqual(value) ? nil : Array(name.utf8) + [UInt8(ascii: "=")] + value
    }

    /// The bytes of a variable's value as it was given or set: those of `givenEntries` while
    /// the variable still holds their text, else its UTF-8; nil when it is unset.
    package func bytes(of name: String) -> [UInt8]? {
        guard let text = variables[name] else { return nil }
        guard let entry = givenEntries[name], Environment.entry(entry, isGivenFor: name, text) else { return Array(text.utf8) }
        return Array(entry[(entry.firstIndex(of: UInt8(ascii: "="))! + 1)...])
    }

    /// Whether `entry`, `NAME=VALUE` bytes, is what the variable `name` with the value `text`
    /// was given as: its bytes repair to that text.
    package static func entry(_ entry: [UInt8], isGivenFor name: String, _ text: String) -> Bool {
        guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return false }
        return String(decoding: entry[..<equals], as: UTF8.self) == name
            && String(decoding: entry[(equals + 1)...], as: UTF8.self) == text
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
