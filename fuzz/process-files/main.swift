@testable import ChoosyKit

// Where a link came from is read from /proc files that other programs write: a process names
// itself (`stat`'s command name), sets its own environment and arguments, and systemd's unit
// names come from whoever started the scope. None of them may crash choosy or make it name a
// source it was not given: `stat` gives a positive pid or nothing, and a command name that is
// what stands between its `(` and its last `)`; a variable found is one the
// input holds as `NAME=VALUE` between NULs; a unit holds no `/` or newline; an app scope names a
// desktop ID one can have (`.desktop`, no `/`, NUL or control character), deterministically; so
// does a desktop file path. A browser's arguments name a profile only with one of them, and a
// Firefox profile's `lock` names a positive pid it ends with (doc/running.md).
//
// Input: the whole input is each file in turn (stat, environ, cmdline, cgroup); its first
// 0xFF-separated field is also a unit name and a desktop file path.

private func checkedID(_ id: String, from input: String) {
    invariant(
        DesktopEntryIndex.isValidID(id) && !id.unicodeScalars.contains { $0.properties.generalCategory == .control },
        "\(input.debugDescription) gives the desktop ID \(id.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProcessFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let bytes = input.bytes
    if let stat = ProcessFiles.stat(bytes) {
        invariant(stat.pid > 0 && stat.parent >= 0, "stat \(bytes) gives \(stat)")
        // The name is what stands between `(` and the last `)`, when it is UTF-8 as it is.
        let close = bytes.lastIndex(of: UInt8(ascii: ")"))!
        let wrapped = Array(("(" + stat.name + ")").utf8)
        invariant(
            stat.name.unicodeScalars.contains("\u{FFFD}") || Array(bytes[...close].suffix(wrapped.count)) == wrapped,
            "stat \(bytes) gives the name \(stat.name.debugDescription)")
    }
    let names = ["GIO_LAUNCHED_DESKTOP_FILE", "GIO_LAUNCHED_DESKTOP_FILE_PID", "BAMF_DESKTOP_FILE_HINT", ""]
    let entries = Set(bytes.split(separator: 0).map { Array($0) })
    for (name, value) in ProcessFiles.variables(names, inEnviron: bytes) {
        invariant(
            names.contains(name) && entries.contains(Array((name + "=" + value).utf8)),
            "environ \(bytes) gives \(name)=\(value.debugDescription)")
    }
    let arguments = ProcessFiles.arguments(ofCmdline: bytes)
    invariant(arguments.allSatisfy { !$0.utf8.contains(0) }, "an argument holds a NUL")
    // The profile a browser's arguments ask for is one of them (a directory without the
    // slashes that end it), never its program.
    switch ProfileArguments.firefox(arguments) {
    case .named(let name): invariant(arguments.dropFirst(2).contains(name), "\(arguments) ask for the profile \(name.debugDescription)")
    case .directory(let directory):
        invariant(
            arguments.dropFirst(2).contains { $0.hasPrefix(directory) }, "\(arguments) ask for the directory \(directory.debugDescription)")
    default: break
    }
    if case .chromium(let userData, let profile) = ProfileArguments.chromium(arguments) {
        invariant(userData != nil || profile != nil, "\(arguments) ask for no Chromium profile")
        invariant(
            profile.map { arguments.contains("--profile-directory=" + $0) } ?? true, "\(arguments) ask for \(profile!.debugDescription)")
    }
    if let holder = ProfileArguments.lockHolder(input.field(0)) {
        invariant(holder > 0 && input.field(0).hasSuffix(String(holder)), "the lock \(input.field(0).debugDescription) names \(holder)")
    }
    if let unit = ProcessFiles.unit(inCgroup: bytes) {
        invariant(!unit.isEmpty && !unit.contains("/") && !unit.contains("\n"), "cgroup \(bytes) gives the unit \(unit.debugDescription)")
    }
    let text = input.field(0)
    let reading = AppScope.read(text)
    invariant(AppScope.read(text) == reading, "reading \(text.debugDescription) is not deterministic")
    if case .app(let id) = reading { checkedID(id, from: text) }
    if let id = LinkSourceFinder.desktopID(ofFile: text) { checkedID(id, from: text) }
    return 0
}
