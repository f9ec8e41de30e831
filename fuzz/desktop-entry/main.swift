@testable import ChoosyKit

// Desktop entries are files any package can install. The parser must survive any bytes,
// accept all or nothing, and what it accepts must be safe to launch from.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesktopEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    // A mimeinfo.cache is read with caps of 16 MiB: what the caps of an entry take reads the same.
    if let file = KeyFile(parsing: input.bytes) {
        invariant(
            KeyFile(parsing: input.bytes, sizeLimit: KeyFile.listingLimit, lineLimit: KeyFile.listingLimit) == file,
            "larger caps read a file otherwise")
    }
    let indexed = ["Type", "Hidden", "MimeType", "Name[de]"]
    let kept = DesktopEntryParser.parse(input.bytes, id: "fuzz.desktop", path: "/usr/share/applications/fuzz.desktop", keeping: indexed)
    guard let entry = DesktopEntryParser.parse(input.bytes, id: "fuzz.desktop", path: "/usr/share/applications/fuzz.desktop") else {
        invariant(kept == nil, "parsing some keys accepts what parsing all refuses")
        return 0
    }
    // What the desktop index parses: all or nothing alike, and the same values.
    invariant(kept?.keys == entry.keys.filter { indexed.contains($0.key) }, "parsing some keys differs from parsing all")
    invariant(
        DesktopEntryParser.parse(input.bytes, id: "fuzz.desktop", path: "/usr/share/applications/fuzz.desktop") == entry,
        "parsing is deterministic")
    for (key, value) in entry.keys {
        // Binary never gets in: raw values hold no control character but tab.
        invariant(
            !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) },
            "control character in \(key)")
        invariant(!key.isEmpty && !key.contains(" ") && !key.contains("="), "malformed key \(key)")
    }

    // Every accessor choosy uses on an installed entry.
    for locale in [DesktopLocale(language: "de"), DesktopLocale(language: "sr", country: "RS", modifier: "latin"), nil] {
        _ = entry.localizedValue("Name", for: locale)
        _ = entry.translation(of: "Name", for: locale)
    }
    _ = (entry.type, entry.tryExec, entry.icon, entry.workingDirectory, entry.isHidden, entry.runsInTerminal)
    _ = entry.handles("x-scheme-handler/https")
    for mimeType in entry.mimeTypes {
        invariant(!mimeType.isEmpty, "empty list element")
    }
    // The desktop index parses only entries this test passes, so it must pass every one that
    // names a scheme handler.
    if entry.mimeTypes.contains(where: { $0.lowercased().hasPrefix("x-scheme-handler/") }) {
        invariant(DesktopEntryIndex.mayNameSchemeHandler(input.bytes), "a scheme handler the index would not parse")
    }

    // What the launcher would run: the program is the first argument, as written.
    if let exec = entry.exec, let commandLine = try? ExecCommandLine(parsing: exec) {
        let argv = commandLine.expand(url: "https://example.org/", icon: entry.icon, name: entry.name, entryPath: entry.path)
        invariant(argv.first == commandLine.program, "argv[0] is not the program")
    }
    return 0
}
