/// The file of an icon a desktop entry names, for a picker that shows only image files
/// (wofi): an absolute path as it is, a name looked up in the hicolor theme (the one every
/// icon theme falls back to, by the Icon Theme spec) and then in `/usr/share/pixmaps`.
package struct IconFileFinder: Sendable {
    private let directories: [String]
    private let fileSystem: FileSystem

    /// Sizes near a row's height first; then scalable ones.
    static let sizes = ["32x32", "48x48", "24x24", "64x64", "128x128", "256x256", "scalable"]

    package init(environment: Environment, fileSystem: FileSystem) {
        let bases = [environment.dataHome] + environment.dataDirs
        directories =
            bases.flatMap { base in IconFileFinder.sizes.map { joinPath(base, "icons/hicolor", $0, "apps") } }
            + ["/usr/share/pixmaps"]
        self.fileSystem = fileSystem
    }

    package func file(for icon: String) -> String? {
        if icon.hasPrefix("/") { return fileSystem.info(icon)?.kind == .regular ? icon : nil }
        guard !icon.contains("/"), !icon.hasPrefix(".") else { return nil }
        for directory in directories {
            for suffix in [".png", ".svg"] {
                let path = joinPath(directory, icon + suffix)
                if fileSystem.info(path)?.kind == .regular { return path }
            }
        }
        return nil
    }
}
