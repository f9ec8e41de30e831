/// The Public Suffix List, through libpsl, loaded by the first question (only commands about
/// sites ask). The data is the newer of libpsl's built-in copy and the distribution's file
/// (`/usr/share/publicsuffix`, kept current by the `publicsuffix` package).
///
/// Both sections of the list count: the ICANN suffixes (`com`, `co.uk`) and the private ones
/// that hosting platforms register (`github.io`), because under either each name below the
/// suffix has its own owner: `alice.github.io` is Alice's site, and a rule for `github.io`
/// would be a rule for everybody's. A name the list does not know (`localhost`, an intranet's
/// `corp`) is no package suffix: the list's implicit `*` rule is left out, so that a site on
/// the user's own network can have a rule of its own.
package struct PublicSuffixList: Sendable {
    private typealias LatestFunction = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias BuiltinFunction = @convention(c) () -> OpaquePointer?
    private typealias IsPublicSuffixFunction = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    private typealias RegistrableDomainFunction = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?

    /// From libpsl.h, part of the stable ABI of libpsl.so.5: both sections, without the
    /// implicit `*` rule.
    private static let anySectionWithoutStarRule: Int32 = 1 | 2 | 4

    private struct Library: @unchecked Sendable {
        let context: OpaquePointer
        let isPublicSuffix: IsPublicSuffixFunction
        let registrableDomain: RegistrableDomainFunction
    }

    private static let loaded: Result<Library, WebError> = {
        do throws(SharedLibraryError) {
            let library = try SharedLibrary("libpsl", sonames: ["libpsl.so.5"], package: "libpsl5", neededFor: "for the Public Suffix List")
            let latest: LatestFunction = try library.function("psl_latest")
            let builtin: BuiltinFunction = try library.function("psl_builtin")
            // Kept for the life of the process, so never freed.
            guard let context = latest(nil) ?? builtin() else { return .failure(WebError("libpsl has no Public Suffix List data")) }
            return .success(
                Library(
                    context: context, isPublicSuffix: try library.function("psl_is_public_suffix2"),
                    registrableDomain: try library.function("psl_registrable_domain")
                ))
        } catch {
            return .failure(WebError(error.description))
        }
    }()

    private let library: Library

    /// The list, or why libpsl cannot give it.
    package static func load() throws(WebError) -> PublicSuffixList {
        PublicSuffixList(library: try loaded.get())
    }

    /// True for a suffix under which anyone can register a name: `com`, `co.uk`, `github.io`,
    /// `xn--p1ai` (.рф). Never for an IP address.
    package func isPublicSuffix(_ host: WebHost) -> Bool {
        guard let name = host.domainName else { return false }
        return name.withCString { library.isPublicSuffix(library.context, $0, Self.anySectionWithoutStarRule) } != 0
    }

    /// The name one owner registered, the package suffix and one label more:
    /// `a.b.example.co.uk` → `example.co.uk`, `alice.github.io` → itself, `localhost` → itself.
    /// nil for a package suffix, an IP address and a name with an empty label, which have none.
    package func registrableDomain(of host: WebHost) -> String? {
        guard let name = host.domainName, !name.isEmpty, !host.hasEmptyLabel, !isPublicSuffix(host) else { return nil }
        // libpsl answers with a pointer into its input, so it is copied while that lives.
        let registrable = name.withCString { name in library.registrableDomain(library.context, name).map { String(cString: $0) } }
        return registrable ?? name
    }
}
