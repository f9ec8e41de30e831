import ChoosyTestSupport
import Foundation
import Glibc
import Testing

@testable import ChoosyKit

/// choosy's MIME types against GIO's (`gio info -a standard::content-type`, GLib's xdgmime
/// reading the `mime.cache` files update-mime-database writes beside `globs2` and `magic`), on
/// the same files and the same database: the system's `/usr/share/mime` and, in
/// `$XDG_DATA_HOME/mime`, the test types of Tests/Fixtures/mime/choosy-test.xml (every kind of
/// glob and magic rule). Two sets of files: a generated tree of names and contents that the
/// rules decide between (case variants, names and contents that disagree, links, directories,
/// empty and unreadable files), and a sample of the system's own `/usr/share`.
@Suite(.serialized) struct MimeTypeGIODifferentialTests {
    static let seed: UInt64 = 0x4D1_4E5E
    /// Every generated file has one of these contents.
    static let contents: [(String, [UInt8])] = [
        ("text", Array("hello world\nsecond line\n".utf8)),
        ("text with a form feed", Array("page one\u{0C}page two\n".utf8)),
        ("text with a control byte", Array("almost\u{01}text\n".utf8)),
        ("text with DEL", Array("del\u{7F}eted\n".utf8)),
        ("control byte after 128", Array(String(repeating: "a", count: 200).utf8) + [0x02] + Array("tail\n".utf8)),
        ("binary", [0x00, 0x01, 0x02, 0xFE, 0xFF, 0x10, 0x80, 0x00, 0x41]),
        ("UTF-8 text", Array("grüße, 世界\n".utf8)),
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]),
        ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]),
        ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]),
        ("PDF", Array("%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj\n".utf8)),
        ("ZIP", [0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]),
        ("gzip", [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 3]),
        ("ELF", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3E, 0]),
        ("shell script", Array("#!/bin/sh\necho hi\n".utf8)),
        ("Python", Array("#!/usr/bin/env python3\nprint('hi')\n".utf8)),
        ("HTML", Array("<!DOCTYPE html>\n<html><head><title>t</title></head></html>\n".utf8)),
        ("XML", Array("<?xml version=\"1.0\"?>\n<note>hi</note>\n".utf8)),
        ("SVG", Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n".utf8)),
        ("desktop entry", Array("[Desktop Entry]\nType=Application\nName=X\nExec=x\n".utf8)),
        ("OLE", [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0]),
        ("MP3", Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0]),
        ("Ogg", Array("OggS".utf8) + [0, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("ALPHA", Array("ALPHA and more\n".utf8)),
        ("BETA in range", Array("xxxxxxBETA\n".utf8)),
        ("BETA past range", Array(String(repeating: "x", count: 20).utf8) + Array("BETA\n".utf8)),
        ("masked", [0x89, 0x63, 0x68, 0x7A, 0x0A]),
        ("masked other", [0x89, 0x43, 0x48, 0x5A, 0x0A]),
        ("nested big16", Array("NEST".utf8) + [0x12, 0x34, 0, 0, 0]),
        ("nested little32 and byte", Array("NEST".utf8) + [0xEF, 0xBE, 0xAD, 0xDE, 7]),
        ("nested little32 without byte", Array("NEST".utf8) + [0xEF, 0xBE, 0xAD, 0xDE, 8]),
        ("nested parent only", Array("NEST....".utf8)),
        ("host16", Array("HC host\n".utf8)),
        ("host16 swapped", Array("CH host\n".utf8)),
        ("STRONG", Array("STRONG! contents\n".utf8)),
        ("weak", Array("0123456789abweak\n".utf8)),
        ("ZERO", Array("ZERO priority\n".utf8)),
    ]

    /// Names: every kind of glob, each in several cases, and names no glob knows.
    static let names: [String] = [
        "notes.txt", "NOTES.TXT", "Notes.Txt", "page.html", "PAGE.HTM", "image.png", "IMAGE.PNG", "Image.Png", "photo.jpg",
        "doc.pdf", "report.doc", "main.c", "main.C", "lib.h", "script.py", "run.sh", "archive.tar.gz", "ARCHIVE.TAR.GZ",
        "archive.gz", "bundle.zip", "app.desktop", "video.ts", "slides.key", "readme.md", "data.json", "feed.xml",
        "icon.svg", "song.mp3", "sound.ogg", "libx.so.1", "libx.so.12", "Makefile", "makefile", "MAKEFILE", "makefile.am",
        "GNUmakefile", "core", "CORE", "README", "readme.txt", "README.first", "SConscript.x", "file.1", "file.9", "007.vdr",
        "x.anim3", "weights.cwt", "WEIGHTS.CWT", "upper.CSX", "lower.csx", "mixed.Csx", "ChoosyFile", "choosyfile", "CHOOSYFILE",
        "choosyrc", "CHOOSYRC", "pack.cz", "pack.tar.cz", "PACK.TAR.CZ", "choosy-12.log", "choosy-x.log", "trace.cl1",
        "TRACE.CL2", "old~1", "OLD~2", "both.dual", "BOTH.DUAL", "strong.strong", "canon.ccan", "kid.ckid", "noextension",
        ".hidden", ".bashrc", "two words.txt", "hash#tag.html", "-leading.pdf", "résumé.pdf", "файл.txt", "trailing.",
        "a.b.c.d", "UPPER", "x.TS", "x.Key", "x.mD",
    ]

    /// Names that are not UTF-8, as bytes.
    static let byteNames: [[UInt8]] = [
        Array("caf".utf8) + [0xE9] + Array(".txt".utf8), [0xFF, 0xFE] + Array(".png".utf8), Array("x.".utf8) + [0xE9],
        Array("plain".utf8) + [0xC3, 0x28],
    ]

    @Test func choosyGivesTheTypesGIOGivesOnAGeneratedTree() throws {
        try #require(Self.tool("gio") != nil, "gio is missing: make test installs libglib2.0-bin")
        try #require(Self.tool("update-mime-database") != nil, "update-mime-database is missing: make test installs shared-mime-info")
        let sandbox = Sandbox()
        try Self.installTestTypes(in: sandbox)
        let root = sandbox.root + "/tree"
        var random = SplitMix64(seed: Self.seed)
        var paths: [[UInt8]] = []
        func add(_ relative: [UInt8], _ contents: [UInt8]?) {
            let path = Array(root.utf8) + [UInt8(ascii: "/")] + relative
            let directory = Array(path[..<path.lastIndex(of: UInt8(ascii: "/"))!])
            mkdirs(directory)
            if let contents { writeFile(path, contents) }
            paths.append(path)
        }
        // Each name with three contents, each in its own directory.
        var serial = 0
        for name in Self.names.map({ Array($0.utf8) }) + Self.byteNames {
            for _ in 0..<3 {
                serial += 1
                add(Array("n\(serial)/".utf8) + name, Self.contents[Int(random.next() % UInt64(Self.contents.count))].1)
            }
        }
        // Each content under a name no glob knows, and under one that says another type.
        for (index, (_, contents)) in Self.contents.enumerated() {
            add(Array("c\(index)/unnamed".utf8), contents)
            add(Array("c\(index)/mislabelled.png".utf8), contents)
            add(Array("c\(index)/mislabelled.txt".utf8), contents)
            add(Array("c\(index)/both.dual".utf8), contents)
        }
        // Empty files, whatever their names say.
        for name in ["empty", "empty.png", "empty.pdf", "EMPTY.TXT", "empty.dual"] { add(Array("e/\(name)".utf8), []) }
        // Directories, named like files too.
        for name in ["dir", "dir.png", "dir.txt", "Makefile"] {
            mkdirs(Array("\(root)/d/\(name)".utf8))
            paths.append(Array("\(root)/d/\(name)".utf8))
        }
        // Links: the link's name counts, with the target's contents; to a directory; to nothing.
        mkdirs(Array("\(root)/l".utf8))
        for index in 0..<24 {
            let target = paths[Int(random.next() % UInt64(paths.count))]
            let name = Self.names[Int(random.next() % UInt64(Self.names.count))]
            let link = Array("\(root)/l/\(index)-\(name)".utf8)
            _ = symlinkBytes(target, link)
            paths.append(link)
        }
        _ = symlinkBytes(Array("\(root)/d/dir.png".utf8), Array("\(root)/l/to-directory.txt".utf8))
        _ = symlinkBytes(Array("\(root)/nothing-here".utf8), Array("\(root)/l/broken.png".utf8))
        paths += [Array("\(root)/l/to-directory.txt".utf8), Array("\(root)/l/broken.png".utf8)]
        // A FIFO, and files no one may read (root reads them all the same; `handle` refuses them, tested apart).
        mkfifo("\(root)/e/pipe.txt", 0o644)
        paths.append(Array("\(root)/e/pipe.txt".utf8))
        for (index, (_, contents)) in Self.contents.prefix(6).enumerated() {
            add(Array("u/locked\(index).\(["txt", "png", "dual", "", "md", "cwt"][index])".utf8), contents)
            chmod(String(decoding: paths.last!, as: UTF8.self), 0)
        }
        #expect(paths.count >= 300)
        try Self.compare(paths, sandbox: sandbox, minimumAgreeing: 300)
    }

    @Test func choosyGivesTheTypesGIOGivesOnASampleOfUsrShare() throws {
        try #require(Self.tool("gio") != nil, "gio is missing: make test installs libglib2.0-bin")
        try #require(Self.tool("update-mime-database") != nil, "update-mime-database is missing: make test installs shared-mime-info")
        let sandbox = Sandbox()
        try Self.installTestTypes(in: sandbox)
        // Every 23rd entry of a sorted walk, files and directories alike, up to 400.
        var sample: [[UInt8]] = []
        var seen = 0
        let enumerator = FileManager.default.enumerator(atPath: "/usr/share")
        while let relative = enumerator?.nextObject() as? String, sample.count < 400 {
            seen += 1
            if seen % 23 == 0 { sample.append(Array(("/usr/share/" + relative).utf8)) }
        }
        try #require(sample.count >= 100, "/usr/share holds too little to sample")
        try Self.compare(sample, sandbox: sandbox, minimumAgreeing: 100)
    }

    // MARK: Comparing

    /// Every path gets the same type from both, but for the deviations doc/spec-choices.md lists.
    static func compare(_ paths: [[UInt8]], sandbox: Sandbox, minimumAgreeing: Int) throws {
        let gio = try gioTypes(paths, environment: sandbox.environment)
        let database = MimeDatabase(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem())
        var agreeing = 0
        var disagreeing: [String] = []
        for path in paths {
            let text = String(decoding: path, as: UTF8.self)
            let ours = database.type(ofFileAt: path)?.type
            if ours == gio[path] {
                agreeing += 1
            } else {
                disagreeing.append("\(text): gio \(gio[path] ?? "nothing"), choosy \(ours ?? "nothing")")
            }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.count) of \(paths.count) differ:\n\(disagreeing.joined(separator: "\n"))")
        #expect(agreeing >= minimumAgreeing)
    }

    /// What `gio info` says of each path, by the bytes of its `uri` (a percent-encoded path).
    static func gioTypes(_ paths: [[UInt8]], environment: [String: String]) throws -> [[UInt8]: String] {
        var types: [[UInt8]: String] = [:]
        for batch in stride(from: 0, to: paths.count, by: 100).map({ Array(paths[$0..<min($0 + 100, paths.count)]) }) {
            let request = ProcessRequest(
                argv: ["/usr/bin/gio", "info", "-a", "standard::content-type"] + batch.map { String(decoding: $0, as: UTF8.self) },
                environment: environment, stdout: .capture, stderr: .discard, timeout: 120)
            var exact = request
            exact.argumentBytes = Dictionary(uniqueKeysWithValues: batch.enumerated().map { ($0.offset + 4, $0.element) })
            let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(exact)
            var uri: [UInt8]?
            for line in result.stdout.split(separator: UInt8(ascii: "\n")) {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("uri: file://") {
                    uri = percentDecoded(Array(line.dropFirst("uri: file://".count)))
                } else if text.hasPrefix("  standard::content-type: "), let path = uri {
                    types[path] = String(text.dropFirst("  standard::content-type: ".count))
                }
            }
        }
        return types
    }

    /// The test types in `$XDG_DATA_HOME/mime`, with the files update-mime-database writes.
    static func installTestTypes(in sandbox: Sandbox) throws {
        let mime = sandbox.dataHome + "/mime"
        try FileManager.default.createDirectory(atPath: mime + "/packages", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Sandbox.packageRoot + "/Tests/Fixtures/mime/choosy-test.xml", toPath: mime + "/packages/choosy-test.xml")
        let result = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(
                argv: ["/usr/bin/update-mime-database", mime], environment: sandbox.environment, stdout: .discard, stderr: .discard))
        try #require(result.status == 0)
        // The system's database beside it, as a desktop has both.
        sandbox.overrides["XDG_DATA_DIRS"] = sandbox.dataDir + ":/usr/share"
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

private func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    var decoded: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
        {
            decoded.append(value)
            index += 3
        } else {
            decoded.append(bytes[index])
            index += 1
        }
    }
    return decoded
}

private func mkdirs(_ path: [UInt8]) {
    var prefix: [UInt8] = []
    for component in path.split(separator: UInt8(ascii: "/")) {
        prefix += [UInt8(ascii: "/")] + component
        _ = (prefix + [0]).withUnsafeBufferPointer {
            $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: prefix.count + 1) { mkdir($0, 0o755) }
        }
    }
}

private func writeFile(_ path: [UInt8], _ contents: [UInt8]) {
    let fd = (path + [0]).withUnsafeBufferPointer {
        $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count + 1) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    precondition(fd >= 0, "cannot write \(String(decoding: path, as: UTF8.self))")
    _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

private func symlinkBytes(_ target: [UInt8], _ link: [UInt8]) -> Int32 {
    (target + [0]).withUnsafeBufferPointer { target in
        (link + [0]).withUnsafeBufferPointer { link in
            target.baseAddress!.withMemoryRebound(to: CChar.self, capacity: target.count) { target in
                link.baseAddress!.withMemoryRebound(to: CChar.self, capacity: link.count) { symlink(target, $0) }
            }
        }
    }
}
