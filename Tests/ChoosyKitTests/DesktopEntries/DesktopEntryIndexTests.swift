import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct DesktopEntryIndexTests {
    private func index(_ sandbox: Sandbox, excluding executable: String? = nil) -> DesktopEntryIndex {
        DesktopEntryIndex(
            environment: sandbox.choosyEnvironment, excludingExecutable: executable, fileSystem: LocalFileSystem(), clock: SystemClock())
    }

    @Test func dataHomeWinsOverDataDirs() {
        let sandbox = Sandbox()
        let second = sandbox.root + "/opt/share"
        sandbox.overrides["XDG_DATA_DIRS"] = sandbox.dataDir + ":" + second
        sandbox.desktopEntry("viewer.desktop", sandbox.application(name: "Home", exec: "viewer"))
        sandbox.desktopEntry(
            "viewer.desktop", sandbox.application(name: "System", exec: "viewer"), directory: sandbox.dataDir + "/applications")
        sandbox.desktopEntry(
            "other.desktop", sandbox.application(name: "First dir", exec: "other"), directory: sandbox.dataDir + "/applications")
        sandbox.desktopEntry("other.desktop", sandbox.application(name: "Second dir", exec: "other"), directory: second + "/applications")
        let index = index(sandbox)
        #expect(index.directories == [sandbox.dataHome + "/applications", sandbox.dataDir + "/applications", second + "/applications"])
        #expect(index.entry(id: "viewer.desktop")?.name == "Home")
        #expect(index.entry(id: "viewer.desktop")?.path == sandbox.dataHome + "/applications/viewer.desktop")
        #expect(index.entry(id: "other.desktop")?.name == "First dir")
        #expect(index.entry(id: "missing.desktop") == nil)
    }

    @Test func relativeXDGDirectoriesAreIgnored() {
        let sandbox = Sandbox()
        sandbox.overrides["XDG_DATA_DIRS"] = "relative/share:" + sandbox.dataDir
        #expect(index(sandbox).directories == [sandbox.dataHome + "/applications", sandbox.dataDir + "/applications"])
    }

    @Test func hiddenMasksTheIDEntirely() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("viewer.desktop", "[Desktop Entry]\nHidden=true\n")
        sandbox.desktopEntry(
            "viewer.desktop", sandbox.application(name: "System", exec: "viewer"), directory: sandbox.dataDir + "/applications")
        sandbox.desktopEntry("gone.desktop", sandbox.application(name: "Gone", exec: "gone", "Hidden=true\n"))
        let index = index(sandbox)
        #expect(index.entry(id: "viewer.desktop") == nil)
        #expect(index.usableEntry(id: "viewer.desktop") == nil)
        #expect(index.entry(id: "gone.desktop") == nil)
    }

    @Test func malformedFilesAreSkippedAsIfAbsent() {
        let sandbox = Sandbox()
        let home = sandbox.dataHome + "/applications/"
        let system = sandbox.dataDir + "/applications"
        var generator = SeededGenerator(seed: 7)
        sandbox.writeBytes(home + "random.desktop", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        sandbox.writeBytes(home + "utf8.desktop", Array("[Desktop Entry]\nType=Application\nExec=app\nName=".utf8) + [0xFF, 0xFE, 0x0A])
        sandbox.write(
            home + "longline.desktop",
            "[Desktop Entry]\nType=Application\nExec=app\nComment=" + String(repeating: "z", count: 2_000_000) + "\n")
        sandbox.desktopEntry("nogroup.desktop", "Type=Application\nExec=app\n")
        for id in ["random.desktop", "utf8.desktop", "longline.desktop", "nogroup.desktop"] {
            #expect(index(sandbox).entry(id: id) == nil, "\(id)")
        }
        // A broken file in a more important directory does not hide a good one below it.
        sandbox.desktopEntry("utf8.desktop", sandbox.application(name: "Good", exec: "app"), directory: system)
        #expect(index(sandbox).entry(id: "utf8.desktop")?.name == "Good")
    }

    @Test func subdirectoriesMakeDashedIDs() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("kde/foo.desktop", sandbox.application(name: "Foo", exec: "foo"))
        sandbox.desktopEntry("a-b/c.desktop", sandbox.application(name: "C", exec: "c"))
        sandbox.desktopEntry("x/y/z.desktop", sandbox.application(name: "Z", exec: "z"), directory: sandbox.dataDir + "/applications")
        let index = index(sandbox)
        #expect(index.entry(id: "kde-foo.desktop")?.name == "Foo")
        #expect(index.entry(id: "kde-foo.desktop")?.id == "kde-foo.desktop")
        #expect(index.entry(id: "a-b-c.desktop")?.name == "C")
        #expect(index.entry(id: "x-y-z.desktop")?.name == "Z")
        #expect(index.entry(id: "foo.desktop") == nil)
    }

    @Test func refusesIDsThatLeaveTheDirectory() {
        let sandbox = Sandbox()
        sandbox.write("secret.desktop", sandbox.application(name: "Outside", exec: "x"))
        sandbox.desktopEntry("inside/x.desktop", sandbox.application(name: "Inside", exec: "x"))
        let index = index(sandbox)
        for id in [
            "..-..-..-..-secret.desktop", "inside-..-..-..-..-..-secret.desktop", "../secret.desktop", "inside/x.desktop", ".desktop", "x",
            "-x.desktop",
        ] {
            #expect(index.entry(id: id) == nil, "\(id)")
        }
    }

    @Test func usabilityFollowsTheSpec() {
        let sandbox = Sandbox()
        sandbox.recorder("installed-tool")
        sandbox.write(sandbox.bin + "/not-executable", "#!/bin/sh\n", mode: 0o644)
        let entries: [String: String] = [
            "plain.desktop": sandbox.application(name: "Plain", exec: "plain %u"),
            "nodisplay.desktop": sandbox.application(name: "Hidden from menus", exec: "app %u", "NoDisplay=true\n"),
            "tryexec-ok.desktop": sandbox.application(name: "T", exec: "app", "TryExec=installed-tool\n"),
            "tryexec-absolute.desktop": sandbox.application(name: "T", exec: "app", "TryExec=\(sandbox.bin)/installed-tool\n"),
            "tryexec-missing.desktop": sandbox.application(name: "T", exec: "app", "TryExec=no-such-tool-anywhere\n"),
            "tryexec-not-executable.desktop": sandbox.application(name: "T", exec: "app", "TryExec=\(sandbox.bin)/not-executable\n"),
            "tryexec-relative.desktop": sandbox.application(name: "T", exec: "app", "TryExec=bin/installed-tool\n"),
            "link.desktop": "[Desktop Entry]\nType=Link\nName=L\nURL=https://example.com\n",
            "noexec.desktop": "[Desktop Entry]\nType=Application\nName=N\n",
            "badcode.desktop": sandbox.application(name: "B", exec: "app %x"),
            "relative.desktop": sandbox.application(name: "R", exec: "bin/app %u"),
        ]
        for (id, contents) in entries { sandbox.desktopEntry(id, contents) }
        let index = index(sandbox)
        let usable = Set(entries.keys.filter { index.usableEntry(id: $0) != nil })
        #expect(usable == ["plain.desktop", "nodisplay.desktop", "tryexec-ok.desktop", "tryexec-absolute.desktop"])
        #expect(
            index.entry(id: "tryexec-missing.desktop").flatMap(index.unusableReason)
                == "TryExec 'no-such-tool-anywhere' is not an installed executable")
        #expect(index.entry(id: "badcode.desktop").flatMap(index.unusableReason) == "invalid Exec: invalid field code '%x'")
        #expect(index.entry(id: "relative.desktop").flatMap(index.unusableReason) == "invalid Exec: program 'bin/app' is a relative path")
        #expect(index.entry(id: "link.desktop").flatMap(index.unusableReason) == "Type is not Application")
    }

    @Test func excludesChoosyItself() throws {
        let sandbox = Sandbox()
        let choosy = sandbox.recorder("choosy-binary")
        // The same executable reached through a symlink on PATH.
        #expect(symlink(choosy, sandbox.bin + "/choosy-link") == 0)
        sandbox.desktopEntry(
            "choosy.desktop", sandbox.application(name: "Choosy", exec: "anything %u", "MimeType=x-scheme-handler/https;\n"))
        sandbox.desktopEntry(
            "loop.desktop", sandbox.application(name: "Loop", exec: "choosy-link handle %u", "MimeType=x-scheme-handler/https;\n"))
        sandbox.desktopEntry(
            "loop2.desktop", sandbox.application(name: "Loop2", exec: "\(choosy) %u", "MimeType=x-scheme-handler/https;\n"))
        sandbox.desktopEntry(
            "browser.desktop", sandbox.application(name: "Browser", exec: "browser %u", "MimeType=x-scheme-handler/https;\n"))
        let index = index(sandbox, excluding: choosy)
        #expect(index.usableEntry(id: "choosy.desktop") == nil)
        #expect(index.usableEntry(id: "loop.desktop") == nil)
        #expect(index.usableEntry(id: "loop2.desktop") == nil)
        #expect(index.entry(id: "loop.desktop").flatMap(index.unusableReason) == "it is choosy itself")
        #expect(index.declaredHandlers(forScheme: "https").map(\.entry.id) == ["browser.desktop"])
        // Without an executable to exclude, only the ID gives choosy away.
        #expect(self.index(sandbox).usableEntry(id: "loop.desktop") != nil)
    }

    @Test func findsSchemeHandlersInPrecedenceOrder() {
        let sandbox = Sandbox()
        let system = sandbox.dataDir + "/applications"
        sandbox.desktopEntry("b.desktop", sandbox.application(name: "B", exec: "b %u", "MimeType=text/plain;x-scheme-handler/Tweetbot;\n"))
        sandbox.desktopEntry(
            "a.desktop", sandbox.application(name: "A", exec: "a %u", "MimeType=x-scheme-handler/tweetbot;\n"), directory: system)
        sandbox.desktopEntry(
            "kde/c.desktop", sandbox.application(name: "C", exec: "c %u", "MimeType=x-scheme-handler/tweetbot;\nNoDisplay=true\n"))
        sandbox.desktopEntry(
            "unusable.desktop", sandbox.application(name: "U", exec: "u %u", "MimeType=x-scheme-handler/tweetbot;\nTryExec=missing-tool\n"))
        sandbox.desktopEntry("masked.desktop", "[Desktop Entry]\nHidden=true\n")
        sandbox.desktopEntry(
            "masked.desktop", sandbox.application(name: "M", exec: "m %u", "MimeType=x-scheme-handler/tweetbot;\n"), directory: system)
        sandbox.desktopEntry("mail.desktop", sandbox.application(name: "Mail", exec: "mail %u", "MimeType=x-scheme-handler/mailto;\n"))
        let index = index(sandbox)
        #expect(index.declaredHandlers(forScheme: "tweetbot").map(\.entry.id) == ["b.desktop", "kde-c.desktop", "a.desktop"])
        #expect(index.declaredHandlers(forScheme: "TWEETBOT").map(\.entry.id) == ["b.desktop", "kde-c.desktop", "a.desktop"])
        #expect(index.declaredHandlers(forScheme: "mailto").map(\.entry.id) == ["mail.desktop"])
        #expect(index.declaredHandlers(forScheme: "nothing").isEmpty)
    }

    @Test func aRebuildParsesOnlyWhatMayNameASchemeHandlerWithTheSameAnswers() {
        let sandbox = Sandbox()
        let system = sandbox.dataDir + "/applications"
        // A broken file that names no scheme still lets the one below it win.
        sandbox.desktopEntry("broken.desktop", "not a key file\n")
        sandbox.desktopEntry(
            "broken.desktop", sandbox.application(name: "B", exec: "b %u", "MimeType=x-scheme-handler/demo;\n"), directory: system)
        // A good one that names no scheme hides the one below it.
        sandbox.desktopEntry("shadow.desktop", sandbox.application(name: "S", exec: "s %u", "MimeType=text/plain;\n"))
        sandbox.desktopEntry(
            "shadow.desktop", sandbox.application(name: "S", exec: "s %u", "MimeType=x-scheme-handler/demo;\n"), directory: system)
        sandbox.desktopEntry("upper.desktop", sandbox.application(name: "U", exec: "u %u", "MimeType=X-Scheme-HANDLER/Demo;\n"))
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["broken.desktop", "upper.desktop"])
    }

    @Test func aRebuildTrustsAMimeinfoCacheNoOlderThanItsDirectories() throws {
        let sandbox = Sandbox()
        let system = sandbox.dataDir + "/applications"
        for id in ["listed.desktop", "unlisted.desktop"] {
            sandbox.desktopEntry(id, sandbox.application(name: id, exec: "app %u", "MimeType=x-scheme-handler/demo;\n"), directory: system)
        }
        sandbox.desktopEntry(
            "kde/sub.desktop", sandbox.application(name: "Sub", exec: "sub %u", "MimeType=x-scheme-handler/demo;\n"), directory: system)
        // Listed, but its entry does not declare the scheme: every candidate is still read.
        sandbox.desktopEntry("stale.desktop", sandbox.application(name: "Stale", exec: "stale %u"), directory: system)
        sandbox.backdateDirectories(under: system)
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.write(
            system + "/mimeinfo.cache",
            "[MIME Cache]\ntext/plain=unlisted.desktop;\nX-Scheme-Handler/Demo=kde-sub.desktop;listed.desktop;stale.desktop;\n")
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["kde-sub.desktop", "listed.desktop"])

        // Older than a directory below it: entries changed since, so every one is read.
        try? FileManager.default.removeItem(atPath: index(sandbox).cachePath)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: system + "/mimeinfo.cache")
        #expect(
            index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["kde-sub.desktop", "listed.desktop", "unlisted.desktop"])
    }

    @Test func theSchemeHandlerMarkerIsFoundInAnyASCIICase() {
        func may(_ text: String) -> Bool { DesktopEntryIndex.mayNameSchemeHandler(Array(text.utf8)) }
        #expect(may("x-scheme-handler/a"))
        #expect(may("MimeType=text/plain;X-SCHEME-HANDLER/Demo;\n"))
        #expect(may("[Desktop Entry]\nMimeType=x-Scheme-handler/"))
        #expect(!may("MimeType=x-scheme-handler;text/plain;\n"))
        #expect(!may("MimeType=x-scheme_handler/demo;\n"))
        #expect(!may("scheme-handler/x"))
        #expect(!may(""))
    }

    @Test func schemeCacheIsSavedAndInvalidatedWhenEntriesChange() throws {
        let sandbox = Sandbox()
        sandbox.desktopEntry("one.desktop", sandbox.application(name: "One", exec: "one %u", "MimeType=x-scheme-handler/demo;\n"))
        sandbox.desktopEntry("sub/two.desktop", sandbox.application(name: "Two", exec: "two %u", "MimeType=x-scheme-handler/demo;\n"))
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let first = index(sandbox)
        #expect(first.declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop", "sub-two.desktop"])
        #expect(sandbox.exists(first.cachePath))
        let saved = sandbox.read(first.cachePath)
        func fileNumber() throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: first.cachePath)[.systemFileNumber] as? Int
        }
        let savedFile = try fileNumber()

        // A fresh index (a new choosy process) answers from the saved map, not rewriting it.
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop", "sub-two.desktop"])
        #expect(try fileNumber() == savedFile)

        // A new entry in a subdirectory changes that directory's mtime.
        sandbox.desktopEntry("sub/three.desktop", sandbox.application(name: "Three", exec: "three %u", "MimeType=x-scheme-handler/demo;\n"))
        #expect(
            index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop", "sub-three.desktop", "sub-two.desktop"])

        // So does one in a system directory, and a removed one disappears.
        sandbox.desktopEntry(
            "four.desktop", sandbox.application(name: "Four", exec: "four %u", "MimeType=x-scheme-handler/demo;\n"),
            directory: sandbox.dataDir + "/applications")
        try FileManager.default.removeItem(atPath: sandbox.dataHome + "/applications/one.desktop")
        #expect(
            index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["sub-three.desktop", "sub-two.desktop", "four.desktop"])

        // Once things settle, the rebuilt map is saved again.
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").count == 3)
        #expect(sandbox.read(first.cachePath) != saved)
        #expect(sandbox.read(first.cachePath)?.contains("four.desktop") == true)
    }

    @Test func theEntriesThatRunAProgramComeFromASavedMapAndAreReRead() throws {
        let sandbox = Sandbox()
        sandbox.desktopEntry("slack.desktop", sandbox.application(name: "Slack", exec: "/usr/bin/slack %U"))
        sandbox.desktopEntry("sub/slack-beta.desktop", sandbox.application(name: "Slack Beta", exec: "slack --beta %U"))
        sandbox.desktopEntry("gone.desktop", "[Desktop Entry]\nType=Application\nExec=slack\nHidden=true\n")
        sandbox.desktopEntry("link.desktop", "[Desktop Entry]\nType=Link\nExec=slack\n")
        sandbox.desktopEntry("mail.desktop", sandbox.application(name: "Mail", exec: "mail"))
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let first = index(sandbox)
        #expect(first.usableEntries(running: "slack").map(\.id) == ["slack.desktop", "sub-slack-beta.desktop"])
        #expect(first.usableEntries(running: "mail").map(\.id) == ["mail.desktop"])
        #expect(first.usableEntries(running: "bin").isEmpty)
        #expect(!sandbox.exists(first.cachePath), "the scheme map is not built for it")
        let saved = try #require(sandbox.read(first.programsCachePath))
        #expect(saved.hasPrefix("choosy-desktop-index 1\n") && saved.contains("S\tslack\tslack.desktop\tsub-slack-beta.desktop\n"))

        // An entry edited in place (its directory unchanged) is read as it is now.
        let applications = sandbox.dataHome + "/applications"
        let modified = try FileManager.default.attributesOfItem(atPath: applications)[.modificationDate]
        sandbox.desktopEntry("slack.desktop", sandbox.application(name: "Slack", exec: "/opt/other %U"))
        try FileManager.default.setAttributes([.modificationDate: try #require(modified)], ofItemAtPath: applications)
        #expect(index(sandbox).usableEntries(running: "slack").map(\.id) == ["sub-slack-beta.desktop"])
        #expect(sandbox.read(first.programsCachePath) == saved, "answered from the saved map")

        // A new entry changes its directory: the map is built again.
        sandbox.desktopEntry("sub/slack-work.desktop", sandbox.application(name: "Slack Work", exec: "slack --work"))
        #expect(index(sandbox).usableEntries(running: "slack").map(\.id) == ["sub-slack-beta.desktop", "sub-slack-work.desktop"])
        sandbox.write(first.programsCachePath, "choosy-desktop-index 1\nS\tslack\n")
        #expect(index(sandbox).usableEntries(running: "other").map(\.id) == ["slack.desktop"], "a corrupt map is never used")

        // A map whose stamps are right but whose line for the program is malformed is built again.
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        #expect(index(sandbox).usableEntries(running: "other").map(\.id) == ["slack.desktop"])
        let rebuilt = try #require(sandbox.read(first.programsCachePath))
        let corrupt = rebuilt.replacingOccurrences(of: "S\tother\tslack.desktop\n", with: "S\tother\t%zz\n")
        #expect(corrupt != rebuilt)
        sandbox.write(first.programsCachePath, corrupt)
        #expect(index(sandbox).usableEntries(running: "other").map(\.id) == ["slack.desktop"], "a malformed line is never used")
        #expect(sandbox.read(first.programsCachePath) == rebuilt)

        // Stamps the saved scheme map had when this command checked them are not checked again:
        // an entry added since is seen by the next command.
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").isEmpty)
        #expect(sandbox.exists(first.cachePath))
        let both = index(sandbox)
        #expect(both.declaredHandlers(forScheme: "demo").isEmpty)
        sandbox.desktopEntry("new-other.desktop", sandbox.application(name: "Other", exec: "other"))
        #expect(both.usableEntries(running: "other").map(\.id) == ["slack.desktop"])
        #expect(index(sandbox).usableEntries(running: "other").map(\.id) == ["new-other.desktop", "slack.desktop"])
    }

    /// A file's MIME type has its own map, apart from the scheme map (a link reads none of it),
    /// from the entries or a trusted `mimeinfo.cache`, as the scheme map is made.
    @Test func theHandlersOfAFileTypeComeFromAMapOfTheirOwn() throws {
        let sandbox = Sandbox()
        sandbox.desktopEntry("viewer.desktop", sandbox.application(name: "Viewer", exec: "viewer %f", "MimeType=Image/PNG;text/plain;\n"))
        sandbox.desktopEntry("sub/editor.desktop", sandbox.application(name: "Editor", exec: "editor %f", "MimeType=text/plain;\n"))
        sandbox.desktopEntry(
            "browser.desktop", sandbox.application(name: "Browser", exec: "browser %u", "MimeType=x-scheme-handler/https;text/html;\n"))
        sandbox.desktopEntry("hidden.desktop", "[Desktop Entry]\nType=Application\nExec=x\nHidden=true\nMimeType=text/plain;\n")
        sandbox.desktopEntry(
            "system.desktop", sandbox.application(name: "System", exec: "system %f", "MimeType=text/plain;\n"),
            directory: sandbox.dataDir + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let first = index(sandbox)
        #expect(first.declaredHandlers(forMimeType: "image/png").map(\.entry.id) == ["viewer.desktop"])
        #expect(
            first.declaredHandlers(forMimeType: "TEXT/plain").map(\.entry.id) == ["sub-editor.desktop", "viewer.desktop", "system.desktop"])
        #expect(first.declaredHandlers(forMimeType: "text/plain").map(\.rank) == [0, 0, 1])
        #expect(first.declaredHandlers(forMimeType: "application/pdf").isEmpty)
        #expect(!sandbox.exists(first.cachePath), "the scheme map is not built for a file")
        let saved = try #require(sandbox.read(first.mimeTypesCachePath))
        #expect(saved.contains("S\ttext/html\tbrowser.desktop\n") && !saved.contains("https"))
        // The schemes stay in the scheme map.
        #expect(first.declaredHandlers(forMimeType: "x-scheme-handler/https").map(\.entry.id) == ["browser.desktop"])
        #expect(try #require(sandbox.read(first.cachePath)).contains("S\thttps\tbrowser.desktop\n"))
        // A trusted mimeinfo.cache is taken as it is (an entry it leaves out is left out).
        sandbox.write(
            sandbox.dataHome + "/applications/mimeinfo.cache", "[MIME Cache]\ntext/plain=viewer.desktop;\nimage/png=viewer.desktop;\n")
        try FileManager.default.removeItem(atPath: first.mimeTypesCachePath)
        #expect(index(sandbox).declaredHandlers(forMimeType: "text/plain").map(\.entry.id) == ["viewer.desktop", "system.desktop"])
    }

    @Test func theEntriesThatImplementAnInterfaceComeFromASavedMap() throws {
        let sandbox = Sandbox()
        sandbox.desktopEntry(
            "term.desktop", sandbox.application(name: "Term", exec: "term", "Implements=org.freedesktop.Terminal1;org.example.Other;\n"))
        sandbox.desktopEntry("other.desktop", sandbox.application(name: "Other", exec: "other", "Implements=org.example.Other\n"))
        sandbox.desktopEntry(
            "broken.desktop", sandbox.application(name: "Broken", exec: "broken %x", "Implements=org.freedesktop.Terminal1;\n"))
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let first = index(sandbox)
        #expect(first.usableEntries(implementing: "org.freedesktop.Terminal1").map(\.id) == ["term.desktop"])
        #expect(first.usableEntries(implementing: "org.example.Other").map(\.id) == ["other.desktop", "term.desktop"])
        #expect(
            try #require(sandbox.read(first.interfacesCachePath)).contains("S\torg.freedesktop.Terminal1\tbroken.desktop\tterm.desktop\n"))
        #expect(!sandbox.exists(first.cachePath) && !sandbox.exists(first.programsCachePath))
    }

    @Test func corruptCacheIsIgnoredAndRebuilt() throws {
        let sandbox = Sandbox()
        sandbox.desktopEntry("one.desktop", sandbox.application(name: "One", exec: "one %u", "MimeType=x-scheme-handler/demo;\n"))
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let cachePath = index(sandbox).cachePath
        for junk in [
            "", "garbage\n", "choosy-desktop-index 1\nS\tdemo\n", "choosy-desktop-index 1\nD\tnot-a-number\t/x\n",
            "choosy-desktop-index 1\nX\t%zz\n",
        ] {
            sandbox.write(cachePath, junk)
            #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop"], "\(junk)")
            #expect(sandbox.read(cachePath)?.hasPrefix("choosy-desktop-index 1\n") == true)
        }
        sandbox.writeBytes(cachePath, [0xFF, 0x00, 0xC3])
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop"])
    }

    @Test func aCacheFromOtherDirectoriesIsNotUsed() {
        let sandbox = Sandbox()
        sandbox.desktopEntry("one.desktop", sandbox.application(name: "One", exec: "one %u", "MimeType=x-scheme-handler/demo;\n"))
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        sandbox.backdateDirectories(under: sandbox.dataDir + "/applications")
        let cachePath = index(sandbox).cachePath
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop"])
        #expect(sandbox.exists(cachePath))
        let other = sandbox.root + "/other/share"
        sandbox.desktopEntry(
            "two.desktop", sandbox.application(name: "Two", exec: "two %u", "MimeType=x-scheme-handler/demo;\n"),
            directory: other + "/applications")
        sandbox.overrides["XDG_DATA_DIRS"] = other
        #expect(index(sandbox).declaredHandlers(forScheme: "demo").map(\.entry.id) == ["one.desktop", "two.desktop"])
    }

    @Test func answersQuicklyWithThousandsOfEntries() throws {
        let sandbox = Sandbox()
        let system = sandbox.dataDir + "/applications"
        for number in 0..<4000 {
            let directory = number % 10 == 0 ? system + "/vendor" : system
            sandbox.write(
                directory + "/org.example.App\(number).desktop",
                sandbox.application(
                    name: "App \(number)", exec: "app\(number) %u",
                    "Name[de]=Programm \(number)\nComment=An application with a longer comment line\nMimeType=text/plain;x-scheme-handler/s\(number % 50);\n"
                ))
        }
        sandbox.backdateDirectories(under: system)
        sandbox.backdateDirectories(under: sandbox.dataHome + "/applications")
        let build = ContinuousClock().measure { _ = self.index(sandbox).declaredHandlers(forScheme: "s1") }  // builds and saves the map
        #expect(build < .seconds(20))

        let index = index(sandbox)
        let clock = ContinuousClock()
        let byID = clock.measure {
            for number in stride(from: 0, to: 4000, by: 400) {
                _ = index.usableEntry(id: "org.example.App\(number).desktop")
            }
        }
        var handlers: [(entry: DesktopEntry, rank: Int)] = []
        let byScheme = clock.measure { handlers = index.declaredHandlers(forScheme: "s7") }
        #expect(handlers.count == 80)
        #expect(index.entry(id: "vendor-org.example.App10.desktop")?.name == "App 10")
        // Generous bounds: debug builds on a shared machine. Reading all 4,000 would take seconds.
        #expect(byID < .milliseconds(100), "10 lookups by ID took \(byID)")
        #expect(byScheme < .milliseconds(300), "a scheme lookup took \(byScheme)")
    }
}
