/// What a built URL must be before an app gets it as an argument (or it is printed). The URL
/// is made of catalog data (from a server) and parameters (from any caller of `route` or
/// `handle`), and a template that starts with a placeholder (`{{url}}`) passes a parameter
/// through verbatim, so this is where a value that would be an option (`--gpu-launcher=…`), a
/// script, or a string no argv can carry is stopped.
enum LaunchableURL {
    /// The kernel's limit for one argument (`MAX_ARG_STRLEN`, 32 pages of 4 KiB), without its
    /// terminating NUL; a longer one would fail in `execve` with E2BIG.
    static let maxBytes = 32 * 4096 - 1

    /// URLs that run code in whatever app opens them.
    static let refusedSchemes: Set<String> = ["javascript", "data", "vbscript"]

    /// Why `url` must not be handed to an app, or nil when it may be. The empty URL is fine:
    /// the app is then started without one.
    static func problem(with url: String) -> String? {
        if url.isEmpty { return nil }
        if url.utf8.contains(0) { return "it holds a NUL byte, which no argument can carry" }
        // No URL holds raw control characters; in one they could only act on a terminal that
        // shows it (`choosy url`, `--dry-run`) or hide part of it from the user.
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "it holds a control character"
        }
        if url.utf8.count > maxBytes {
            return "it is \(url.utf8.count) bytes long, and one argument holds at most \(maxBytes)"
        }
        // Absolute paths are what file-opening templates (`{{path}}`) are for.
        if url.hasPrefix("/") { return nil }
        guard let parts = URLParts(url) else {
            return "it is neither an absolute URL nor an absolute path"
        }
        let scheme = parts.scheme.lowercased()
        if refusedSchemes.contains(scheme) { return "\(scheme): URLs are never opened" }
        return nil
    }
}
