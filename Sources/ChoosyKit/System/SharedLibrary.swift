import Glibc

/// A C library opened with dlopen when a command first needs it, so that commands which never
/// need it do not pay for loading it.
struct SharedLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// The library by its soname, the ABI the callers' function types describe; nil when it is
    /// not installed.
    init?(soname: String) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        self.handle = handle
    }

    /// The function `name` as the C function type `type`, or nil when this build lacks it.
    func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
