import ChoosyKit
import Foundation

extension Sandbox {
    /// A minimal usable application entry, with extra `Key=Value` lines.
    package func application(name: String, exec: String, _ extra: String = "") -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n" + extra
    }

    /// Installs a desktop entry of a Debian package unchanged (`Tests/Fixtures/debian-desktop-entries`)
    /// in the system's applications directory, except that each `Exec` and `TryExec` program becomes a recorder
    /// of the same name, so its runs are seen; returns the recorder names.
    @discardableResult
    package func installDebianEntry(package: String, id: String) -> [String] {
        let path = Sandbox.packageRoot + "/Tests/Fixtures/debian-desktop-entries/\(package)/\(id)"
        var programs: [String] = []
        let lines = String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let entry = lines.map { line -> String in
            guard let key = ["Exec=", "TryExec="].first(where: { line.hasPrefix($0) }),
                let program = line.dropFirst(key.count).split(separator: " ").first
            else { return String(line) }
            let name = String(program.split(separator: "/").last!)
            if key == "Exec=" && !programs.contains(name) { programs.append(name) }
            return key + recorder(name) + line.dropFirst(key.count + program.count)
        }
        desktopEntry(id, entry.joined(separator: "\n"), directory: dataDir + "/applications")
        return programs
    }

    /// Writes raw bytes (junk files, invalid UTF-8) to a path under the sandbox.
    @discardableResult
    package func writeBytes(_ path: String, _ bytes: [UInt8]) -> String {
        let full = path.hasPrefix("/") ? path : root + "/" + path
        try! FileManager.default.createDirectory(atPath: parentDirectory(of: full), withIntermediateDirectories: true)
        try! Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Sets the modification time of `directory` and every directory below it an hour back, as
    /// if nothing had changed lately (indexes do not trust directories changed just now).
    package func backdateDirectories(under directory: String) {
        let past = Date().addingTimeInterval(-3600)
        var directories = [directory]
        if let enumerator = FileManager.default.enumerator(atPath: directory) {
            for case let relative as String in enumerator {
                var isDirectory: ObjCBool = false
                let path = directory + "/" + relative
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    directories.append(path)
                }
            }
        }
        for path in directories {
            try! FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
        }
    }

    /// The working directory of every finished run of recorder `name`, oldest first.
    package func recordedWorkingDirectories(_ name: String) -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? [])
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".cwd") }
            .sorted()
        return files.map { file in
            let text = String(decoding: FileManager.default.contents(atPath: records + "/" + file) ?? Data(), as: UTF8.self)
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
    }
}
