import ChoosyKit
import ChoosyTestSupport
import Foundation
import Glibc
import Testing

/// `choosy handle FILE` (SPEC §9.6) with real desktop entries that declare MIME types, the
/// system's shared-mime-info database, and recorder apps: which apps are offered and which one
/// opens, *always* written where the desktop (and `gio mime`) reads it, profiles for an HTML
/// page, names that are odd (spaces, `#`, a leading `-`, bytes that are not UTF-8), `why`, and
/// missing and unreadable files.
@Suite struct HandleFileTests {
    let sandbox = Sandbox()
    let files: String

    init() throws {
        // The system's database, in the sandbox's data directory.
        let mime = sandbox.dataDir + "/mime"
        try FileManager.default.createDirectory(atPath: mime, withIntermediateDirectories: true)
        for name in ["globs2", "magic", "aliases", "subclasses", "mime.cache"] {
            try FileManager.default.copyItem(atPath: "/usr/share/mime/" + name, toPath: mime + "/" + name)
        }
        files = sandbox.root + "/files"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
    }

    @discardableResult
    func file(_ name: String, _ contents: String = "some text\n") -> String {
        sandbox.write(files + "/" + name, contents)
    }

    /// A picker that answers `line` and logs what it was shown.
    func picking(_ line: String) -> [String: String] {
        ["CHOOSY_PICKER": sandbox.pickerScript(), "PICK": line]
    }

    @Test func aFilesHandlersAreThoseOfItsTypeAndItsParentsAndTheDesktopsDefaultOpensIt() throws {
        sandbox.installApp("c-ide.desktop", name: "C IDE", program: "c-ide", mimeTypes: ["text/x-csrc"])
        sandbox.installApp("editor.desktop", name: "Editor", program: "editor", mimeTypes: ["text/plain"])
        sandbox.installApp("viewer.desktop", name: "Image Viewer", program: "viewer", mimeTypes: ["image/png"])
        let path = file("main.c", "int main(void) { return 0; }\n")
        // Two apps and no default: the picker offers the type's, then its parent's.
        let asked = sandbox.choosy(["handle", path, "-v"], environment: picking("Editor"))
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("C IDE", "Editor"))
        #expect(asked.stderr.contains("\(path) is text/x-csrc: its name matches '*.c'"))
        #expect(sandbox.launched("editor") == [["file://" + path]])
        // Just once remembers nothing.
        #expect(sandbox.writtenFiles.filter { !$0.contains(".cache/") }.isEmpty)
        // The desktop's default opens it without asking.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\ntext/x-csrc=editor.desktop\n")
        let opened = sandbox.choosy(["handle", "file://" + path])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched("editor", count: 2).last == ["file://" + path])
    }

    /// *Always* for a type no app type claims is the desktop's default, written as `xdg-mime
    /// default` writes it: GIO then opens the same app, and choosy asks no more.
    @Test func alwaysForAnUnclaimedTypeWritesTheDesktopsDefaultAndGIOAgrees() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/gio"), "gio is missing: make test installs libglib2.0-bin")
        sandbox.installApp("reader.desktop", name: "Reader", program: "reader", mimeTypes: ["application/pdf"])
        sandbox.installApp("papers.desktop", name: "Papers", program: "papers", mimeTypes: ["application/pdf"])
        sandbox.write(sandbox.configHome + "/mimeapps.list", "# mine\n[Added Associations]\nimage/png=papers.desktop;\n")
        let path = file("paper.pdf", "%PDF-1.4\n")
        let output = sandbox.choosy(["handle", path], environment: picking("Papers (always)"))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.launched("papers") == [["file://" + path]])
        #expect(
            sandbox.read(sandbox.configHome + "/mimeapps.list")
                == "# mine\n[Added Associations]\nimage/png=papers.desktop;\n\n[Default Applications]\napplication/pdf=papers.desktop;\n")
        #expect(!sandbox.exists(sandbox.configHome + "/choosy/preferences.json"))
        let gio = try PosixProcessRunner(fileSystem: LocalFileSystem()).run(
            ProcessRequest(argv: ["/usr/bin/gio", "mime", "application/pdf"], environment: sandbox.environment))
        let answer = String(decoding: gio.stdout, as: UTF8.self)
        #expect(
            answer.hasPrefix("Default application for ")
                && answer.split(separator: "\n").first?.hasSuffix("application/pdf?: papers.desktop") == true, "\(answer)")
        #expect(sandbox.choosy(["handle", path]).status == 0)
        #expect(sandbox.pickerInvocations.count == 1)
        #expect(sandbox.launched("papers", count: 2).count == 2)
    }

    /// The browser type claims HTML: a local page opens in the browser type's apps, each profile
    /// a choice, and *always* is the browser type's default (links go there too).
    @Test func aLocalPageOpensInABrowserProfileAndAlwaysIsTheBrowsersDefault() throws {
        sandbox.installApp("firefox.desktop", name: "Firefox", program: "firefox", mimeTypes: ["text/html", "x-scheme-handler/https"])
        sandbox.installApp("gedit.desktop", name: "Gedit", program: "gedit", mimeTypes: ["text/html", "text/plain"])
        sandbox.write(
            sandbox.home + "/.mozilla/firefox/profiles.ini",
            "[Profile0]\nName=default\nIsRelative=1\nPath=a.default\nDefault=1\n\n[Profile1]\nName=Work\nIsRelative=1\nPath=b.work\n")
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.mozilla/firefox/a.default", withIntermediateDirectories: true)
        let path = file("page.html", "<!DOCTYPE html><html><body>hi</body></html>\n")
        let output = sandbox.choosy(["handle", path, "-v"], environment: picking("Firefox — Work (always)"))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(sandbox.pickerInvocations.last?.lines == Sandbox.choiceLines("Firefox — default", "Firefox — Work"))
        #expect(sandbox.launched("firefox") == [["-P", "Work", "file://" + path]])
        #expect(sandbox.choosy("default", "browser").stdout == "firefox@Work\n")
        #expect(sandbox.read(sandbox.configHome + "/mimeapps.list") == nil)
        // An XHTML page the same way; why says how its type was found.
        let xhtml = file("page.xhtml", "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"></html>\n")
        let why = sandbox.choosy(["why", xhtml])
        #expect(why.status == 0, "\(why.stderr)")
        #expect(why.stdout.contains("found: a local file of MIME type application/xhtml+xml (its name matches '*.xhtml')"))
        #expect(why.stdout.contains("claimed by the app type browser"))
        #expect(why.stdout.contains("argv: firefox -P Work file://\(xhtml)"))
    }

    /// A path's bytes reach the app as they are: spaces, `#`, a leading `-` (never an option,
    /// for choosy or the app), bytes that are not UTF-8; `%f` the path, `%u` its URL.
    @Test func oddNamesReachTheAppByteForByte() throws {
        sandbox.installApp("url-app.desktop", name: "URL App", program: "url-app", mimeTypes: ["text/plain"])
        sandbox.desktopEntry(
            "path-app.desktop", sandbox.application(name: "Path App", exec: "path-app --open %f", "MimeType=text/x-log;\n"))
        sandbox.recorder("path-app")
        let spaced = file("my notes #1.txt")
        #expect(sandbox.choosy(["handle", spaced]).status == 0)
        #expect(sandbox.launched("url-app") == [["file://" + files + "/my%20notes%20%231.txt"]])
        // A log is text too: the desktop's default for logs decides.
        sandbox.write(sandbox.configHome + "/mimeapps.list", "[Default Applications]\ntext/x-log=path-app.desktop;\n")
        file("-x.log")
        let dashed = sandbox.choosy(["handle", "--", "-x.log"], workingDirectory: files)
        #expect(dashed.status == 0, "\(dashed.stderr)")
        #expect(sandbox.launched("path-app") == [["--open", files + "/-x.log"]])
        // A name that is not UTF-8, made by a shell (no Swift string holds it), relative.
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0x20, 0x23] + Array("1.log".utf8)
        let fd = (Array((files + "/").utf8) + name + [0]).withUnsafeBufferPointer { path in
            path.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { creat($0, 0o644) }
        }
        // Not empty: an empty file is text/plain whatever its name.
        _ = Array("a log line\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let giving = sandbox.write(
            sandbox.bin + "/giving-invalid-utf8", "#!/bin/sh\nexec \"$@\" \"$(printf 'caf\\351 #1.log')\"\n", mode: 0o755)
        let raw = sandbox.choosy(["handle", "--"], wrapper: [giving], workingDirectory: files)
        #expect(raw.status == 0, "\(raw.stderr)")
        _ = sandbox.launched("path-app", count: 2)
        #expect(sandbox.recordedArgumentBytes("path-app").last?.dropFirst() == [Array("--open".utf8), Array((files + "/").utf8) + name])
    }

    @Test func aMissingOrUnreadableFileIsStatus4WithOneLine() throws {
        sandbox.installApp("editor.desktop", name: "Editor", program: "editor", mimeTypes: ["text/plain"])
        let missing = sandbox.choosy(["handle", files + "/nothing.txt"])
        #expect(missing.status == 4)
        #expect(missing.stderrLines == ["choosy: no such file: \(files)/nothing.txt"])
        symlink(files + "/nowhere", files + "/broken.txt")
        #expect(sandbox.choosy(["handle", files + "/broken.txt"]).status == 4)
        #expect(sandbox.choosy(["why", "file://" + files + "/nothing.txt"]).status == 4)
        // Unreadable: as nobody when the tests run as root (root reads every file).
        let locked = file("locked.txt")
        chmod(locked, 0)
        let binary = sandbox.choosyBinaryForNobody()
        let refused = sandbox.choosy(["handle", locked], wrapper: Sandbox.asNobody, binary: binary)
        #expect(refused.status == 4)
        #expect(refused.stderrLines == ["choosy: cannot read \(locked): permission denied"])
        #expect(sandbox.recordedRuns("editor").isEmpty)
        // A file: URL of another host, or with a fragment, names no local file.
        #expect(sandbox.choosy(["handle", "file://server/share/x.txt"]).status == 2)
        #expect(sandbox.choosy(["handle", "file://" + locked + "#x"]).status == 2)
    }

    /// A directory is `inode/directory`, opened by the file manager; nothing installed for a
    /// type is status 4.
    @Test func aDirectoryOpensInTheFileManagerAndATypeNoAppOpensIsStatus4() throws {
        sandbox.installApp("files.desktop", name: "Files", program: "files", mimeTypes: ["inode/directory"])
        let directory = files + "/a folder"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(sandbox.choosy(["handle", directory]).status == 0)
        #expect(sandbox.launched("files") == [["file://" + files + "/a%20folder"]])
        let orphan = sandbox.choosy(["handle", file("x.pdf", "%PDF-1.4\n")])
        #expect(orphan.status == 4)
        #expect(orphan.stderrLines == ["choosy: nothing installed opens application/pdf files (\(files)/x.pdf)"])
    }
}
