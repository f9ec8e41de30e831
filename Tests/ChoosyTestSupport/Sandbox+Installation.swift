import Glibc

extension Sandbox {
    /// The choosy binary laid out as an installation, `PREFIX/bin/choosy` with the link-cleaning
    /// rules in `PREFIX/share/choosy/clean/` beside it, as `make install` and the Debian package
    /// lay it out; returns the executable's path.
    package func installedChoosy() -> String {
        let prefix = root + "/prefix"
        let executable = prefix + "/bin/choosy"
        if access(executable, X_OK) == 0 { return executable }
        write(prefix + "/bin/.keep", "")
        // A hard link: the kernel names the executable by the path it was started from.
        precondition(link(Sandbox.choosyBinary, executable) == 0)
        for name in ["data.min.json", "choosy.json", "shorteners.txt", "LICENSE"] {
            write(prefix + "/share/choosy/clean/" + name, read(Sandbox.packageRoot + "/clean/" + name) ?? "")
        }
        return executable
    }
}
