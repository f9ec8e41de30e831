import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// choosy's association resolver against GIO (`gio mime`, GLib's implementation of the MIME
/// Applications Associations spec) over randomly generated XDG trees: user and system data
/// dirs, config dirs, desktop-specific lists, Added/Removed/Default groups, Hidden, TryExec,
/// subdirectory IDs. Where the two disagree, the difference must be one of the GIO deviations of
/// doc/spec-choices.md, "Where GIO deviates from the spec", and each of them must show up.
@Suite(.serialized) struct GIODifferentialTests {
    static let seed: UInt64 = 0x5EED_C0DE
    static let trees = 320
    /// Two URL schemes (the scheme map) and a file type (the MIME map).
    static let mimeTypes = ["x-scheme-handler/zqa", "x-scheme-handler/zqb", "application/x-zqc"]

    /// What made GIO answer otherwise, per that list.
    enum Deviation: String, CaseIterable {
        /// A `[Default Applications]` entry counts as associated for choosy (doc/spec-choices.md, as GIO
        /// takes it for the default); GIO does not list it among its registered applications.
        case unregisteredDefault = "leaves a named default out of its registered applications"
        /// GIO returns a Hidden entry that mimeapps.list names (or the copy below it).
        case hiddenEntry = "uses a hidden entry"
        /// GIO skips a top copy of an ID that does not load and uses a lower copy; the
        /// Desktop Entry spec gives an ID to the first directory that has it.
        case lowerCopy = "falls through to a lower copy"
        /// GIO accepts an Exec line with an unknown field code, which the spec makes invalid.
        case unknownFieldCode = "runs unknown field codes"
        /// GIO honours relative paths in XDG variables, which the Base Directory spec says to ignore.
        case relativeDirectory = "honours relative XDG paths"
        /// GIO drops an entry whose Exec program is not on PATH; the spec checks only TryExec.
        case missingProgram = "drops entries whose program is missing"
        /// GIO ignores an applications directory's own `[Removed Associations]` for the entries
        /// of that directory; the spec applies it to "the current directory, or a later one".
        case sameDirectoryRemoval = "ignores a removal for its own directory"
        /// Not a deviation of GIO's but choosy's choice where the specs are silent: a file that
        /// cannot be parsed is skipped as if absent, so the ID's next copy counts; GIO lets the
        /// broken file hold the ID.
        case unreadableTopCopy = "lets an unreadable file hold its ID"
    }

    @Test func choosyResolvesAssociationsAsGIODoesSaveForTheDocumentedDeviations() throws {
        try #require(Self.tool("gio") != nil, "gio is missing: make test installs libglib2.0-bin")
        try #require(
            Self.tool("update-desktop-database") != nil, "update-desktop-database is missing: make test installs desktop-file-utils")
        var random = SplitMix64(seed: Self.seed)
        var agreed = 0
        var explained: [Deviation: Int] = [:]
        var unexplained: [String] = []
        // Answers whose default a mimeapps.list chose (named or added): the picker offers it first.
        var listedDefaults = 0
        var pickerOrder: [String] = []
        for number in 0..<Self.trees {
            let tree = GeneratedTree(number: number, random: &random)
            for mimeType in Self.mimeTypes {
                let gio = tree.gio(mimeType)
                let choosy = tree.choosy(mimeType)
                let picker = tree.pickerOrder(mimeType)
                if let listed = picker.listedDefault, listed == gio.defaultID {
                    listedDefaults += 1
                    if picker.first != listed {
                        pickerOrder.append(
                            "tree \(number) \(mimeType): gio opens \(listed), the picker offers \(picker.first ?? "nothing") first")
                    }
                }
                if gio == choosy {
                    agreed += 1
                    continue
                }
                // Each difference needs a documented deviation of an ID it involves.
                var reasons: Set<Deviation> = []
                var unexplainedIDs: [[String]] = []
                for (alternatives, ofDefaults) in Self.differences(gio, choosy) {
                    var found = alternatives.map { tree.deviations(for: $0, mimeType: mimeType, gio: gio, choosy: choosy) }.reduce(
                        into: Set()
                    ) { $0.formUnion($1) }
                    // Only the registered lists leave a named default out.
                    if ofDefaults { found.remove(.unregisteredDefault) }
                    if found.isEmpty { unexplainedIDs.append(alternatives) }
                    reasons.formUnion(found)
                }
                if unexplainedIDs.isEmpty {
                    for reason in reasons { explained[reason, default: 0] += 1 }
                } else {
                    unexplained.append(
                        "tree \(number) (\(tree.root)) \(mimeType): gio \(gio), choosy \(choosy); unexplained: \(unexplainedIDs)")
                }
            }
            if unexplained.isEmpty { tree.remove() }
        }
        #expect(unexplained.isEmpty, "\(unexplained.prefix(5).joined(separator: "\n"))")
        #expect(pickerOrder.isEmpty, "\(pickerOrder.prefix(5).joined(separator: "\n"))")
        #expect(listedDefaults * 4 >= Self.trees, "only \(listedDefaults) defaults chosen by a list")
        print(
            "GIO differential: \(agreed) of \(Self.trees * Self.mimeTypes.count) answers agree; explained differences: \(explained.map { "\($0.key): \($0.value)" }.sorted())"
        )
        // Most answers agree outright, and every deviation doc/spec-choices.md lists was seen.
        #expect(agreed * 10 >= Self.trees * Self.mimeTypes.count * 6, "only \(agreed) answers agreed")
        for deviation in Deviation.allCases {
            #expect(explained[deviation, default: 0] > 0, "GIO never \(deviation.rawValue) in \(Self.trees) trees")
        }
    }

    /// A system of tens of thousands of entries has a `mimeinfo.cache` of a few MiB
    /// (doc/security.md, "Desktop entries"): choosy reads it as GIO does, and so does not
    /// see an entry added after update-desktop-database ran while the cache is no older than
    /// its directory, as GIO does not. Refused for its size, the cache was not read at all
    /// and every entry parsed instead (4.4 times gio's time at 40,000 entries).
    @Test func aMimeinfoCacheOfMegabytesIsReadAsGIOReadsIt() throws {
        let tool = try #require(Self.tool("update-desktop-database"), "make test installs desktop-file-utils")
        try #require(Self.tool("gio") != nil, "make test installs libglib2.0-bin")
        let sandbox = Sandbox()
        let applications = sandbox.dataDir + "/applications"
        // 300 entries of 100 types each: 1.3 MB of cache.
        let padding = (1...100).map { "application/x-zqpad-\($0);" }.joined()
        for number in 1...300 {
            sandbox.desktopEntry(
                "org.example.padding-entry-number-\(number).desktop",
                sandbox.application(name: "Pad \(number)", exec: "true %U", "MimeType=\(padding)x-scheme-handler/zqpad;\n"),
                directory: applications)
        }
        func install(_ id: String, program: String) {
            sandbox.recorder(program)
            sandbox.desktopEntry(
                id, sandbox.application(name: program, exec: "\(program) %u", "MimeType=x-scheme-handler/zqa;\n"), directory: applications)
        }
        install("listed.desktop", program: "listed-app")
        let updated = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(argv: [tool, applications], environment: ["PATH": "/usr/bin:/bin"]))
        #expect(updated.status == 0)
        let cache = applications + "/mimeinfo.cache"
        #expect((LocalFileSystem().info(cache)?.size ?? 0) > Int64(KeyFile.sizeLimit))
        // Added since, then the cache touched: no older than its directory, so trusted.
        install("a-unlisted.desktop", program: "unlisted-app")
        usleep(20_000)
        #expect(utimes(cache, nil) == 0)

        let gio = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(argv: ["gio", "mime", "x-scheme-handler/zqa"], environment: sandbox.environment, workingDirectory: sandbox.root))
        let gioDefault = String(decoding: gio.stdout, as: UTF8.self).split(separator: "\n").first ?? ""
        #expect(gioDefault.hasPrefix("Default application for ") && gioDefault.hasSuffix(": listed.desktop"), "\(gioDefault)")
        let output = sandbox.choosy(["handle", "zqa:x", "--dry-run"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "listed-app zqa:x\n")
    }

    /// What makes two answers differ, each as the IDs that could explain it: the two defaults
    /// when they differ, each ID in one list only, and the first out-of-place pair when the
    /// lists hold the same IDs in another order.
    static func differences(_ gio: Answer, _ choosy: Answer) -> [(ids: [String], ofDefaults: Bool)] {
        var differences: [(ids: [String], ofDefaults: Bool)] = []
        if gio.defaultID != choosy.defaultID { differences.append(([gio.defaultID, choosy.defaultID].compactMap { $0 }, true)) }
        differences += Set(gio.registered).symmetricDifference(choosy.registered).sorted().map { ([$0], false) }
        let common = Set(gio.registered).intersection(choosy.registered)
        let gioOrder = gio.registered.filter(common.contains)
        let choosyOrder = choosy.registered.filter(common.contains)
        if let pair = zip(gioOrder, choosyOrder).first(where: { $0 != $1 }) { differences.append(([pair.0, pair.1], false)) }
        return differences
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Answer: Equatable, CustomStringConvertible {
        var defaultID: String?
        var registered: [String]
        var description: String { "default \(defaultID ?? "none"), \(registered)" }
    }
}

/// One random XDG tree on disk, and what each side answers for it.
private struct GeneratedTree {
    enum Kind: CaseIterable {
        case normal, hidden, missingTryExec, unknownFieldCode, missingProgram, notAnApplication, junk
    }

    struct Entry {
        var kind: Kind
        var mimeTypes: [String]
        /// The applications directory, by rank (0 is the user's); -1 for the relative one.
        var rank: Int
    }

    static let ids = ["a.desktop", "b.desktop", "c.desktop", "d.desktop", "e.desktop", "kde-f.desktop"]

    let root: String
    let environment: [String: String]
    /// Every file written, per ID, in directory order (the relative directory last).
    private(set) var entries: [String: [Entry]] = [:]
    /// Per MIME type, the IDs named by any `[Default Applications]` line.
    private(set) var namedDefaults: [String: Set<String>] = [:]
    /// Per MIME type, the IDs removed by the `mimeapps.list` of an applications directory.
    private(set) var dataDirectoryRemovals: [String: Set<String>] = [:]

    init(number: Int, random: inout SplitMix64) {
        root = NSTemporaryDirectory() + "choosy-gio-\(getpid())-\(number)"
        try? FileManager.default.removeItem(atPath: root)
        let home = root + "/home"
        let dataHome = home + "/.local/share"
        let configHome = home + "/.config"
        let dataDirs = [root + "/usr/local/share", root + "/usr/share"]
        let configDir = root + "/etc/xdg"
        let relative = random.chance(0.08)
        var variables = [
            "HOME": home, "XDG_DATA_HOME": dataHome, "XDG_CONFIG_HOME": configHome,
            "XDG_CACHE_HOME": home + "/.cache", "XDG_CONFIG_DIRS": configDir,
            "XDG_DATA_DIRS": (relative ? ["rel"] : []).joined() + (relative ? ":" : "") + dataDirs.joined(separator: ":"),
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        let desktops = random.pick([nil, "GNOME", "X-Cinnamon:GNOME"])
        if let desktops { variables["XDG_CURRENT_DESKTOP"] = desktops }
        environment = variables

        let applications = ([dataHome] + dataDirs).map { $0 + "/applications" } + (relative ? [root + "/rel/applications"] : [])
        for (index, directory) in applications.enumerated() {
            let rank = index < 3 ? index : -1
            try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for id in Self.ids where random.chance(0.4) {
                let kind: Kind = random.weighted([
                    (.normal, 84), (.hidden, 3), (.missingTryExec, 3), (.unknownFieldCode, 3), (.missingProgram, 3), (.notAnApplication, 2),
                    (.junk, 2),
                ])
                let mimeTypes = GIODifferentialTests.mimeTypes.filter { _ in random.chance(0.6) }
                entries[id, default: []].append(Entry(kind: kind, mimeTypes: mimeTypes, rank: rank))
                let path = id == "kde-f.desktop" && random.chance(0.5) ? directory + "/kde/f.desktop" : directory + "/" + id
                Self.write(path, Self.contents(kind: kind, name: id, mimeTypes: mimeTypes, noDisplay: random.chance(0.1)))
            }
        }
        let desktopNames = (desktops ?? "").split(separator: ":").map { $0.lowercased() }
        for (index, directory) in ([configHome, configDir] + applications.prefix(3)).enumerated() {
            for desktop in desktopNames where random.chance(0.3) {
                Self.write(
                    directory + "/\(desktop)-mimeapps.list",
                    mimeappsList(groups: ["Default Applications"], dataDirectory: false, random: &random))
            }
            if random.chance(0.4) {
                let groups = ["Default Applications", "Added Associations", "Removed Associations"]
                Self.write(directory + "/mimeapps.list", mimeappsList(groups: groups, dataDirectory: index >= 2, random: &random))
            }
        }
        for directory in applications {
            _ = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(
                ProcessRequest(argv: ["update-desktop-database", directory], environment: ["PATH": "/usr/bin:/bin"]))
        }
    }

    private mutating func mimeappsList(groups: [String], dataDirectory: Bool, random: inout SplitMix64) -> String {
        var text = ""
        for group in groups where random.chance(0.6) {
            text += "[\(group)]\n"
            for mimeType in GIODifferentialTests.mimeTypes where random.chance(group == "Removed Associations" ? 0.3 : 0.6) {
                // Mostly IDs that declare the type, as real lists name real handlers.
                let declaring = Self.ids.filter { id in entries[id, default: []].contains { $0.mimeTypes.contains(mimeType) } }
                let ids = (0..<random.next(upTo: 3) + 1).map { _ in
                    group != "Removed Associations" && !declaring.isEmpty && random.chance(0.75)
                        ? random.pick(declaring) : random.pick(Self.ids + ["missing.desktop"])
                }
                if group == "Default Applications" { namedDefaults[mimeType, default: []].formUnion(ids) }
                if group == "Removed Associations" && dataDirectory { dataDirectoryRemovals[mimeType, default: []].formUnion(ids) }
                text += "\(mimeType)=" + ids.map { $0 + ";" }.joined() + "\n"
            }
        }
        return text
    }

    static func contents(kind: Kind, name: String, mimeTypes: [String], noDisplay: Bool) -> String {
        if kind == .junk { return "\u{1}\u{2}not a key file\n\u{FFFF}" }
        var lines = ["[Desktop Entry]", "Type=\(kind == .notAnApplication ? "Link" : "Application")", "Name=\(name)"]
        switch kind {
        case .unknownFieldCode: lines.append("Exec=true %x %u")
        case .missingProgram: lines.append("Exec=no-such-program-here %u")
        default: lines.append("Exec=true %u")
        }
        if kind == .missingTryExec { lines.append("TryExec=/nonexistent/program") }
        if kind == .hidden { lines.append("Hidden=true") }
        if noDisplay { lines.append("NoDisplay=true") }
        if !mimeTypes.isEmpty { lines.append("MimeType=" + mimeTypes.map { "\($0);" }.joined()) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func write(_ path: String, _ text: String) {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    func gio(_ mimeType: String) -> GIODifferentialTests.Answer {
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["gio", "mime", mimeType], environment: environment, workingDirectory: root
            ))
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        var answer = GIODifferentialTests.Answer(defaultID: nil, registered: [])
        if let line = lines.first(where: { $0.hasPrefix("Default application for") }), let colon = line.range(of: ": ", options: .backwards)
        {
            answer.defaultID = String(line[colon.upperBound...])
        }
        if let start = lines.firstIndex(of: "Registered applications:") {
            answer.registered = lines[(start + 1)...].prefix { $0.hasPrefix("\t") }.map { String($0.dropFirst()) }
        }
        return answer
    }

    func choosy(_ mimeType: String) -> GIODifferentialTests.Answer {
        let environment = Environment(environment)
        let associations = MimeAppsList(
            environment: environment,
            index: DesktopEntryIndex(environment: environment, fileSystem: LocalFileSystem(), clock: SystemClock()),
            fileSystem: LocalFileSystem()
        ).associations(forMimeType: mimeType)
        return GIODifferentialTests.Answer(defaultID: associations.defaultEntry?.id, registered: associations.entries.map(\.id))
    }

    /// The default a mimeapps.list chose, and the first app a picker offers when the scheme's
    /// associations are the apps of one type, in ID order (the catalog's order).
    func pickerOrder(_ mimeType: String) -> (listedDefault: String?, first: String?) {
        guard mimeType.hasPrefix("x-scheme-handler/") else { return (nil, nil) }
        let scheme = String(mimeType.dropFirst("x-scheme-handler/".count))
        let environment = Environment(environment)
        let index = DesktopEntryIndex(environment: environment, fileSystem: LocalFileSystem(), clock: SystemClock())
        let mimeApps = MimeAppsList(environment: environment, index: index, fileSystem: LocalFileSystem())
        let associations = mimeApps.associations(forScheme: scheme)
        let finder = InstalledAppFinder(probe: AppProbe(index: index, mimeApps: mimeApps, locale: nil), diagnostics: RecordingDiagnostics())
        let apps = associations.entries.sorted { $0.id < $1.id }.map { entry in
            InstalledApp(
                app: App(
                    key: InstalledAppFinder.key(forDesktopID: entry.id), name: entry.id, urlScheme: scheme + ":", desktopIDs: [entry.id]),
                entry: entry, displayName: entry.id)
        }
        return (associations.listedDefault?.id, finder.systemDefaultFirst(apps).first?.entry?.id)
    }

    /// The documented deviations that can make GIO answer otherwise about `id`.
    func deviations(for id: String, mimeType: String, gio: GIODifferentialTests.Answer, choosy: GIODifferentialTests.Answer) -> Set<
        GIODifferentialTests.Deviation
    > {
        let copies = entries[id] ?? []
        var found: Set<GIODifferentialTests.Deviation> = []
        if namedDefaults[mimeType, default: []].contains(id) && choosy.defaultID == id && !gio.registered.contains(id) {
            found.insert(.unregisteredDefault)
        }
        if copies.contains(where: { $0.kind == .hidden }) { found.insert(.hiddenEntry) }
        if copies.contains(where: { $0.kind == .unknownFieldCode }) { found.insert(.unknownFieldCode) }
        if copies.contains(where: { $0.kind == .missingProgram }) { found.insert(.missingProgram) }
        if copies.contains(where: { $0.rank == -1 }) { found.insert(.relativeDirectory) }
        if dataDirectoryRemovals[mimeType, default: []].contains(id) { found.insert(.sameDirectoryRemoval) }
        // The copy that owns the ID does not load for GIO, and one below it does.
        let ranked = copies.filter { $0.rank >= 0 }
        if let top = ranked.first, top.kind != .normal && top.kind != .junk, ranked.dropFirst().contains(where: { $0.kind == .normal }) {
            found.insert(.lowerCopy)
        }
        if let top = ranked.first, top.kind == .junk, ranked.count > 1 { found.insert(.unreadableTopCopy) }
        return found
    }
}

/// A small seeded generator, so that every run builds the same trees.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) < probability * 1_000_000 }
    mutating func pick<T>(_ items: [T]) -> T { items[next(upTo: items.count)] }

    mutating func weighted<T>(_ items: [(T, Int)]) -> T {
        var roll = next(upTo: items.reduce(0) { $0 + $1.1 })
        for (item, weight) in items {
            if roll < weight { return item }
            roll -= weight
        }
        return items[items.count - 1].0
    }
}
