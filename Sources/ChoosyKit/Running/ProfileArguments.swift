/// The profile a browser's command line asks for (doc/running.md), read as the browser reads
/// its own: Firefox's `-P NAME` and `--profile DIR` (one or two dashes, any case, the value
/// the next argument), Chromium's `--profile-directory=DIR` and `--user-data-dir=DIR`. And
/// which process holds a Firefox profile's `lock`, a symbolic link to `ADDRESS:+PID`.
package enum ProfileArguments {
    package enum Asked: Equatable, Sendable {
        /// A Firefox profile by its `Name`.
        case named(String)
        /// A Firefox profile by its directory.
        case directory(String)
        /// A Chromium profile directory, in a user data directory when one is given.
        case chromium(userData: String?, profile: String?)
        case none
    }

    package static func firefox(_ arguments: [String]) -> Asked {
        var index = 1
        while index < arguments.count {
            let option = arguments[index]
            index += 1
            guard option.hasPrefix("-"), index < arguments.count else { continue }
            switch String(option.drop { $0 == "-" }).lowercased() {
            case "p" where option.utf8.count <= 3: return .named(arguments[index])
            case "profile" where option.utf8.count <= 9: return .directory(trimmedDirectory(arguments[index]))
            default: continue
            }
        }
        return .none
    }

    package static func chromium(_ arguments: [String]) -> Asked {
        var profile: String?
        var userData: String?
        for argument in arguments.dropFirst() {
            if let value = value(argument, of: "--profile-directory=") { profile = value }
            if let value = value(argument, of: "--user-data-dir=") { userData = trimmedDirectory(value) }
        }
        return userData == nil && profile == nil ? .none : .chromium(userData: userData, profile: profile)
    }

    /// The pid a Firefox `lock` link names: `ADDRESS:+PID` (`+`: the fcntl lock is held too),
    /// or `ADDRESS:PID` as older versions wrote it.
    package static func lockHolder(_ target: String) -> Int32? {
        guard let colon = target.utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        var digits = target.utf8[target.utf8.index(after: colon)...]
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        return ASCIINumber.decimal(ArraySlice(digits)).flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func value(_ argument: String, of prefix: String) -> String? {
        guard argument.hasPrefix(prefix) else { return nil }
        let value = String(argument.dropFirst(prefix.count))
        return value.isEmpty ? nil : value
    }

    /// A directory as the browser is given it, without the slashes that may end it.
    private static func trimmedDirectory(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
