@testable import ChoosyKit

// Exec values come from any installed desktop entry; the URL, name and icon put into them come
// from callers and catalogs. Expansion must keep each of those values one whole argument.
//
// Input fields: the Exec value (after string unescaping), then the URL, the name, the icon.

/// Marks an inserted value, so that any piece of it found in argv can be traced.
private let marker = "\u{2063}"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExecCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let commandLine = try? ExecCommandLine(parsing: input.field(0)) else { return 0 }

    let program = commandLine.program
    invariant(!program.isEmpty && !program.contains("="), "bad program '\(program)'")
    invariant(program.hasPrefix("/") || !program.contains("/"), "relative program path '\(program)'")

    // Values that hold everything a shell or the Exec syntax would act on.
    let url = marker + input.field(1) + " \"'\\$`;|&%u%%" + marker
    let name = marker + input.field(2) + " %c" + marker
    let icon = input.field(3)
    let argv = commandLine.expand(url: url, icon: icon, name: name, entryPath: "/p/fuzz.desktop")
    invariant(argv.first == program, "argv[0] is not the program")
    // (A marker already in the Exec or the icon would make the trace meaningless.)
    let traceable = !input.field(0).contains(marker) && !icon.contains(marker)
    for value in [url, name] where traceable {
        // An argument holding part of a value holds all of it: nothing was split or re-read.
        for argument in argv where argument.contains(marker) && !argument.contains(value) {
            let other = value == url ? name : url
            invariant(argument.contains(other), "'\(argument)' holds a piece of '\(value)'")
        }
    }
    if !commandLine.takesURL && traceable {
        invariant(!argv.contains { $0.contains(url) }, "a URL was passed to an Exec without %u/%U/%f/%F")
    }
    // Without a URL, URL codes leave nothing behind.
    let bare = commandLine.expand(url: nil, icon: nil, name: nil, entryPath: nil)
    invariant(bare.first == program, "argv[0] is not the program without a URL")
    invariant(!traceable || !bare.contains { $0.contains(marker) }, "a value appeared in \(bare) without being given")
    return 0
}
