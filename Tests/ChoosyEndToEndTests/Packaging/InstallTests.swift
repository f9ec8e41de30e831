import ChoosyKit
import ChoosyTestSupport
import Foundation
import Testing

/// `make install` and `make uninstall` into a staging directory. They install the binary under
/// test (`BINARY=`, so no release build runs inside the tests); with
/// `CHOOSY_TEST_BINARY=.build/release/choosy` this checks the release binary instead.
@Suite struct InstallTests {
    let sandbox = Sandbox()
    var stage: String { sandbox.root + "/stage" }

    /// `staged`: with `DESTDIR` the stage; without, into `prefix` itself. `variables`: more of make's.
    private func make(_ target: String, prefix: String = "/usr", staged: Bool = true, _ variables: [String] = []) -> Sandbox.Output {
        sandbox.run(
            ["/usr/bin/make", "-s", "-C", Sandbox.packageRoot, target, "PREFIX=" + prefix, "BINARY=" + Sandbox.choosyBinary]
                + (staged ? ["DESTDIR=" + stage] : []) + variables)
    }

    private static let installedFiles = [
        "usr/bin/choosy",
        "usr/share/man/man1/choosy.1",
        "usr/share/bash-completion/completions/choosy",
        "usr/share/zsh/site-functions/_choosy",
        "usr/share/fish/vendor_completions.d/choosy.fish",
        "usr/share/applications/choosy.desktop",
        "usr/share/choosy/catalog/README.md",
        "usr/share/choosy/clean/LICENSE",
        "usr/share/choosy/clean/README.md",
        "usr/share/choosy/clean/choosy.json",
        "usr/share/choosy/clean/data.min.json",
        "usr/share/choosy/clean/shorteners.txt",
        "usr/share/choosy/installed-directories",
    ]

    private var catalogFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Sandbox.packageRoot + "/catalog/app-data")) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    private func filesUnderStage() -> [String] {
        entriesUnderStage().filter { !$0.hasSuffix("/") }
    }

    /// Every file and directory below the stage (directories end in `/`).
    private func entriesUnderStage() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: stage)
        var entries: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: stage + "/" + relative, isDirectory: &isDirectory)
            entries.append(isDirectory.boolValue ? relative + "/" : relative)
        }
        return entries.sorted()
    }

    @Test func installsEveryFileAndUninstallRemovesThem() {
        let installed = make("install")
        #expect(installed.status == 0, "\(installed.stderr)")
        let expected = Self.installedFiles + catalogFiles.map { "usr/share/choosy/catalog/app-data/" + $0 }
        #expect(filesUnderStage() == expected.sorted())
        #expect(catalogFiles.count >= 10)
        for file in catalogFiles {
            #expect(
                sandbox.read(stage + "/usr/share/choosy/catalog/app-data/" + file)
                    == sandbox.read(Sandbox.packageRoot + "/catalog/app-data/" + file))
        }
        #expect(FileManager.default.isExecutableFile(atPath: stage + "/usr/bin/choosy"))
        #expect(sandbox.read(stage + "/usr/share/man/man1/choosy.1") == sandbox.read(Sandbox.packageRoot + "/doc/choosy.1"))
        #expect(sandbox.read(stage + "/usr/share/bash-completion/completions/choosy") == sandbox.choosy("completions", "bash").stdout)
        #expect(sandbox.read(stage + "/usr/share/zsh/site-functions/_choosy") == sandbox.choosy("completions", "zsh").stdout)
        #expect(sandbox.read(stage + "/usr/share/fish/vendor_completions.d/choosy.fish") == sandbox.choosy("completions", "fish").stdout)

        // The installed binary finds the cleaning rules installed beside it.
        let cleaned = sandbox.run([stage + "/usr/bin/choosy", "clean", "https://example.com/?utm_source=a&id=5"])
        #expect(cleaned.stdout == "https://example.com/?id=5\n" && cleaned.status == 0, "\(cleaned.stderr)")

        let uninstalled = make("uninstall")
        #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
        #expect(entriesUnderStage() == [], "install created them all, so uninstall removes them all")
    }

    /// Directories that were there before install (another program's files, an empty man
    /// directory) stay; the ones install made go, also after installing twice.
    @Test func uninstallRemovesOnlyTheDirectoriesInstallCreated() {
        let other = sandbox.write(stage + "/usr/share/applications/other.desktop", "[Desktop Entry]\n")
        #expect(sandbox.run(["/bin/mkdir", "-p", stage + "/usr/share/man/man1"]).status == 0)
        let before = entriesUnderStage()
        #expect(make("install").status == 0)
        #expect(make("install").status == 0)
        #expect(sandbox.read(stage + "/usr/share/choosy/installed-directories")?.contains("/usr/share/man\n") == false)
        let uninstalled = make("uninstall")
        #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
        #expect(entriesUnderStage() == before)
        #expect(sandbox.exists(other))
    }

    /// The installed binary has no symbol table (the release build: 22 MB with one, 10.4 MB
    /// without), and still runs. The debug build the tests run on has one to strip.
    @Test func installStripsTheBinary() {
        #expect(make("install").status == 0)
        let installed = stage + "/usr/bin/choosy"
        #expect(!sectionNames(of: installed).contains(".symtab"))
        #expect(sandbox.run([installed, "--version"]).stdout.hasPrefix("choosy "))
    }

    private func sectionNames(of binary: String) -> [String] {
        let output = sandbox.run(["/usr/bin/readelf", "--section-headers", "--wide", binary])
        // Rows look like "  [12] .text  PROGBITS  …".
        return output.stdout.split(separator: "\n").compactMap { line in
            guard let bracket = line.firstIndex(of: "]") else { return nil }
            return line[line.index(after: bracket)...].split(separator: " ").first.map(String.init)
        }
    }

    /// Nothing outside DESTDIR/PREFIX unless asked for by name: a /usr/local install keeps the
    /// fish completion in /usr/local/share, which fish searches only when XDG_DATA_DIRS names it
    /// (a console or SSH login often has it unset), and says how to make fish find it;
    /// `FISH_COMPLETIONSDIR` puts it where fish looks by itself.
    @Test func aUsrLocalInstallStaysInItsPrefixAndSaysHowFishFindsTheCompletion() throws {
        let installed = make("install", prefix: "/usr/local")
        #expect(installed.status == 0, "\(installed.stderr)")
        let outside = filesUnderStage().filter { !$0.hasPrefix("usr/local/") }
        #expect(outside == [], "written outside the prefix: \(outside)")
        let directory = "/usr/local/share/fish/vendor_completions.d"
        #expect(sandbox.read(stage + directory + "/choosy.fish") == sandbox.choosy("completions", "fish").stdout)
        #expect(installed.stderr.contains("    set -p fish_complete_path \(directory)\n"), "\(installed.stderr)")
        #expect(make("uninstall", prefix: "/usr/local").status == 0)
        #expect(entriesUnderStage() == [])

        let named = make("install", prefix: "/usr/local", ["FISH_COMPLETIONSDIR=/usr/share/fish/vendor_completions.d"])
        #expect(named.status == 0 && named.stderr.isEmpty, "\(named.stderr)")
        #expect(sandbox.exists(stage + "/usr/share/fish/vendor_completions.d/choosy.fish"))
        #expect(make("uninstall", prefix: "/usr/local", ["FISH_COMPLETIONSDIR=/usr/share/fish/vendor_completions.d"]).status == 0)
        #expect(entriesUnderStage() == [])
    }

    /// A user's own install, `make install PREFIX=~/.local` with no root: every file below
    /// ~/.local, and fish, with XDG_DATA_DIRS unset, completes from it (its user data directory).
    @Test func aUserInstallStaysBelowItsPrefixAndFishCompletesFromIt() throws {
        let prefix = sandbox.home + "/.local"
        let before = TreeSnapshot(sandbox.root, excluding: [prefix])
        let installed = make("install", prefix: prefix, staged: false)
        #expect(installed.status == 0 && installed.stderr.isEmpty, "\(installed.stderr)")
        #expect(TreeSnapshot(sandbox.root, excluding: [prefix]).changes(since: before) == [])
        #expect(sandbox.exists(prefix + "/share/fish/vendor_completions.d/choosy.fish"))
        let completed = sandbox.run(
            ["/usr/bin/fish", "-c", "complete -C 'choosy complet'"],
            environment: ["XDG_DATA_DIRS": "", "PATH": prefix + "/bin:/usr/bin:/bin"])
        #expect(completed.stdout.hasPrefix("completions"), "\(completed.stdout) \(completed.stderr)")
        #expect(make("uninstall", prefix: prefix, staged: false).status == 0)
        #expect(!sandbox.exists(prefix + "/bin/choosy") && !sandbox.exists(prefix + "/share/fish/vendor_completions.d/choosy.fish"))
    }

    @Test func desktopEntryTemplateRunsTheInstalledBinary() {
        #expect(make("install").status == 0)
        let path = stage + "/usr/share/applications/choosy.desktop"
        let entry = sandbox.read(path) ?? ""
        #expect(entry.contains("\nExec=/usr/bin/choosy handle %u\n"))
        #expect(entry.contains("\nMimeType=x-scheme-handler/choosy;\n"))
        #expect(entry.contains("\nNoDisplay=true\n"))
        #expect(entry.contains("\nStartupNotify=true\n"))
        let validation = sandbox.run(["/usr/bin/desktop-file-validate", path])
        #expect(validation.status == 0 && validation.stdout == "", "\(validation.stdout)")
    }

    /// The binary is self-contained: copied elsewhere and run with nothing but HOME and PATH,
    /// it lists the bundled catalog (offline: tests do not use the network).
    @Test func installedBinaryRunsAnywhereWithABareEnvironment() {
        #expect(make("install").status == 0)
        let home = sandbox.root + "/empty-home"
        let elsewhere = sandbox.root + "/elsewhere"
        #expect(sandbox.run(["/bin/mkdir", "-p", home, elsewhere]).status == 0)
        // Copied by cp (a child), so no descriptor of this process holds the new executable.
        #expect(sandbox.run(["/bin/cp", stage + "/usr/bin/choosy", elsewhere + "/choosy"]).status == 0)
        let output = sandbox.run(["/usr/bin/env", "-i", "HOME=" + home, "PATH=/usr/bin:/bin", elsewhere + "/choosy", "--offline", "list"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("browser"))
        #expect(output.stdout.contains("twitter"))
    }

    /// bash-completion finds the installed script on its own (it looks in XDG_DATA_DIRS).
    @Test func bashCompletionLoadsTheInstalledScript() {
        #expect(make("install").status == 0)
        sandbox.putChoosyOnPath()
        let output = sandbox.run(
            [
                "/bin/bash", "-c",
                """
                source /usr/share/bash-completion/bash_completion
                __load_completion choosy
                complete -p choosy
                COMP_WORDS=(choosy open Twitter show_profile pro); COMP_CWORD=4
                _choosy
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
            ], environment: ["XDG_DATA_DIRS": stage + "/usr/share"])
        #expect(output.stdout == "complete -F _choosy choosy\nprofile_screenname=\n", "\(output.stderr)")
    }
}
