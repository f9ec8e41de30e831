/// A file read like `mimeapps.list`, and where such files are, most important first (MIME
/// Applications Associations spec 1.0.1, "File name and location"): `$XDG_CONFIG_HOME`, each of
/// `$XDG_CONFIG_DIRS`, then `applications/` of `$XDG_DATA_HOME` and of each `$XDG_DATA_DIRS`,
/// each directory's `<desktop>-NAME` first, for every name of `XDG_CURRENT_DESKTOP` in turn.
/// The intent-apps spec lists the same places for `intentapps.list` but `$XDG_DATA_HOME`.
package struct ListFile: Equatable, Sendable {
    package var path: String
    /// `<desktop>-NAME` files may only set defaults.
    package var isDesktopSpecific: Bool
    /// The applications directory it is in; nil for a config directory.
    package var applicationsDirectory: String?

    package static func locations(of name: String, in environment: Environment, dataHome: Bool = true) -> [ListFile] {
        // A desktop name becomes part of a file name; one that could leave the directory is ignored.
        let desktops = environment.currentDesktops.filter { !$0.isEmpty && !$0.contains("/") && !$0.hasPrefix(".") }
        let directories =
            ([environment.configHome] + environment.configDirs).map { ($0, nil as String?) }
            + ((dataHome ? [environment.dataHome] : []) + environment.dataDirs).map { base -> (String, String?) in
                let directory = joinPath(base, "applications")
                return (directory, directory)
            }
        var files: [ListFile] = []
        for (directory, applications) in directories {
            for desktop in desktops {
                files.append(
                    ListFile(path: joinPath(directory, "\(desktop)-\(name)"), isDesktopSpecific: true, applicationsDirectory: applications))
            }
            files.append(ListFile(path: joinPath(directory, name), isDesktopSpecific: false, applicationsDirectory: applications))
        }
        return files
    }
}
