/// The message locale that picks `Key[locale]` values (Desktop Entry spec, "Localized values
/// for keys"): `lang_COUNTRY.ENCODING@MODIFIER`, where the encoding never matters.
package struct DesktopLocale: Equatable, Sendable {
    package var language: String
    package var country: String?
    package var modifier: String?

    package init(language: String, country: String? = nil, modifier: String? = nil) {
        self.language = language
        self.country = country
        self.modifier = modifier
    }

    /// Parses a POSIX locale name; `C`, `C.UTF-8` and `POSIX` are the locale `C`, whose
    /// values are `Key[C]` (as GLib reads them); nil for empty or malformed names.
    package init?(parsing name: String) {
        if name == "POSIX" {
            self.init(language: "C")
            return
        }
        var rest = Substring(name)
        var modifier: String?
        if let at = rest.firstIndex(of: "@") {
            modifier = String(rest[rest.index(after: at)...])
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        var country: String?
        if let underscore = rest.firstIndex(of: "_") {
            country = String(rest[rest.index(after: underscore)...])
            rest = rest[..<underscore]
        }
        let language = String(rest)
        guard !language.isEmpty, language != "POSIX",
            country?.isEmpty != true, modifier?.isEmpty != true,
            ![language, country ?? "", modifier ?? ""].contains(where: { $0.contains("[") || $0.contains("]") || $0.contains("/") })
        else { return nil }
        self.init(language: language, country: country, modifier: modifier)
    }

    /// The locale of messages: the first set of `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX
    /// precedence); nil when none is set or the first set is malformed.
    package static func messages(in environment: Environment) -> DesktopLocale? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment.value(name) { return DesktopLocale(parsing: value) }
        }
        return nil
    }

    /// The key suffixes to try, best first; the unlocalized key comes after all of them.
    package var candidates: [String] {
        var result: [String] = []
        if let country, let modifier { result.append("\(language)_\(country)@\(modifier)") }
        if let country { result.append("\(language)_\(country)") }
        if let modifier { result.append("\(language)@\(modifier)") }
        result.append(language)
        return result
    }
}
