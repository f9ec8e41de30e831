import Glibc

/// A C library opened with dlopen when a command first needs it, so that commands which never
/// need it do not pay for loading it (libcurl, ICU, libpsl).
struct SharedLibrary: @unchecked Sendable {
    /// The name users know it by (`libidn2`), for errors.
    let name: String
    /// The one of the sonames that loaded (ICU's version is in its symbol names).
    let soname: String
    private let handle: UnsafeMutableRawPointer

    /// The first of `sonames` that loads, the ABI the callers' function types describe; when
    /// none does, the error says which Debian `package` to install and what it is `neededFor`.
    init(_ name: String, sonames: [String], package: String, neededFor purpose: String) throws(SharedLibraryError) {
        guard let (soname, handle) = sonames.lazy.compactMap({ soname in dlopen(soname, RTLD_NOW | RTLD_LOCAL).map { (soname, $0) } }).first
        else {
            throw .notInstalled(library: name, package: package, neededFor: purpose)
        }
        self.name = name
        self.soname = soname
        self.handle = handle
    }

    /// The function `symbol` as the C function type the caller expects.
    func function<Function>(_ symbol: String) throws(SharedLibraryError) -> Function {
        guard let address = dlsym(handle, symbol) else { throw .lacks(library: name, symbol: symbol) }
        return unsafeBitCast(address, to: Function.self)
    }
}

enum SharedLibraryError: Error, Sendable, CustomStringConvertible {
    case notInstalled(library: String, package: String, neededFor: String)
    case lacks(library: String, symbol: String)

    var description: String {
        switch self {
        case .notInstalled(let library, let package, let purpose):
            "\(library) is not installed (apt-get install \(package)), and it is needed \(purpose)"
        case .lacks(let library, let symbol):
            "the installed \(library) lacks \(symbol)"
        }
    }
}
